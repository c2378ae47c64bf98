package protocol

// On-demand backups, point-in-time recovery and exports to S3. Times are
// epoch seconds, as every DynamoDB time is on the wire.

type CreateBackupInput struct {
	TableName  *string `json:"TableName,omitempty"`
	BackupName *string `json:"BackupName,omitempty"`
}

type CreateBackupOutput struct {
	BackupDetails *BackupDetails `json:"BackupDetails"`
}

type BackupDetails struct {
	BackupArn              string  `json:"BackupArn"`
	BackupName             string  `json:"BackupName"`
	BackupSizeBytes        int64   `json:"BackupSizeBytes"`
	BackupStatus           string  `json:"BackupStatus"`
	BackupType             string  `json:"BackupType"`
	BackupCreationDateTime float64 `json:"BackupCreationDateTime"`
}

type DescribeBackupInput struct {
	BackupArn *string `json:"BackupArn,omitempty"`
}

type DeleteBackupInput struct {
	BackupArn *string `json:"BackupArn,omitempty"`
}

type BackupDescriptionOutput struct {
	BackupDescription *BackupDescription `json:"BackupDescription"`
}

type BackupDescription struct {
	BackupDetails             *BackupDetails             `json:"BackupDetails"`
	SourceTableDetails        *SourceTableDetails        `json:"SourceTableDetails"`
	SourceTableFeatureDetails *SourceTableFeatureDetails `json:"SourceTableFeatureDetails"`
}

type SourceTableDetails struct {
	TableName             string                 `json:"TableName"`
	TableId               string                 `json:"TableId"`
	TableArn              string                 `json:"TableArn"`
	TableSizeBytes        int64                  `json:"TableSizeBytes"`
	ItemCount             int64                  `json:"ItemCount"`
	KeySchema             []KeySchemaElement     `json:"KeySchema"`
	TableCreationDateTime float64                `json:"TableCreationDateTime"`
	ProvisionedThroughput *ProvisionedThroughput `json:"ProvisionedThroughput"`
	OnDemandThroughput    *OnDemandThroughput    `json:"OnDemandThroughput,omitempty"`
	BillingMode           string                 `json:"BillingMode"`
}

type SourceTableFeatureDetails struct {
	GlobalSecondaryIndexes []GlobalSecondaryIndexInfo `json:"GlobalSecondaryIndexes,omitempty"`
	LocalSecondaryIndexes  []LocalSecondaryIndexInfo  `json:"LocalSecondaryIndexes,omitempty"`
	SSEDescription         *SSEDescription            `json:"SSEDescription,omitempty"`
	StreamDescription      *StreamSpecification       `json:"StreamDescription,omitempty"`
	TimeToLiveDescription  *TimeToLiveDescription     `json:"TimeToLiveDescription,omitempty"`
}

type GlobalSecondaryIndexInfo struct {
	IndexName             string                 `json:"IndexName"`
	KeySchema             []KeySchemaElement     `json:"KeySchema"`
	Projection            *Projection            `json:"Projection"`
	ProvisionedThroughput *ProvisionedThroughput `json:"ProvisionedThroughput,omitempty"`
	OnDemandThroughput    *OnDemandThroughput    `json:"OnDemandThroughput,omitempty"`
}

type LocalSecondaryIndexInfo struct {
	IndexName  string             `json:"IndexName"`
	KeySchema  []KeySchemaElement `json:"KeySchema"`
	Projection *Projection        `json:"Projection"`
}

type ListBackupsInput struct {
	TableName               *string  `json:"TableName,omitempty"`
	Limit                   *int64   `json:"Limit,omitempty"`
	TimeRangeLowerBound     *float64 `json:"TimeRangeLowerBound,omitempty"`
	TimeRangeUpperBound     *float64 `json:"TimeRangeUpperBound,omitempty"`
	ExclusiveStartBackupArn *string  `json:"ExclusiveStartBackupArn,omitempty"`
	BackupType              *string  `json:"BackupType,omitempty"`
}

type ListBackupsOutput struct {
	BackupSummaries        []BackupSummary `json:"BackupSummaries"`
	LastEvaluatedBackupArn string          `json:"LastEvaluatedBackupArn,omitempty"`
}

type BackupSummary struct {
	TableName              string  `json:"TableName"`
	TableId                string  `json:"TableId"`
	TableArn               string  `json:"TableArn"`
	BackupArn              string  `json:"BackupArn"`
	BackupName             string  `json:"BackupName"`
	BackupCreationDateTime float64 `json:"BackupCreationDateTime"`
	BackupStatus           string  `json:"BackupStatus"`
	BackupType             string  `json:"BackupType"`
	BackupSizeBytes        int64   `json:"BackupSizeBytes"`
}

// RestoreOverrides are the members both restores take to change what
// the new table gets from its source.
type RestoreOverrides struct {
	BillingModeOverride           *string                `json:"BillingModeOverride,omitempty"`
	GlobalSecondaryIndexOverride  []GlobalSecondaryIndex `json:"GlobalSecondaryIndexOverride,omitempty"`
	LocalSecondaryIndexOverride   []LocalSecondaryIndex  `json:"LocalSecondaryIndexOverride,omitempty"`
	ProvisionedThroughputOverride *ProvisionedThroughput `json:"ProvisionedThroughputOverride,omitempty"`
	OnDemandThroughputOverride    *OnDemandThroughput    `json:"OnDemandThroughputOverride,omitempty"`
	SSESpecificationOverride      *SSESpecification      `json:"SSESpecificationOverride,omitempty"`
	VectorIndexOverride           []VectorIndex          `json:"VectorIndexOverride,omitempty"`
}

type RestoreTableFromBackupInput struct {
	BackupArn       *string `json:"BackupArn,omitempty"`
	TargetTableName *string `json:"TargetTableName,omitempty"`
	RestoreOverrides
}

type RestoreTableToPointInTimeInput struct {
	SourceTableArn          *string  `json:"SourceTableArn,omitempty"`
	SourceTableName         *string  `json:"SourceTableName,omitempty"`
	TargetTableName         *string  `json:"TargetTableName,omitempty"`
	UseLatestRestorableTime *bool    `json:"UseLatestRestorableTime,omitempty"`
	RestoreDateTime         *float64 `json:"RestoreDateTime,omitempty"`
	RestoreOverrides
}

type RestoreTableOutput struct {
	TableDescription *TableDescription `json:"TableDescription"`
}

type RestoreSummary struct {
	SourceBackupArn   string  `json:"SourceBackupArn,omitempty"`
	SourceTableArn    string  `json:"SourceTableArn,omitempty"`
	RestoreDateTime   float64 `json:"RestoreDateTime"`
	RestoreInProgress bool    `json:"RestoreInProgress"`
}

type PointInTimeRecoverySpecification struct {
	PointInTimeRecoveryEnabled *bool  `json:"PointInTimeRecoveryEnabled,omitempty"`
	RecoveryPeriodInDays       *int64 `json:"RecoveryPeriodInDays,omitempty"`
}

type UpdateContinuousBackupsInput struct {
	TableName                        *string                           `json:"TableName,omitempty"`
	PointInTimeRecoverySpecification *PointInTimeRecoverySpecification `json:"PointInTimeRecoverySpecification,omitempty"`
}

type DescribeContinuousBackupsInput struct {
	TableName *string `json:"TableName,omitempty"`
}

type ContinuousBackupsOutput struct {
	ContinuousBackupsDescription *ContinuousBackupsDescription `json:"ContinuousBackupsDescription"`
}

type ContinuousBackupsDescription struct {
	ContinuousBackupsStatus        string                          `json:"ContinuousBackupsStatus"`
	PointInTimeRecoveryDescription *PointInTimeRecoveryDescription `json:"PointInTimeRecoveryDescription"`
}

type PointInTimeRecoveryDescription struct {
	PointInTimeRecoveryStatus  string   `json:"PointInTimeRecoveryStatus"`
	RecoveryPeriodInDays       int64    `json:"RecoveryPeriodInDays,omitempty"`
	EarliestRestorableDateTime *float64 `json:"EarliestRestorableDateTime,omitempty"`
	LatestRestorableDateTime   *float64 `json:"LatestRestorableDateTime,omitempty"`
}
