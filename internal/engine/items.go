package engine

import (
	"math"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/storage"
)

// readItem returns the stored item at k, or nil.
func (e *Engine) readItem(k itemKey) (attr.Item, error) {
	v, ok, err := e.db.Get(k.storage)
	if err != nil || !ok {
		return nil, err
	}
	return attr.DecodeItem(v)
}

// mutation computes an item's next version from its current one (nil when
// absent); it returns nil to delete. It runs under the item's lock, so
// conditions it checks hold when the write commits.
type mutation func(old attr.Item) (attr.Item, error)

// apply runs one read-modify-write of the item at k and returns the item
// before and after. Nothing is written when there was nothing and there is
// to be nothing.
func (e *Engine) apply(t *table, k itemKey, m mutation) (old, next attr.Item, err error) {
	unlock := e.locks.lock(k.hash)
	defer unlock()
	if old, err = e.readItem(k); err != nil {
		return nil, nil, err
	}
	if next, err = m(old); err != nil {
		return old, nil, err
	}
	if old == nil && next == nil {
		return nil, nil, nil
	}
	return old, next, e.commit(write{t: t, key: k, old: old, new: next})
}

// returnOld is the Attributes of a PutItem or DeleteItem response.
func returnOld(o *protocol.WriteOptions, old attr.Item) attr.Item {
	if o.ReturnValues != nil && *o.ReturnValues == "ALL_OLD" {
		return old
	}
	return nil
}

// write is one item change: the item before and after (either may be nil).
type write struct {
	t        *table
	key      itemKey
	old, new attr.Item
}

// commit writes the change and the table's stats delta in one synced batch.
// The caller holds the item's lock.
func (e *Engine) commit(w write) error {
	w.t.alive.RLock()
	defer w.t.alive.RUnlock()
	if w.t.alive.dropped {
		return apierr.New(apierr.ResourceNotFound, "Requested resource not found")
	}
	b := e.db.NewBatch()
	if w.new != nil {
		b.Set(w.key.storage, attr.AppendItem(nil, w.new))
	} else {
		b.Delete(w.key.storage)
	}
	b.AddStats(storage.StatsKey(w.t.meta.ID, 0), statsDelta(w.old, w.new))
	w.t.writeIndexes(b, w.old, w.new)
	return b.Commit()
}

func statsDelta(old, new attr.Item) storage.Stats {
	var d storage.Stats
	if old != nil {
		d.Items--
		d.Bytes -= int64(old.Size())
	}
	if new != nil {
		d.Items++
		d.Bytes += int64(new.Size())
	}
	return d
}

// capacity reports consumed capacity when the request asked for it
// (TOTAL or INDEXES): units is already rounded per DynamoDB's rules.
func capacity(mode *string, table string, units float64) *protocol.ConsumedCapacity {
	if mode == nil || *mode == "NONE" {
		return nil
	}
	c := &protocol.ConsumedCapacity{TableName: table, CapacityUnits: &units}
	if *mode == "INDEXES" {
		c.Table = &protocol.Capacity{CapacityUnits: &units}
	}
	return c
}

// writeUnits is one unit per KB started of the larger of the item before
// and after, and at least one.
func writeUnits(old, new attr.Item) float64 {
	return math.Max(1, math.Ceil(float64(max(old.Size(), new.Size()))/1024))
}

// readUnits is one unit per 4 KB started, at least one; half that for an
// eventually consistent read.
func readUnits(it attr.Item, consistent bool) float64 {
	u := math.Max(1, math.Ceil(float64(it.Size())/4096))
	if !consistent {
		u /= 2
	}
	return u
}
