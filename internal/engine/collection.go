package engine

import (
	"math"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/storage"
)

// In a table with local secondary indexes, the items sharing a partition
// key and their LSI entries form an item collection, whose size DynamoDB
// caps (10 GB). sortkey keeps each collection's size as a merged stats key
// written in the item's batch, refuses a write that would take it past the
// limit, and reports it for ReturnItemCollectionMetrics.

// DefaultItemCollectionLimit is DynamoDB's item collection size limit.
const DefaultItemCollectionLimit = 10 << 30

func (t *table) hasLSI() bool {
	for i := range t.indexes {
		if !t.indexes[i].global {
			return true
		}
	}
	return false
}

// collectionKey is the stats key of the collection it belongs to.
func (t *table) collectionKey(it attr.Item) []byte {
	pk := it[t.key.hash.name]
	return storage.CollectionKey(t.meta.ID, attr.AppendKey(nil, &pk))
}

// growCollection adds a write's size change to its collection, refusing
// growth past the limit. Writes to other items of the collection may run
// at the same time (they lock other stripes), so two of them can together
// overshoot the limit slightly; the size itself stays exact.
func (e *Engine) growCollection(b *storage.Batch, t *table, w *write, delta int64) error {
	key := t.collectionKey(w.keyItem())
	if delta > 0 {
		cur, err := e.db.ReadStats(key)
		if err != nil {
			return err
		}
		if cur.Bytes+delta > e.collectionLimit {
			return apierr.New(apierr.ItemCollectionSizeLimit, "Collection size exceeded.")
		}
	}
	b.AddStats(key, storage.Stats{Bytes: delta})
	return nil
}

// keyItem is whichever of the write's versions exists; both hold the key.
func (w *write) keyItem() attr.Item {
	if w.new != nil {
		return w.new
	}
	return w.old
}

// collectionMetrics answers ReturnItemCollectionMetrics SIZE for a write
// to the item with key: the collection's partition key and its size as a
// range of whole gigabytes, as DynamoDB gives it. Tables without an LSI
// have no item collections, and DynamoDB then returns nothing.
func (e *Engine) collectionMetrics(t *table, mode *string, key attr.Item) *protocol.ItemCollectionMetrics {
	if mode == nil || *mode != "SIZE" || !t.hasLSI() {
		return nil
	}
	s, _ := e.db.ReadStats(t.collectionKey(key))
	lo := math.Floor(float64(s.Bytes) / (1 << 30))
	return &protocol.ItemCollectionMetrics{
		ItemCollectionKey:   attr.Item{t.key.hash.name: key[t.key.hash.name]},
		SizeEstimateRangeGB: []float64{lo, lo + 1},
	}
}
