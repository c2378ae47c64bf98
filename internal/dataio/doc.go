// Package dataio moves a table's items in and out in DynamoDB's own
// formats: the S3 export layout (AWSDynamoDB/<ExportId>/ with its two
// manifests, their checksums and gzipped DynamoDB JSON data files), and
// the sources ImportTable reads (DynamoDB JSON lines or CSV, uncompressed,
// GZIP or ZSTD).
//
// It speaks only the DynamoDB API through the AWS SDK for Go v2 — a
// parallel Scan out, BatchWriteItem in — so the same code exports from and
// imports into DynamoDB itself as well as sortkey. Files are streamed a
// line at a time and batches are bounded, so memory stays flat whatever
// the size of the table or the files.
//
// Import follows ImportTable's rules: it always creates a new table, a
// line that cannot become an item is skipped, counted (ErrorCount) and
// logged as DynamoDB logs it to CloudWatch, and duplicate keys are not
// errors (the last write wins). A fault that makes the source unreadable
// — a missing manifest, a data file missing or not matching its checksum,
// a truncated stream — is found before the table is created where it can
// be, and otherwise deletes the table the import created: an import never
// leaves a half-filled table behind as if it were done.
package dataio
