package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/internal/dataio"
	"github.com/sortkeydb/sortkey/internal/inproc"
	"github.com/sortkeydb/sortkey/internal/progress"
	"github.com/sortkeydb/sortkey/internal/s3dir"
)

// msgSeedWithAuth: a seed is loaded through the API before the server
// listens, and with access control on there is no principal to load it as.
const (
	msgSeedWithAuth = "--seed cannot be used with --auth: load the fixture with sortkey load as a principal allowed to create its tables"
	msgSeedFailed   = "--seed %s: %w"
)

// s3Dirs is --s3-dir, repeatable: BUCKET=DIR maps a bucket, DIR is a
// folder whose subfolders are buckets.
type s3Dirs []string

func (s *s3Dirs) String() string     { return strings.Join(*s, ",") }
func (s *s3Dirs) Set(v string) error { *s = append(*s, v); return nil }
func (s *s3Dirs) clear()             { *s = nil }

// applyS3 puts --s3-dir's buckets in opts.
func (s s3Dirs) apply(opts *sortkey.Options) error {
	m, err := s3dir.Parse(s)
	if err != nil {
		return err
	}
	opts.S3Dirs, opts.S3Root = m.Dirs, m.Root
	return nil
}

// seed loads the fixture folder dir into db before the server listens,
// skipping tables that already exist (a data folder seeded before).
func seed(db *sortkey.DB, dir string, m *progress.Meter) error {
	c := dynamodb.New(dynamodb.Options{
		Region: db.Region(), BaseEndpoint: aws.String("http://sortkey.seed"),
		Credentials: credentials.NewStaticCredentialsProvider("seed", "seed", ""),
		HTTPClient:  &http.Client{Transport: inproc.Transport{Handler: db.Handler()}},
	})
	_, err := dataio.Load(context.Background(), c, dir, dataio.LoadOptions{SkipExisting: true, Progress: m})
	m.Done()
	if err != nil {
		return fmt.Errorf(msgSeedFailed, dir, err)
	}
	return nil
}

var errSeedWithAuth = errors.New(msgSeedWithAuth)
