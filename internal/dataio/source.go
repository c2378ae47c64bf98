package dataio

import (
	"bufio"
	"compress/gzip"
	"crypto/md5"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/klauspost/compress/zstd"
)

// Compression types, ImportTable's InputCompressionType.
const (
	CompressionNone = "NONE"
	CompressionGzip = "GZIP"
	CompressionZstd = "ZSTD"
)

// source is what an import reads: data files, and the export's summary
// when the folder is an export.
type source struct {
	files   []SourceFile
	summary *Summary
}

// SourceFile is one data file an import reads.
type SourceFile struct {
	Path  string // on disk, in files
	Key   string // as logged: relative to the import's folder, or the S3 key
	md5   string // base64, from manifest-files.json; empty for a bare folder
	files Files  // nil: the local file system
}

// findSource reads dir as an export's folder (the one holding
// manifest-summary.json, or a folder whose AWSDynamoDB/ holds exactly one
// export) or else as a folder of data files, and checks everything that
// can be checked before a table is created.
func findSource(dir string) (*source, error) {
	if exists(filepath.Join(dir, summaryFile)) {
		return manifestSource(dir)
	}
	if inner, ok, err := singleExport(dir); ok || err != nil {
		if err != nil {
			return nil, err
		}
		return findSource(inner)
	}
	for _, name := range []string{filesFile, startedFile, summaryChecksum, dataDir} {
		if exists(filepath.Join(dir, name)) {
			return nil, fmt.Errorf(msgNoManifest, dir, name)
		}
	}
	return folderSource(dir)
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// singleExport is dir/AWSDynamoDB/<the one ExportId>, the shape `aws s3
// sync` of an export prefix leaves.
func singleExport(dir string) (string, bool, error) {
	entries, err := os.ReadDir(filepath.Join(dir, exportRoot))
	if err != nil {
		return "", false, nil
	}
	var ids []string
	for _, e := range entries {
		if e.IsDir() {
			ids = append(ids, e.Name())
		}
	}
	if len(ids) != 1 {
		return "", false, fmt.Errorf(msgManyExports, dir, len(ids))
	}
	return filepath.Join(dir, exportRoot, ids[0]), true, nil
}

func folderSource(dir string) (*source, error) {
	src := &source{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), ".") && path != dir {
			return skipHidden(d)
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(dir, path)
			src.files = append(src.files, SourceFile{Path: path, Key: filepath.ToSlash(rel)})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf(msgReadFailed, dir, err)
	}
	if len(src.files) == 0 {
		return nil, fmt.Errorf(msgNoSource, dir)
	}
	return src, nil
}

func skipHidden(d fs.DirEntry) error {
	if d.IsDir() {
		return filepath.SkipDir
	}
	return nil
}

func manifestSource(dir string) (*source, error) {
	var s Summary
	if err := readManifest(dir, summaryFile, summaryChecksum, func(data []byte) error { return json.Unmarshal(data, &s) }); err != nil {
		return nil, err
	}
	src := &source{summary: &s}
	var listed int64
	parse := func(data []byte) error {
		var err error
		src.files, listed, err = parseFileLines(dir, data)
		return err
	}
	if err := readManifest(dir, filesFile, filesChecksum, parse); err != nil {
		return nil, err
	}
	if listed != s.ItemCount {
		return nil, fmt.Errorf(msgManifestCount, listed, s.ItemCount)
	}
	return src, verifyFiles(src.files)
}

// readManifest reads a manifest (small: a summary, or a line per data
// file), checks it against its checksum file when there is one, and
// parses it.
func readManifest(dir, name, checksumName string, parse func([]byte) error) error {
	path := filepath.Join(dir, name)
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf(msgManifestRead, path, err)
	}
	if sum, err := os.ReadFile(filepath.Join(dir, checksumName)); err == nil && !checksumMatches(string(sum), data) {
		return fmt.Errorf(msgChecksum, name, checksumName)
	}
	if err := parse(data); err != nil {
		return fmt.Errorf(msgManifestRead, path, err)
	}
	return nil
}

func parseFileLines(dir string, data []byte) ([]SourceFile, int64, error) {
	var files []SourceFile
	var count int64
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var e FileEntry
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			return nil, 0, err
		}
		rel, ok := dataRel(e.DataFileS3Key)
		if !ok {
			return nil, 0, fmt.Errorf(msgManifestKey, i+1, e.DataFileS3Key)
		}
		files = append(files, SourceFile{Path: filepath.Join(dir, filepath.FromSlash(rel)), Key: rel, md5: e.MD5Checksum})
		count += e.ItemCount
	}
	return files, count, nil
}

// dataRel is a data file's key relative to its export's folder: the key
// holds the export prefix (or not), AWSDynamoDB/<ExportId>/, then data/.
func dataRel(key string) (string, bool) {
	i := strings.LastIndex("/"+key, "/"+dataDir+"/")
	if i < 0 || strings.Contains(key[i:], "..") {
		return "", false
	}
	return key[i:], true
}

// verifyFiles checks every listed data file is there and whole before
// anything is created: a truncated or changed file fails its MD5.
func verifyFiles(files []SourceFile) error {
	for _, f := range files {
		sum, err := fileMD5(f.Path)
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf(msgDataMissing, f.Key)
		}
		if err != nil {
			return fmt.Errorf(msgReadFailed, f.Key, err)
		}
		if f.md5 != "" && sum != f.md5 {
			return fmt.Errorf(msgChecksum, f.Key, "md5Checksum in "+filesFile)
		}
	}
	return nil
}

func fileMD5(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := md5.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(h.Sum(nil)), nil
}

// openData opens a data file through its decompressor.
func openData(sf SourceFile, compression string) (io.ReadCloser, error) {
	f, err := orLocal(sf.files).Open(sf.Path)
	if err != nil {
		return nil, err
	}
	r, err := decompress(bufio.NewReaderSize(f, 256<<10), compression)
	if err != nil {
		f.Close()
		return nil, err
	}
	return both{Reader: r, closers: []io.Closer{r, f}}, nil
}

func decompress(r io.Reader, compression string) (io.ReadCloser, error) {
	switch compression {
	case CompressionGzip:
		return gzip.NewReader(r)
	case CompressionZstd:
		d, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1))
		if err != nil {
			return nil, err
		}
		return d.IOReadCloser(), nil
	}
	return io.NopCloser(r), nil
}

type both struct {
	io.Reader
	closers []io.Closer
}

func (b both) Close() error {
	var errs []error
	for _, c := range b.closers {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}

// PrefixFiles are the files of the bucket folder root whose keys start
// with prefix, as ImportTable reads every object under its S3KeyPrefix:
// the prefix need not end at a folder ("data/part" takes data/part-1).
// Hidden files and folders are skipped. Each file's Key is its S3 key,
// and every file is reached through root, so none is outside it.
func PrefixFiles(root *os.Root, prefix string) ([]SourceFile, error) {
	start := "."
	if i := strings.LastIndex(prefix, "/"); i >= 0 {
		start = path.Clean(prefix[:i])
	}
	var files []SourceFile
	err := fs.WalkDir(root.FS(), start, func(key string, d fs.DirEntry, err error) error {
		switch {
		case err != nil && key == start && errors.Is(err, fs.ErrNotExist):
			return fs.SkipAll
		case err != nil:
			return err
		case strings.HasPrefix(d.Name(), ".") && key != start:
			return skipHidden(d)
		}
		if d.Type().IsRegular() && strings.HasPrefix(key, prefix) {
			files = append(files, SourceFile{Path: filepath.FromSlash(key), Key: key, files: root})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf(msgReadFailed, prefix, err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf(msgNoObjects, prefix)
	}
	return files, nil
}
