package exports

// The package's messages, each defined once.
const (
	msgIncremental    = "sortkey does not support incremental exports (ExportType INCREMENTAL_EXPORT, IncrementalExportSpecification): export the table with FULL_EXPORT"
	msgTokenConflict  = "There was a conflict when exporting to the specified S3 bucket. This can occur when the current export conflicts with a previous export request that had the same client token."
	msgExportNotFound = "Export not found: %s"
	msgNextToken      = "Invalid NextToken: %s"
	msgClosed         = "the server stopped before the export finished"
	msgWriteFailed    = "The export could not be written: %v"
)

// FailureCodes: sortkey's, since DynamoDB's list is not documented.
const (
	codeInternal = "InternalError"
	codeStopped  = "ExportStopped"
)
