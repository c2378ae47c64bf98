package dataio

import (
	"io/fs"
	"os"
)

// Files is the file system an export writes to and an import reads from.
// ExportTableToPointInTime and ImportTable pass an *os.Root, the folder of
// an S3 bucket (internal/s3dir), so that no name or symbolic link leads
// outside it; nil is the local file system, for the export and import
// commands, whose folders the user names.
type Files interface {
	MkdirAll(name string, perm fs.FileMode) error
	WriteFile(name string, data []byte, perm fs.FileMode) error
	Create(name string) (*os.File, error)
	Open(name string) (*os.File, error)
	RemoveAll(name string) error
}

// localFiles is the local file system, names as the os package takes them.
type localFiles struct{}

func (localFiles) MkdirAll(name string, perm fs.FileMode) error { return os.MkdirAll(name, perm) }
func (localFiles) Create(name string) (*os.File, error)         { return os.Create(name) }
func (localFiles) Open(name string) (*os.File, error)           { return os.Open(name) }
func (localFiles) RemoveAll(name string) error                  { return os.RemoveAll(name) }

func (localFiles) WriteFile(name string, data []byte, perm fs.FileMode) error {
	return os.WriteFile(name, data, perm)
}

// orLocal is f, or the local file system for nil.
func orLocal(f Files) Files {
	if f == nil {
		return localFiles{}
	}
	return f
}
