package protocol

// The global tables operations of version 2017.11.29 (legacy). sortkey
// has no legacy global tables, so they answer as DynamoDB answers for a
// table of the current version (package server's legacyglobal.go).

type DescribeGlobalTableInput struct {
	GlobalTableName *string `json:"GlobalTableName,omitempty"`
}

type DescribeGlobalTableSettingsInput struct {
	GlobalTableName *string `json:"GlobalTableName,omitempty"`
}

type UpdateGlobalTableInput struct {
	GlobalTableName *string               `json:"GlobalTableName,omitempty"`
	ReplicaUpdates  []LegacyReplicaUpdate `json:"ReplicaUpdates,omitempty"`
}

// LegacyReplicaUpdate adds or removes a legacy global table's replica.
type LegacyReplicaUpdate struct {
	Create *ReplicaRegion `json:"Create,omitempty"`
	Delete *ReplicaRegion `json:"Delete,omitempty"`
}

type ListGlobalTablesInput struct {
	ExclusiveStartGlobalTableName *string `json:"ExclusiveStartGlobalTableName,omitempty"`
	Limit                         *int64  `json:"Limit,omitempty"`
	RegionName                    *string `json:"RegionName,omitempty"`
}

// ListGlobalTablesOutput lists legacy global tables: sortkey has none.
type ListGlobalTablesOutput struct {
	GlobalTables []struct{} `json:"GlobalTables"`
}
