// Package s3dir maps S3 buckets to local folders, for the operations
// that read or write S3 (ImportTable, exports) on a machine without S3.
//
// A bucket is mapped to a folder by name (BUCKET=DIR), or is a subfolder
// of one root folder. An object's key is a path below its bucket's
// folder; keys and prefixes are checked so that none reaches outside it
// ("..", absolute paths, backslashes and NUL are refused), and the folder
// is opened as an *os.Root, through which no symbolic link leads outside
// it either.
package s3dir
