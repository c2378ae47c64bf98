package s3dir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// The package's messages, each defined once.
const (
	msgEmptyValue   = "--s3-dir: empty value: want BUCKET=DIR or DIR"
	msgTwoRoots     = "--s3-dir: two root folders (%s and %s): give one, or map buckets by name with BUCKET=DIR"
	msgBucketTwice  = "--s3-dir: bucket %s is mapped twice"
	msgBucketName   = "S3 bucket name %q is not valid: 3 to 63 lower-case letters, digits, dots and hyphens"
	msgNotMapped    = "S3 bucket %s is not mapped to a folder: start sortkey with --s3-dir %s=DIR or --s3-dir ROOT"
	msgNoFolder     = "the folder of S3 bucket %s, %s, is not a folder: %v"
	msgBadKey       = "S3 key prefix %q is not allowed here: it must be relative and hold no \"..\", backslash or NUL"
	msgNotS3URL     = "%q is not an S3 URL: want s3://BUCKET/PREFIX"
	msgEmptyDirPath = "--s3-dir %s: the folder is empty"
	msgNoBuckets    = "%s uses S3 through local folders and sortkey has none: start it with --s3-dir BUCKET=DIR or --s3-dir ROOT"
)

// Map is where buckets are: Dirs by name, and any other bucket in Root's
// subfolder of its name. The zero Map maps nothing.
type Map struct {
	Dirs map[string]string // bucket name → folder
	Root string            // folder whose subfolders are buckets; "" for none
}

// Parse reads --s3-dir values: BUCKET=DIR maps one bucket, DIR (no "=")
// is the root. At most one root; each bucket once.
func Parse(values []string) (Map, error) {
	m := Map{Dirs: map[string]string{}}
	for _, v := range values {
		if err := m.add(v); err != nil {
			return Map{}, err
		}
	}
	return m, nil
}

func (m *Map) add(v string) error {
	bucket, dir, named := strings.Cut(v, "=")
	switch {
	case v == "":
		return errors.New(msgEmptyValue)
	case !named && m.Root != "":
		return fmt.Errorf(msgTwoRoots, m.Root, v)
	case !named:
		m.Root = v
		return nil
	case dir == "":
		return fmt.Errorf(msgEmptyDirPath, v)
	case m.Dirs[bucket] != "":
		return fmt.Errorf(msgBucketTwice, bucket)
	}
	if err := CheckBucket(bucket); err != nil {
		return err
	}
	m.Dirs[bucket] = dir
	return nil
}

// bucketName is S3's rule for general purpose bucket names, loosely: the
// characters and length (dots and hyphens at the ends are let through).
var bucketName = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$`)

// CheckBucket refuses a name S3 would not give a bucket, so that a name
// never reads as a path (".", "..", "a/b").
func CheckBucket(name string) error {
	if !bucketName.MatchString(name) || strings.Contains(name, "..") {
		return fmt.Errorf(msgBucketName, name)
	}
	return nil
}

// Empty reports whether m maps no bucket at all.
func (m Map) Empty() bool { return len(m.Dirs) == 0 && m.Root == "" }

// Bucket is the folder of the named bucket, which must exist.
func (m Map) Bucket(name string) (string, error) {
	if err := CheckBucket(name); err != nil {
		return "", err
	}
	dir, ok := m.Dirs[name]
	if !ok && m.Root == "" {
		return "", fmt.Errorf(msgNotMapped, name, name)
	}
	if !ok {
		dir = filepath.Join(m.Root, name)
	}
	fi, err := os.Stat(dir)
	if err == nil && !fi.IsDir() {
		err = fmt.Errorf("not a directory")
	}
	if err != nil {
		return "", fmt.Errorf(msgNoFolder, name, dir, err)
	}
	return dir, nil
}

// CheckKey refuses a key or key prefix that could name a path outside
// its bucket's folder. "" (the whole bucket) is allowed.
func CheckKey(key string) error {
	bad := strings.HasPrefix(key, "/") || strings.ContainsAny(key, "\\\x00")
	for _, seg := range strings.Split(key, "/") {
		bad = bad || seg == ".."
	}
	if bad {
		return fmt.Errorf(msgBadKey, key)
	}
	return nil
}

// Resolve is the folder of bucket and the checked prefix, for an
// operation naming S3Bucket and S3KeyPrefix.
func (m Map) Resolve(bucket, prefix string) (string, error) {
	if err := CheckKey(prefix); err != nil {
		return "", err
	}
	return m.Bucket(bucket)
}

// Use opens the folder of bucket for operation op, which says how to map
// buckets when m maps none, once the prefix is checked. Every file of the
// bucket is reached through the *os.Root, which refuses a name or a
// symbolic link leading outside the folder: a key names an object of its
// bucket, never a file elsewhere on the server. The caller closes it.
func (m Map) Use(op, bucket, prefix string) (*os.Root, error) {
	if m.Empty() {
		return nil, fmt.Errorf(msgNoBuckets, op)
	}
	dir, err := m.Resolve(bucket, prefix)
	if err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf(msgNoFolder, bucket, dir, err)
	}
	return root, nil
}

// ParseURL splits s3://BUCKET/PREFIX.
func ParseURL(url string) (bucket, prefix string, err error) {
	rest, ok := strings.CutPrefix(url, "s3://")
	if !ok {
		return "", "", fmt.Errorf(msgNotS3URL, url)
	}
	bucket, prefix, _ = strings.Cut(rest, "/")
	if err := CheckBucket(bucket); err != nil {
		return "", "", err
	}
	return bucket, prefix, CheckKey(prefix)
}
