package protocol

// ExportTableToPointInTimeInput is ExportTableToPointInTime's request.
type ExportTableToPointInTimeInput struct {
	ClientToken                    *string                         `json:"ClientToken,omitempty"`
	ExportFormat                   *string                         `json:"ExportFormat,omitempty"`
	ExportTime                     *float64                        `json:"ExportTime,omitempty"`
	ExportType                     *string                         `json:"ExportType,omitempty"`
	FilterSpecification            Refused                         `json:"FilterSpecification"`
	IncrementalExportSpecification *IncrementalExportSpecification `json:"IncrementalExportSpecification,omitempty"`
	S3Bucket                       *string                         `json:"S3Bucket,omitempty"`
	S3BucketOwner                  *string                         `json:"S3BucketOwner,omitempty"`
	S3Prefix                       *string                         `json:"S3Prefix,omitempty"`
	S3SseAlgorithm                 *string                         `json:"S3SseAlgorithm,omitempty"`
	S3SseKmsKeyId                  *string                         `json:"S3SseKmsKeyId,omitempty"`
	TableArn                       *string                         `json:"TableArn,omitempty"`
}

// IncrementalExportSpecification is an incremental export's window and
// view, asked for and described.
type IncrementalExportSpecification struct {
	ExportFromTime *float64 `json:"ExportFromTime,omitempty"`
	ExportToTime   *float64 `json:"ExportToTime,omitempty"`
	ExportViewType *string  `json:"ExportViewType,omitempty"`
}

type ExportTableToPointInTimeOutput struct {
	ExportDescription *ExportDescription `json:"ExportDescription"`
}

// ExportDescription describes an export; times are epoch seconds.
type ExportDescription struct {
	BilledSizeBytes                *int64                          `json:"BilledSizeBytes,omitempty"`
	ClientToken                    *string                         `json:"ClientToken,omitempty"`
	EndTime                        *float64                        `json:"EndTime,omitempty"`
	ExportArn                      string                          `json:"ExportArn"`
	ExportFormat                   string                          `json:"ExportFormat"`
	ExportManifest                 *string                         `json:"ExportManifest,omitempty"`
	ExportStatus                   string                          `json:"ExportStatus"`
	ExportTime                     *float64                        `json:"ExportTime,omitempty"`
	ExportType                     string                          `json:"ExportType"`
	FailureCode                    *string                         `json:"FailureCode,omitempty"`
	FailureMessage                 *string                         `json:"FailureMessage,omitempty"`
	IncrementalExportSpecification *IncrementalExportSpecification `json:"IncrementalExportSpecification,omitempty"`
	ItemCount                      *int64                          `json:"ItemCount,omitempty"`
	S3Bucket                       string                          `json:"S3Bucket"`
	S3BucketOwner                  *string                         `json:"S3BucketOwner,omitempty"`
	S3Prefix                       *string                         `json:"S3Prefix,omitempty"`
	S3SseAlgorithm                 *string                         `json:"S3SseAlgorithm,omitempty"`
	S3SseKmsKeyId                  *string                         `json:"S3SseKmsKeyId,omitempty"`
	StartTime                      *float64                        `json:"StartTime,omitempty"`
	TableArn                       string                          `json:"TableArn"`
	TableId                        string                          `json:"TableId"`
}

type DescribeExportInput struct {
	ExportArn *string `json:"ExportArn,omitempty"`
}

type DescribeExportOutput struct {
	ExportDescription *ExportDescription `json:"ExportDescription"`
}

type ListExportsInput struct {
	MaxResults *int64  `json:"MaxResults,omitempty"`
	NextToken  *string `json:"NextToken,omitempty"`
	TableArn   *string `json:"TableArn,omitempty"`
}

type ListExportsOutput struct {
	ExportSummaries []ExportSummary `json:"ExportSummaries"`
	NextToken       *string         `json:"NextToken,omitempty"`
}

// ExportSummary is an export as ListExports lists it.
type ExportSummary struct {
	ExportArn    string `json:"ExportArn"`
	ExportStatus string `json:"ExportStatus"`
	ExportType   string `json:"ExportType"`
}
