package engine

import (
	"slices"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/storage"
)

// Multi-region strong consistency (MRSC): a replica whose group is STRONG
// is written in every region before the write is acknowledged. The
// writer first holds the item across regions (Strong.Hold: a writer of
// another region holding it is ReplicatedWriteConflictException, one of
// this region waits), so every replica is current when the write's
// condition is judged; it then commits here and sends the change, with
// its stamp, to every other replica (Strong.Send) before it lets go.

// Consistency values of a replication group.
const (
	Eventual = "EVENTUAL"
	Strong   = "STRONG"
)

// StrongReplication is what a strongly consistent replica needs from
// outside the engine (package regions).
type StrongReplication interface {
	// Hold holds the item whose key (after its table's prefix) is item
	// in every region, for a writer of region; release lets it go.
	Hold(table string, item []byte, region string) (release func(), err error)
	// Send applies c, a write of region from, in every other replica.
	Send(c ReplicaChange, from string) error
}

func (t *table) strong() bool { return t.meta.Global != nil && t.meta.Global.Consistency == Strong }

func noRelease() {}

// holdStrong holds k across regions when t is strongly consistent.
func (e *Engine) holdStrong(t *table, k itemKey) (func(), error) {
	if !t.strong() || e.strong == nil {
		return noRelease, nil
	}
	return e.strong.Hold(t.meta.Desc.TableName, k.storage[storage.IndexPrefixLen:], e.region)
}

// sendStrong makes a strongly consistent table's committed write in every
// other replica, stamped as it was here. The caller still holds the item
// (holdStrong), so its stamp is this write's.
func (e *Engine) sendStrong(t *table, k itemKey, old, next attr.Item) error {
	if !t.strong() || e.strong == nil || old == nil && next == nil {
		return nil
	}
	s, err := e.readStamp(t, k.storage)
	if err != nil {
		return err
	}
	c := ReplicaChange{Table: t.meta.Desc.TableName, Stamp: s, Item: next}
	if next == nil {
		c.Item, c.Delete = t.keyOf(old), true
	}
	return e.strong.Send(c, e.region)
}

// strongHolds holds, in key order (so that two batches of one region
// never wait on each other), the items of plan's strongly consistent
// tables; those another region holds are refused (left unprocessed).
func (e *Engine) strongHolds(plan []batchWrite) (release func(), refused []bool) {
	var releases []func()
	refused = make([]bool, len(plan))
	order := make([]int, 0, len(plan))
	for i, p := range plan {
		if p.t.strong() {
			order = append(order, i)
		}
	}
	slices.SortFunc(order, func(a, b int) int { return slices.Compare(plan[a].key.storage, plan[b].key.storage) })
	for _, i := range order {
		r, err := e.holdStrong(plan[i].t, plan[i].key)
		if err != nil {
			refused[i] = true
			continue
		}
		releases = append(releases, r)
	}
	return func() {
		for _, r := range releases {
			r()
		}
	}, refused
}

// refuseStrongTransaction refuses a transaction on a strongly consistent
// table, which DynamoDB does not serve.
func refuseStrongTransaction(t *table) error {
	if t.strong() {
		return apierr.Validationf("Transactions are not supported on table %s: it is a replica of a global table with multi-Region strong consistency", t.meta.Desc.TableName)
	}
	return nil
}

// ReplicaConsistency is the named replica's group's consistency, "" when
// it is not a replica.
func (e *Engine) ReplicaConsistency(table string) string {
	t := e.lookup(e.nameOf(table))
	if t == nil || t.meta.Global == nil {
		return ""
	}
	return t.meta.Global.Consistency
}

// TTLEnabled reports whether the named table has Time to Live on.
func (e *Engine) TTLEnabled(table string) bool {
	t := e.lookup(e.nameOf(table))
	return t != nil && t.meta.TTL != nil && t.meta.TTL.Enabled
}
