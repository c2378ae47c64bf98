package engine

import (
	"log/slog"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/storage"
)

// A global secondary index added by UpdateTable is filled from the table
// while writes go on. From the moment the index is published, every write
// maintains it (checking first whether the entry it would replace exists,
// since the backfill may not have reached it). The backfill walks the
// table's items in key order and, under each item's lock, adds the entry
// the item should have unless a write already did. Backfill batches are not
// synced one by one: the synced commit that marks the index ACTIVE makes
// them durable, and a crash before it restarts the backfill at Open.

// backfillPage is how many item keys the backfill reads before it releases
// its iterator and fills them, so it never pins a long-lived snapshot.
const backfillPage = 512

// startBackfill fills index id of table tableID in the background.
func (e *Engine) startBackfill(name string, tableID uint64, id uint16) {
	e.bg.Add(1)
	go func() {
		defer e.bg.Done()
		if err := e.backfill(name, tableID, id); err != nil {
			slog.Error("index backfill stopped; it resumes when sortkey restarts", "table", name, "err", err)
		}
	}()
}

// resumeBackfills restarts the backfills a previous process left
// unfinished. It lists them before starting any, since a backfill that
// finishes changes the table map.
func (e *Engine) resumeBackfills() {
	type job struct {
		name string
		id   uint64
		ix   uint16
	}
	var jobs []job
	e.mu.RLock()
	for _, t := range e.tables {
		for _, ix := range t.indexes {
			if ix.backfilling {
				jobs = append(jobs, job{t.meta.Desc.TableName, t.meta.ID, ix.id})
			}
		}
	}
	e.mu.RUnlock()
	for _, j := range jobs {
		e.startBackfill(j.name, j.id, j.ix)
	}
}

func (e *Engine) backfill(name string, tableID uint64, id uint16) error {
	t := e.lookup(name)
	if t == nil || t.meta.ID != tableID {
		return nil
	}
	lo := storage.ItemPrefix(tableID, 0)
	hi := storage.PrefixEnd(lo)
	for {
		keys, err := e.itemKeys(lo, hi)
		if err != nil || len(keys) == 0 {
			if err == nil {
				err = e.finishBackfill(name, tableID, id)
			}
			return err
		}
		if gone, err := e.fillAll(t.alive, id, keys); gone || err != nil {
			return err
		}
		lo = append(keys[len(keys)-1], 0)
	}
}

// itemKeys reads up to backfillPage item keys from [lo, hi).
func (e *Engine) itemKeys(lo, hi []byte) ([][]byte, error) {
	var keys [][]byte
	err := e.db.Scan(lo, hi, func(k, _ []byte) bool {
		keys = append(keys, append([]byte(nil), k...))
		return len(keys) < backfillPage
	})
	return keys, err
}

// fillAll fills the entries of keys' items. gone reports that the backfill
// is over: the index or table was deleted, or the engine is closing.
func (e *Engine) fillAll(alive *lifecycle, id uint16, keys [][]byte) (gone bool, err error) {
	for _, k := range keys {
		select {
		case <-e.closing:
			return true, nil
		default:
		}
		if gone, err = e.fill(alive, id, k); gone || err != nil {
			return gone, err
		}
	}
	return false, nil
}

// fill adds the index entry of the item at k if it should have one and
// does not. It locks the item as a write does, so it sees the item as
// last committed and no write of the item runs meanwhile.
func (e *Engine) fill(alive *lifecycle, id uint16, k []byte) (gone bool, err error) {
	unlock := e.locks.lock(storage.PartitionHash(k))
	defer unlock()
	alive.RLock()
	defer alive.RUnlock()
	t := alive.current.Load()
	ix := t.indexByID(id)
	if alive.dropped || ix == nil || !ix.backfilling {
		return true, nil
	}
	it, err := e.readItem(itemKey{storage: k})
	if err != nil || checkIndexKeysOf(ix, it) != nil {
		return false, err // an item that violates the index key is left out, as DynamoDB leaves it
	}
	ek := t.entryKey(ix, it)
	if ek == nil || e.exists(ek) {
		return false, nil
	}
	return false, e.putEntry(t, ix, ek, it)
}

func (e *Engine) putEntry(t *table, ix *indexSchema, ek []byte, it attr.Item) error {
	proj := t.projectInto(ix, it)
	b := e.db.NewBatch()
	b.Set(ek, attr.AppendItem(nil, proj))
	b.AddStats(storage.StatsKey(t.meta.ID, ix.id), entryDelta(nil, proj))
	return b.CommitNoSync()
}

func (t *table) indexByID(id uint16) *indexSchema {
	for i := range t.indexes {
		if t.indexes[i].id == id {
			return &t.indexes[i]
		}
	}
	return nil
}

// finishBackfill marks the index ACTIVE, unless it was deleted meanwhile.
func (e *Engine) finishBackfill(name string, tableID uint64, id uint16) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	t := e.tables[name]
	if t == nil || t.meta.ID != tableID || t.indexByID(id) == nil {
		return nil
	}
	meta := ownedMeta(t.meta)
	for i := range meta.Desc.GlobalSecondaryIndexes {
		g := &meta.Desc.GlobalSecondaryIndexes[i]
		if meta.Indexes[g.IndexName] == id {
			g.IndexStatus, g.Backfilling = "ACTIVE", new(false)
		}
	}
	return e.publish(t, meta, 0)
}
