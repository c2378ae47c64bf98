package validate

import (
	"cmp"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// msgRegionsShared refuses a global table on a server whose regions share
// their tables: there is no other region to replicate to.
const msgRegionsShared = "%s needs regions kept apart: start sortkey with --regions separate (docs/GLOBAL-TABLES.md)"

// replicasShared refuses ReplicaUpdates and MultiRegionConsistency where
// the engine is asked for them directly: with --regions shared, or any
// engine outside package regions.
func replicasShared(in *protocol.UpdateTableInput) error {
	switch {
	case len(in.ReplicaUpdates) > 0:
		return apierr.Validationf(msgRegionsShared, "ReplicaUpdates")
	case in.MultiRegionConsistency != nil:
		return apierr.Validationf(msgRegionsShared, "MultiRegionConsistency")
	}
	return nil
}

var consistencies = []string{"EVENTUAL", "STRONG"}

// ReplicaUpdates checks an UpdateTable request that changes a table's
// replicas: its model, then its rules. sortkey takes ReplicaUpdates (and
// MultiRegionConsistency) only alone in a request, and no per-replica
// overrides: it keeps no settings per replica.
func ReplicaUpdates(in *protocol.UpdateTableInput) error {
	if err := requireTableName(in.TableName); err != nil {
		return err
	}
	if err := replicaModel(in); err != nil {
		return err
	}
	if err := Refused(in); err != nil {
		return err
	}
	for i := range in.ReplicaUpdates {
		if err := replicaUpdate(&in.ReplicaUpdates[i]); err != nil {
			return err
		}
	}
	return replicaRules(in)
}

func replicaModel(in *protocol.UpdateTableInput) error {
	v := &violations{}
	tableNameModel(v, in.TableName, "tableName")
	v.enum(in.MultiRegionConsistency, "multiRegionConsistency", consistencies)
	return v.err()
}

// replicaUpdate checks one ReplicationGroupUpdate: exactly one action,
// naming a region, with no overrides.
func replicaUpdate(u *protocol.ReplicationGroupUpdate) error {
	n, region := 0, (*string)(nil)
	if u.Create != nil {
		n, region = n+1, u.Create.RegionName
	}
	if u.Update != nil {
		n, region = n+1, u.Update.RegionName
	}
	if u.Delete != nil {
		n, region = n+1, u.Delete.RegionName
	}
	if u.Disassociate != nil {
		return apierr.Validationf(refusedText, "ReplicaUpdates.Disassociate")
	}
	if n != 1 {
		return apierr.Validationf("One or more parameter values were invalid: One and only one of Create, Update or Delete is required in a ReplicationGroupUpdate")
	}
	if region == nil || *region == "" {
		return apierr.Validationf("One or more parameter values were invalid: RegionName is required")
	}
	if a := cmp.Or(u.Create, u.Update); a != nil {
		return replicaOverrides(a)
	}
	return nil
}

func replicaOverrides(a *protocol.ReplicaAction) error {
	for _, m := range []struct {
		name string
		set  bool
	}{
		{"GlobalSecondaryIndexes", a.GlobalSecondaryIndexes != nil},
		{"KMSMasterKeyId", a.KMSMasterKeyId != nil},
		{"OnDemandThroughputOverride", a.OnDemandThroughputOverride != nil},
		{"ProvisionedThroughputOverride", a.ProvisionedThroughputOverride != nil},
		{"TableClassOverride", a.TableClassOverride != nil},
	} {
		if m.set {
			return apierr.Validationf(refusedText, "ReplicaUpdates."+m.name)
		}
	}
	return nil
}

func replicaRules(in *protocol.UpdateTableInput) error {
	if in.MultiRegionConsistency != nil && !anyCreate(in.ReplicaUpdates) {
		return apierr.Validationf("MultiRegionConsistency can only be set together with a replica Create in ReplicaUpdates")
	}
	alone := *in
	alone.TableName, alone.ReplicaUpdates, alone.MultiRegionConsistency = nil, nil, nil
	if !nothingToUpdate(&alone) {
		return apierr.Validationf("ReplicaUpdates cannot be combined with other table updates in one UpdateTable request in sortkey: send them separately")
	}
	return nil
}

func anyCreate(us []protocol.ReplicationGroupUpdate) bool {
	for _, u := range us {
		if u.Create != nil {
			return true
		}
	}
	return false
}
