package exports

// The package's messages, each defined once.
const (
	msgFromTimeMissing = "Invalid Request: ExportFromTime must be provided in IncrementalExportSpecification"
	msgWindowLength    = "Invalid Request: the duration between ExportFromTime and ExportToTime must be between 15 minutes and 24 hours"
	msgSpecNotIncr     = "Invalid Request: IncrementalExportSpecification can only be given with ExportType INCREMENTAL_EXPORT"
	msgTimeNotFull     = "Invalid Request: ExportTime can only be given with ExportType FULL_EXPORT; an incremental export takes ExportFromTime and ExportToTime"
	msgTokenConflict   = "There was a conflict when exporting to the specified S3 bucket. This can occur when the current export conflicts with a previous export request that had the same client token."
	msgExportNotFound  = "Export not found: %s"
	msgNextToken       = "Invalid NextToken: %s"
	msgClosed          = "the server stopped before the export finished"
	msgWriteFailed     = "The export could not be written to s3://%s/%s: %v"
)

// FailureCodes: sortkey's, since DynamoDB's list is not documented.
const (
	codeInternal = "InternalError"
	codeStopped  = "ExportStopped"
)
