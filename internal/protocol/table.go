package protocol

type CreateTableInput struct {
	TableName                 *string                `json:"TableName,omitempty"`
	KeySchema                 []KeySchemaElement     `json:"KeySchema,omitempty"`
	AttributeDefinitions      []AttributeDefinition  `json:"AttributeDefinitions,omitempty"`
	BillingMode               *string                `json:"BillingMode,omitempty"`
	ProvisionedThroughput     *ProvisionedThroughput `json:"ProvisionedThroughput,omitempty"`
	OnDemandThroughput        *OnDemandThroughput    `json:"OnDemandThroughput,omitempty"`
	GlobalSecondaryIndexes    []GlobalSecondaryIndex `json:"GlobalSecondaryIndexes,omitempty"`
	LocalSecondaryIndexes     []LocalSecondaryIndex  `json:"LocalSecondaryIndexes,omitempty"`
	StreamSpecification       *StreamSpecification   `json:"StreamSpecification,omitempty"`
	SSESpecification          *SSESpecification      `json:"SSESpecification,omitempty"`
	Tags                      []Tag                  `json:"Tags,omitempty"`
	TableClass                *string                `json:"TableClass,omitempty"`
	DeletionProtectionEnabled *bool                  `json:"DeletionProtectionEnabled,omitempty"`
	WarmThroughput            *WarmThroughput        `json:"WarmThroughput,omitempty"`
	// ResourcePolicy is the table's resource-based policy document,
	// attached as PutResourcePolicy would.
	ResourcePolicy *string `json:"ResourcePolicy,omitempty"`

	VectorIndexes []VectorIndex `json:"VectorIndexes,omitempty"`

	// Not implemented, refused (see Refused): global tables.
	GlobalTableSourceArn               Refused `json:"GlobalTableSourceArn"`
	GlobalTableSettingsReplicationMode Refused `json:"GlobalTableSettingsReplicationMode"`
}

type CreateTableOutput struct {
	TableDescription *TableDescription `json:"TableDescription"`
}

type DescribeTableInput struct {
	TableName *string `json:"TableName,omitempty"`
}

type DescribeTableOutput struct {
	Table *TableDescription `json:"Table"`
}

type DeleteTableInput struct {
	TableName *string `json:"TableName,omitempty"`
}

type DeleteTableOutput struct {
	TableDescription *DeletedTableDescription `json:"TableDescription"`
}

// DeletedTableDescription is DeleteTable's reduced description: status,
// ids, ARN, billing and throughput only, as DynamoDB answers it.
type DeletedTableDescription struct {
	TableName             string                            `json:"TableName"`
	TableStatus           string                            `json:"TableStatus"`
	TableId               string                            `json:"TableId"`
	TableArn              string                            `json:"TableArn"`
	BillingModeSummary    *BillingModeSummary               `json:"BillingModeSummary,omitempty"`
	ProvisionedThroughput *ProvisionedThroughputDescription `json:"ProvisionedThroughput,omitempty"`
}

type ListTablesInput struct {
	ExclusiveStartTableName *string `json:"ExclusiveStartTableName,omitempty"`
	Limit                   *int64  `json:"Limit,omitempty"`
}

type ListTablesOutput struct {
	TableNames             []string `json:"TableNames"`
	LastEvaluatedTableName *string  `json:"LastEvaluatedTableName,omitempty"`
}

// GlobalSecondaryIndexUpdate is one entry of UpdateTable's
// GlobalSecondaryIndexUpdates; exactly one member is set.
type GlobalSecondaryIndexUpdate struct {
	Create *GlobalSecondaryIndex             `json:"Create,omitempty"`
	Update *UpdateGlobalSecondaryIndexAction `json:"Update,omitempty"`
	Delete *struct {
		IndexName *string `json:"IndexName,omitempty"`
	} `json:"Delete,omitempty"`
}

// UpdateGlobalSecondaryIndexAction changes an existing index's capacity
// settings.
type UpdateGlobalSecondaryIndexAction struct {
	IndexName             *string                `json:"IndexName,omitempty"`
	ProvisionedThroughput *ProvisionedThroughput `json:"ProvisionedThroughput,omitempty"`
	OnDemandThroughput    *OnDemandThroughput    `json:"OnDemandThroughput,omitempty"`
	WarmThroughput        *WarmThroughput        `json:"WarmThroughput,omitempty"`
}

type UpdateTableInput struct {
	TableName                   *string                      `json:"TableName,omitempty"`
	AttributeDefinitions        []AttributeDefinition        `json:"AttributeDefinitions,omitempty"`
	BillingMode                 *string                      `json:"BillingMode,omitempty"`
	ProvisionedThroughput       *ProvisionedThroughput       `json:"ProvisionedThroughput,omitempty"`
	OnDemandThroughput          *OnDemandThroughput          `json:"OnDemandThroughput,omitempty"`
	GlobalSecondaryIndexUpdates []GlobalSecondaryIndexUpdate `json:"GlobalSecondaryIndexUpdates,omitempty"`
	StreamSpecification         *StreamSpecification         `json:"StreamSpecification,omitempty"`
	SSESpecification            *SSESpecification            `json:"SSESpecification,omitempty"`
	TableClass                  *string                      `json:"TableClass,omitempty"`
	DeletionProtectionEnabled   *bool                        `json:"DeletionProtectionEnabled,omitempty"`
	WarmThroughput              *WarmThroughput              `json:"WarmThroughput,omitempty"`

	VectorIndexUpdates []VectorIndexUpdate `json:"VectorIndexUpdates,omitempty"`

	// Global tables (docs/GLOBAL-TABLES.md): replicas in other regions.
	ReplicaUpdates         []ReplicationGroupUpdate `json:"ReplicaUpdates,omitempty"`
	MultiRegionConsistency *string                  `json:"MultiRegionConsistency,omitempty"`

	// Not implemented, refused (see Refused): multi-region strong
	// consistency's witnesses and the settings of replication groups.
	DisassociationProtectionEnabled    Refused `json:"DisassociationProtectionEnabled"`
	GlobalTableSettingsReplicationMode Refused `json:"GlobalTableSettingsReplicationMode"`
	GlobalTableWitnessUpdates          Refused `json:"GlobalTableWitnessUpdates"`
}

type UpdateTableOutput struct {
	TableDescription *TableDescription `json:"TableDescription"`
}

type TagResourceInput struct {
	ResourceArn *string `json:"ResourceArn,omitempty"`
	Tags        []Tag   `json:"Tags,omitempty"`
}

type UntagResourceInput struct {
	ResourceArn *string  `json:"ResourceArn,omitempty"`
	TagKeys     []string `json:"TagKeys,omitempty"`
}

type ListTagsOfResourceInput struct {
	ResourceArn *string `json:"ResourceArn,omitempty"`
	NextToken   *string `json:"NextToken,omitempty"`
}

type ListTagsOfResourceOutput struct {
	Tags      []Tag   `json:"Tags"`
	NextToken *string `json:"NextToken,omitempty"`
}

// Empty is the input or output of operations that carry no members.
type Empty struct{}

type DescribeLimitsOutput struct {
	AccountMaxReadCapacityUnits  int64 `json:"AccountMaxReadCapacityUnits"`
	AccountMaxWriteCapacityUnits int64 `json:"AccountMaxWriteCapacityUnits"`
	TableMaxReadCapacityUnits    int64 `json:"TableMaxReadCapacityUnits"`
	TableMaxWriteCapacityUnits   int64 `json:"TableMaxWriteCapacityUnits"`
}

type Endpoint struct {
	Address              string `json:"Address"`
	CachePeriodInMinutes int64  `json:"CachePeriodInMinutes"`
}

type DescribeEndpointsOutput struct {
	Endpoints []Endpoint `json:"Endpoints"`
}
