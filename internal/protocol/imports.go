package protocol

// ImportTableInput is ImportTable's request.
type ImportTableInput struct {
	ClientToken             *string                  `json:"ClientToken,omitempty"`
	InputFormat             *string                  `json:"InputFormat,omitempty"`
	InputCompressionType    *string                  `json:"InputCompressionType,omitempty"`
	InputFormatOptions      *InputFormatOptions      `json:"InputFormatOptions,omitempty"`
	S3BucketSource          *S3BucketSource          `json:"S3BucketSource,omitempty"`
	TableCreationParameters *TableCreationParameters `json:"TableCreationParameters,omitempty"`
}

type S3BucketSource struct {
	S3Bucket      *string `json:"S3Bucket,omitempty"`
	S3BucketOwner *string `json:"S3BucketOwner,omitempty"`
	S3KeyPrefix   *string `json:"S3KeyPrefix,omitempty"`
}

type InputFormatOptions struct {
	Csv *CsvOptions `json:"Csv,omitempty"`
}

type CsvOptions struct {
	Delimiter  *string  `json:"Delimiter,omitempty"`
	HeaderList []string `json:"HeaderList,omitempty"`
}

// TableCreationParameters is the table an import creates.
type TableCreationParameters struct {
	TableName              *string                `json:"TableName,omitempty"`
	AttributeDefinitions   []AttributeDefinition  `json:"AttributeDefinitions,omitempty"`
	KeySchema              []KeySchemaElement     `json:"KeySchema,omitempty"`
	BillingMode            *string                `json:"BillingMode,omitempty"`
	ProvisionedThroughput  *ProvisionedThroughput `json:"ProvisionedThroughput,omitempty"`
	OnDemandThroughput     *OnDemandThroughput    `json:"OnDemandThroughput,omitempty"`
	GlobalSecondaryIndexes []GlobalSecondaryIndex `json:"GlobalSecondaryIndexes,omitempty"`
	SSESpecification       *SSESpecification      `json:"SSESpecification,omitempty"`

	VectorIndexes []VectorIndex `json:"VectorIndexes,omitempty"`
}

type ImportTableOutput struct {
	ImportTableDescription *ImportTableDescription `json:"ImportTableDescription"`
}

// ImportTableDescription describes an import; times are epoch seconds.
type ImportTableDescription struct {
	ClientToken             *string                  `json:"ClientToken,omitempty"`
	CloudWatchLogGroupArn   *string                  `json:"CloudWatchLogGroupArn,omitempty"`
	EndTime                 *float64                 `json:"EndTime,omitempty"`
	ErrorCount              int64                    `json:"ErrorCount"`
	FailureCode             *string                  `json:"FailureCode,omitempty"`
	FailureMessage          *string                  `json:"FailureMessage,omitempty"`
	ImportArn               string                   `json:"ImportArn"`
	ImportStatus            string                   `json:"ImportStatus"`
	ImportedItemCount       int64                    `json:"ImportedItemCount"`
	InputCompressionType    string                   `json:"InputCompressionType,omitempty"`
	InputFormat             string                   `json:"InputFormat"`
	InputFormatOptions      *InputFormatOptions      `json:"InputFormatOptions,omitempty"`
	ProcessedItemCount      int64                    `json:"ProcessedItemCount"`
	ProcessedSizeBytes      *int64                   `json:"ProcessedSizeBytes,omitempty"`
	S3BucketSource          *S3BucketSource          `json:"S3BucketSource,omitempty"`
	StartTime               *float64                 `json:"StartTime,omitempty"`
	TableArn                string                   `json:"TableArn"`
	TableCreationParameters *TableCreationParameters `json:"TableCreationParameters,omitempty"`
	TableId                 string                   `json:"TableId"`
}

type DescribeImportInput struct {
	ImportArn *string `json:"ImportArn,omitempty"`
}

type DescribeImportOutput struct {
	ImportTableDescription *ImportTableDescription `json:"ImportTableDescription"`
}

type ListImportsInput struct {
	NextToken *string `json:"NextToken,omitempty"`
	PageSize  *int64  `json:"PageSize,omitempty"`
	TableArn  *string `json:"TableArn,omitempty"`
}

type ListImportsOutput struct {
	ImportSummaryList []ImportSummary `json:"ImportSummaryList"`
	NextToken         *string         `json:"NextToken,omitempty"`
}

// ImportSummary is an import as ListImports lists it.
type ImportSummary struct {
	CloudWatchLogGroupArn *string         `json:"CloudWatchLogGroupArn,omitempty"`
	EndTime               *float64        `json:"EndTime,omitempty"`
	ImportArn             string          `json:"ImportArn"`
	ImportStatus          string          `json:"ImportStatus"`
	InputFormat           string          `json:"InputFormat"`
	S3BucketSource        *S3BucketSource `json:"S3BucketSource,omitempty"`
	StartTime             *float64        `json:"StartTime,omitempty"`
	TableArn              string          `json:"TableArn"`
}
