package protocol

// ReplicationGroupUpdate is one change of UpdateTable's ReplicaUpdates:
// exactly one of its actions.
type ReplicationGroupUpdate struct {
	Create       *ReplicaAction       `json:"Create,omitempty"`
	Update       *ReplicaAction       `json:"Update,omitempty"`
	Delete       *ReplicaRegion       `json:"Delete,omitempty"`
	Disassociate *ReplicaDisassociate `json:"Disassociate,omitempty"`
}

// ReplicaAction is a Create or Update of a replica. sortkey keeps no
// per-replica settings: validate refuses the overrides when set.
type ReplicaAction struct {
	RegionName                    *string                        `json:"RegionName,omitempty"`
	GlobalSecondaryIndexes        []ReplicaGlobalSecondaryIndex  `json:"GlobalSecondaryIndexes,omitempty"`
	KMSMasterKeyId                *string                        `json:"KMSMasterKeyId,omitempty"`
	OnDemandThroughputOverride    *OnDemandThroughputOverride    `json:"OnDemandThroughputOverride,omitempty"`
	ProvisionedThroughputOverride *ProvisionedThroughputOverride `json:"ProvisionedThroughputOverride,omitempty"`
	TableClassOverride            *string                        `json:"TableClassOverride,omitempty"`
}

// ReplicaGlobalSecondaryIndex overrides an index's read capacity in one
// replica.
type ReplicaGlobalSecondaryIndex struct {
	IndexName                     *string                        `json:"IndexName,omitempty"`
	OnDemandThroughputOverride    *OnDemandThroughputOverride    `json:"OnDemandThroughputOverride,omitempty"`
	ProvisionedThroughputOverride *ProvisionedThroughputOverride `json:"ProvisionedThroughputOverride,omitempty"`
}

// OnDemandThroughputOverride is a replica's own maximum read units.
type OnDemandThroughputOverride struct {
	MaxReadRequestUnits *int64 `json:"MaxReadRequestUnits,omitempty"`
}

// ProvisionedThroughputOverride is a replica's own read capacity.
type ProvisionedThroughputOverride struct {
	ReadCapacityUnits *int64 `json:"ReadCapacityUnits,omitempty"`
}

// ReplicaRegion names the replica a Delete removes.
type ReplicaRegion struct {
	RegionName *string `json:"RegionName,omitempty"`
}

// ReplicaDisassociate detaches a replica from its group (refused).
type ReplicaDisassociate struct {
	RegionName         *string `json:"RegionName,omitempty"`
	DisassociationMode *string `json:"DisassociationMode,omitempty"`
}

// ReplicaDescription is one of DescribeTable's Replicas: another region
// of the global table.
type ReplicaDescription struct {
	RegionName    string `json:"RegionName"`
	ReplicaStatus string `json:"ReplicaStatus"`
	ReplicaArn    string `json:"ReplicaArn,omitempty"`
}
