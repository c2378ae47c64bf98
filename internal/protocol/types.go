package protocol

import "github.com/sortkeydb/sortkey/internal/attr"

// Item and Key are attribute maps as they travel on the wire.
type (
	Item = attr.Item
	Key  = attr.Item
)

type KeySchemaElement struct {
	AttributeName *string `json:"AttributeName,omitempty"`
	KeyType       *string `json:"KeyType,omitempty"`
}

type AttributeDefinition struct {
	AttributeName *string `json:"AttributeName,omitempty"`
	AttributeType *string `json:"AttributeType,omitempty"`
}

type ProvisionedThroughput struct {
	ReadCapacityUnits  *int64 `json:"ReadCapacityUnits,omitempty"`
	WriteCapacityUnits *int64 `json:"WriteCapacityUnits,omitempty"`
}

type ProvisionedThroughputDescription struct {
	LastIncreaseDateTime   *float64 `json:"LastIncreaseDateTime,omitempty"`
	LastDecreaseDateTime   *float64 `json:"LastDecreaseDateTime,omitempty"`
	NumberOfDecreasesToday int64    `json:"NumberOfDecreasesToday"`
	ReadCapacityUnits      int64    `json:"ReadCapacityUnits"`
	WriteCapacityUnits     int64    `json:"WriteCapacityUnits"`
}

type OnDemandThroughput struct {
	MaxReadRequestUnits  *int64 `json:"MaxReadRequestUnits,omitempty"`
	MaxWriteRequestUnits *int64 `json:"MaxWriteRequestUnits,omitempty"`
}

// WarmThroughput is a request's warm throughput for a table or an index.
type WarmThroughput struct {
	ReadUnitsPerSecond  *int64 `json:"ReadUnitsPerSecond,omitempty"`
	WriteUnitsPerSecond *int64 `json:"WriteUnitsPerSecond,omitempty"`
}

// WarmThroughputDescription describes the warm throughput of a table or
// of a global secondary index (the two shapes have the same members).
type WarmThroughputDescription struct {
	ReadUnitsPerSecond  int64  `json:"ReadUnitsPerSecond"`
	WriteUnitsPerSecond int64  `json:"WriteUnitsPerSecond"`
	Status              string `json:"Status"`
}

type Projection struct {
	ProjectionType   *string  `json:"ProjectionType,omitempty"`
	NonKeyAttributes []string `json:"NonKeyAttributes,omitempty"`
}

type GlobalSecondaryIndex struct {
	IndexName             *string                `json:"IndexName,omitempty"`
	KeySchema             []KeySchemaElement     `json:"KeySchema,omitempty"`
	Projection            *Projection            `json:"Projection,omitempty"`
	ProvisionedThroughput *ProvisionedThroughput `json:"ProvisionedThroughput,omitempty"`
	OnDemandThroughput    *OnDemandThroughput    `json:"OnDemandThroughput,omitempty"`
	WarmThroughput        *WarmThroughput        `json:"WarmThroughput,omitempty"`
}

type LocalSecondaryIndex struct {
	IndexName  *string            `json:"IndexName,omitempty"`
	KeySchema  []KeySchemaElement `json:"KeySchema,omitempty"`
	Projection *Projection        `json:"Projection,omitempty"`
}

type StreamSpecification struct {
	StreamEnabled  *bool   `json:"StreamEnabled,omitempty"`
	StreamViewType *string `json:"StreamViewType,omitempty"`
}

type SSESpecification struct {
	Enabled        *bool   `json:"Enabled,omitempty"`
	SSEType        *string `json:"SSEType,omitempty"`
	KMSMasterKeyId *string `json:"KMSMasterKeyId,omitempty"`
}

type SSEDescription struct {
	Status          string `json:"Status,omitempty"`
	SSEType         string `json:"SSEType,omitempty"`
	KMSMasterKeyArn string `json:"KMSMasterKeyArn,omitempty"`
}

type Tag struct {
	Key   *string `json:"Key,omitempty"`
	Value *string `json:"Value,omitempty"`
}

type BillingModeSummary struct {
	BillingMode                       string   `json:"BillingMode,omitempty"`
	LastUpdateToPayPerRequestDateTime *float64 `json:"LastUpdateToPayPerRequestDateTime,omitempty"`
}

type TableClassSummary struct {
	TableClass         string   `json:"TableClass,omitempty"`
	LastUpdateDateTime *float64 `json:"LastUpdateDateTime,omitempty"`
}

type GlobalSecondaryIndexDescription struct {
	IndexName             string                            `json:"IndexName"`
	KeySchema             []KeySchemaElement                `json:"KeySchema"`
	Projection            *Projection                       `json:"Projection"`
	IndexStatus           string                            `json:"IndexStatus"`
	Backfilling           *bool                             `json:"Backfilling,omitempty"`
	ProvisionedThroughput *ProvisionedThroughputDescription `json:"ProvisionedThroughput,omitempty"`
	OnDemandThroughput    *OnDemandThroughput               `json:"OnDemandThroughput,omitempty"`
	WarmThroughput        *WarmThroughputDescription        `json:"WarmThroughput,omitempty"`
	IndexSizeBytes        int64                             `json:"IndexSizeBytes"`
	ItemCount             int64                             `json:"ItemCount"`
	IndexArn              string                            `json:"IndexArn"`
}

type LocalSecondaryIndexDescription struct {
	IndexName      string             `json:"IndexName"`
	KeySchema      []KeySchemaElement `json:"KeySchema"`
	Projection     *Projection        `json:"Projection"`
	IndexSizeBytes int64              `json:"IndexSizeBytes"`
	ItemCount      int64              `json:"ItemCount"`
	IndexArn       string             `json:"IndexArn"`
}

// TableDescription is what DescribeTable, CreateTable, UpdateTable and
// DeleteTable return.
type TableDescription struct {
	TableName                 string                            `json:"TableName"`
	TableId                   string                            `json:"TableId"`
	TableArn                  string                            `json:"TableArn"`
	TableStatus               string                            `json:"TableStatus"`
	CreationDateTime          float64                           `json:"CreationDateTime"`
	AttributeDefinitions      []AttributeDefinition             `json:"AttributeDefinitions"`
	KeySchema                 []KeySchemaElement                `json:"KeySchema"`
	ItemCount                 int64                             `json:"ItemCount"`
	TableSizeBytes            int64                             `json:"TableSizeBytes"`
	ProvisionedThroughput     *ProvisionedThroughputDescription `json:"ProvisionedThroughput,omitempty"`
	OnDemandThroughput        *OnDemandThroughput               `json:"OnDemandThroughput,omitempty"`
	BillingModeSummary        *BillingModeSummary               `json:"BillingModeSummary,omitempty"`
	GlobalSecondaryIndexes    []GlobalSecondaryIndexDescription `json:"GlobalSecondaryIndexes,omitempty"`
	LocalSecondaryIndexes     []LocalSecondaryIndexDescription  `json:"LocalSecondaryIndexes,omitempty"`
	VectorIndexes             []VectorIndexDescription          `json:"VectorIndexes,omitempty"`
	StreamSpecification       *StreamSpecification              `json:"StreamSpecification,omitempty"`
	LatestStreamArn           string                            `json:"LatestStreamArn,omitempty"`
	LatestStreamLabel         string                            `json:"LatestStreamLabel,omitempty"`
	SSEDescription            *SSEDescription                   `json:"SSEDescription,omitempty"`
	TableClassSummary         *TableClassSummary                `json:"TableClassSummary,omitempty"`
	RestoreSummary            *RestoreSummary                   `json:"RestoreSummary,omitempty"`
	DeletionProtectionEnabled bool                              `json:"DeletionProtectionEnabled"`
	WarmThroughput            *WarmThroughputDescription        `json:"WarmThroughput,omitempty"`
	// A replica of a global table: its version, the other regions'
	// replicas and the consistency they share.
	GlobalTableVersion     string               `json:"GlobalTableVersion,omitempty"`
	Replicas               []ReplicaDescription `json:"Replicas,omitempty"`
	MultiRegionConsistency string               `json:"MultiRegionConsistency,omitempty"`
}
