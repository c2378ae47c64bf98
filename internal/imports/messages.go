package imports

// The package's messages, each defined once.
const (
	msgRequired       = "1 validation error detected: Value null at '%s' failed to satisfy constraint: Member must not be null"
	msgEnum           = "1 validation error detected: Value '%s' at '%s' failed to satisfy constraint: Member must satisfy enum value set: [%s]"
	msgCSVOptions     = "InputFormatOptions.Csv applies only to InputFormat CSV"
	msgDelimiter      = "Delimiter %q is not valid: use one of , TAB : ; | or space"
	msgTokenConflict  = "There was a conflict when importing from the specified S3 source. This can occur when the current import conflicts with a previous import request that had the same client token."
	msgImportNotFound = "Import not found: %s"
	msgPageSize       = "1 validation error detected: Value '%d' at 'pageSize' failed to satisfy constraint: Member must have value between 1 and 25"
	msgNextToken      = "Invalid NextToken: %s"
	msgClosed         = "the server stopped before the import finished"
	msgSourceFailed   = "The import could not read its source: %v"
	msgWriteFailed    = "The import could not write its items: %v"
)

// FailureCodes: ItemValidationError is DynamoDB's; the others are
// sortkey's, for failures that have no S3 or DynamoDB counterpart here.
const (
	codeItemValidation = "ItemValidationError"
	codeSource         = "InvalidSource"
	codeInternal       = "InternalError"
	codeStopped        = "ImportStopped"
)
