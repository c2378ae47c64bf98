// Package imports serves ImportTable, DescribeImport and ListImports.
//
// An import reads the objects under an S3 prefix from the local folder
// its bucket is mapped to (internal/s3dir), with internal/dataio's
// readers — the same ones `sortkey import` uses — and writes the items
// straight into the engine, not through the API. As in DynamoDB the
// import runs in the background and creates a new table, which is
// CREATING until the import ends: COMPLETED, or FAILED with
// ItemValidationError (the table kept with the valid items), or FAILED
// on a source that cannot be read (the table deleted, so no half-filled
// table is left as if it were done). Items that cannot be imported are
// counted (ErrorCount) and logged to a local file in place of
// CloudWatch Logs. Imports are remembered in memory only; closing the
// Manager fails the imports still running and deletes their tables.
package imports
