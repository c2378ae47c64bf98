package regions

import (
	"cmp"
	"slices"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/engine"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// checkConsistency holds a ReplicaUpdates request to the rules of its
// group's consistency: a group keeps the one it was made with; a STRONG
// one is made at once, of three regions of one region set, from an empty
// table without TTL or local secondary indexes, and takes no more
// replicas. It returns the group's consistency.
func checkConsistency(e *engine.Engine, region string, d *protocol.TableDescription, in *protocol.UpdateTableInput) (string, error) {
	have := e.ReplicaConsistency(d.TableName)
	want := cmp.Or(deref(in.MultiRegionConsistency), have, engine.Eventual)
	switch {
	case have != "" && have != want:
		return "", apierr.Validationf("The MultiRegionConsistency of global table %s is %s and cannot be changed", d.TableName, have)
	case want != engine.Strong:
		return want, nil
	case have == engine.Strong && anyCreate(in.ReplicaUpdates):
		return "", apierr.Validationf("Replicas cannot be added to global table %s: it has multi-Region strong consistency", d.TableName)
	case have == engine.Strong:
		return want, nil
	}
	return want, strongShape(e, region, d, in.ReplicaUpdates)
}

func strongShape(e *engine.Engine, region string, d *protocol.TableDescription, ups []protocol.ReplicationGroupUpdate) error {
	g := []string{region}
	for _, u := range ups {
		if u.Create == nil {
			return apierr.Validationf("A global table with multi-Region strong consistency is created by replica Creates only")
		}
		g = append(g, *u.Create.RegionName)
	}
	slices.Sort(g)
	switch {
	case len(slices.Compact(slices.Clone(g))) != 3:
		return apierr.Validationf("A global table with multi-Region strong consistency has exactly three replicas (sortkey does not serve witnesses yet)")
	case !sameStrongSet(g):
		return apierr.Validationf("The replicas of a global table with multi-Region strong consistency must be in one region set: us-east-1, us-east-2, us-west-2; eu-west-1, eu-west-2, eu-west-3, eu-central-1; or ap-northeast-1, ap-northeast-2, ap-northeast-3")
	case d.ItemCount > 0:
		return apierr.Validationf("Table %s must be empty to become a global table with multi-Region strong consistency", d.TableName)
	case len(d.LocalSecondaryIndexes) > 0:
		return apierr.Validationf("Table %s has local secondary indexes, which multi-Region strong consistency does not support", d.TableName)
	}
	return noTTL(e, d.TableName, e.TTLEnabled(d.TableName))
}

// noTTL refuses Time to Live on a strongly consistent global table.
func noTTL(e *engine.Engine, name string, on bool) error {
	if on {
		return apierr.Validationf("Time to Live is not supported on table %s: multi-Region strong consistency does not support it", name)
	}
	return nil
}

func anyCreate(us []protocol.ReplicationGroupUpdate) bool {
	return slices.ContainsFunc(us, func(u protocol.ReplicationGroupUpdate) bool { return u.Create != nil })
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
