package engine

import (
	"log/slog"
	"time"

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

// backfillRetry is how long a backfill that failed (its store did not
// answer) waits before it starts over; what it filled is kept, and found.
const backfillRetry = 2 * time.Second

// startBackfill fills index id of table tableID in the background, until
// it is done or the engine closes.
func (e *Engine) startBackfill(name string, tableID uint64, id uint16) {
	if !e.db.Leader() {
		return // the lease's holder starts it (catalogLoop)
	}
	job := backfillJob{tableID, id}
	if _, running := e.backfills.LoadOrStore(job, true); running {
		return
	}
	e.bg.Add(1)
	go func() {
		defer e.bg.Done()
		defer e.backfills.Delete(job)
		for {
			err := e.backfill(name, tableID, id)
			if err == nil {
				return
			}
			slog.Error("index backfill failed; it starts over", "table", name, "in", backfillRetry, "err", err)
			select {
			case <-e.closing:
				return
			case <-time.After(backfillRetry):
			}
		}
	}()
}

// backfillJob names a running backfill, so that one runs at a time.
type backfillJob struct {
	tableID uint64
	index   uint16
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

// fillGroup is how many items the backfill fills in one batch, holding
// their locks meanwhile: few enough that a writer of one of them waits
// for a handful of reads, enough that a store whose commit is a network
// round trip (PostgreSQL) commits once per group, not once per item.
const fillGroup = 16

// fillAll fills the entries of keys' items, a group at a time. gone
// reports that the backfill is over: the index or table was deleted, or
// the engine is closing.
func (e *Engine) fillAll(alive *lifecycle, id uint16, keys [][]byte) (gone bool, err error) {
	for len(keys) > 0 {
		select {
		case <-e.closing:
			return true, nil
		default:
		}
		if !e.db.Leader() {
			return true, nil // the lease moved: its new holder resumes the backfill
		}
		n := min(fillGroup, len(keys))
		err = e.retryStale(func() (err error) {
			gone, err = e.fillGroup(alive, id, keys[:n])
			return err
		})
		if gone || err != nil {
			return gone, err
		}
		keys = keys[n:]
	}
	return false, nil
}

// fillGroup adds the index entries of the items at keys that should have
// one and do not, in one batch. It locks the items as a multi-item write
// does, so it sees them as last committed and no write of them runs
// until the batch is in.
func (e *Engine) fillGroup(alive *lifecycle, id uint16, keys [][]byte) (gone bool, err error) {
	hashes := make([]uint64, len(keys))
	for i, k := range keys {
		hashes[i] = stripeOf(k)
	}
	unlock := e.locks.lockAll(hashes)
	defer unlock()
	alive.RLock()
	defer alive.RUnlock()
	t := alive.current.Load()
	ix := t.indexByID(id)
	if alive.dropped || ix == nil || !ix.backfilling {
		return true, nil
	}
	items, err := e.groupItems(keys)
	if err != nil {
		return false, err
	}
	b := e.db.NewBatch()
	t.guardDefinition(b)
	for _, k := range keys {
		v := items[string(k)]
		b.Guard(k, v != nil, v)
		if err := e.addMissingEntry(b, t, ix, v); err != nil {
			b.Discard()
			return false, err
		}
	}
	return false, b.CommitNoSync()
}

// groupItems reads the items at keys, which are in key order, in one range
// read: each one's current value, since the caller holds their locks, and
// none for an item deleted since its key was listed. Keys the range holds
// besides them (items written since) are left to their writers.
func (e *Engine) groupItems(keys [][]byte) (map[string][]byte, error) {
	items := make(map[string][]byte, len(keys))
	for _, k := range keys {
		items[string(k)] = nil
	}
	last := keys[len(keys)-1]
	hi := append(last[:len(last):len(last)], 0)
	err := e.db.Scan(keys[0], hi, func(k, v []byte) bool {
		if _, listed := items[string(k)]; listed {
			items[string(k)] = append([]byte(nil), v...)
		}
		return true
	})
	return items, err
}

// addMissingEntry adds to b the entry of the item stored as v (nil: gone),
// if it should have one and does not. An item that violates the index key is left out, as
// DynamoDB leaves it. A read that fails stops the backfill rather than
// skip an entry: unlike a write's (index.go), the backfill's check decides
// whether the entry is written at all.
func (e *Engine) addMissingEntry(b *storage.Batch, t *table, ix *indexSchema, v []byte) error {
	if v == nil {
		return nil
	}
	it, err := attr.DecodeItem(v)
	if err != nil {
		return err
	}
	ek, vec := t.backfillEntry(ix, it)
	if ek == nil {
		return nil
	}
	if _, ok, err := e.db.Get(ek); ok || err != nil {
		return err
	}
	b.Guard(ek, false, nil) // a backfill that lost its lease may still be filling
	proj := t.projectInto(ix, it)
	b.Set(ek, entryValue(ix, vec, proj, nil))
	b.AddStats(storage.StatsKey(t.meta.ID, ix.id), entryDelta(nil, proj))
	return nil
}

// backfillEntry is it's entry key in ix and, for a vector index, its
// vector, read once; the key is nil when it has no entry.
func (t *table) backfillEntry(ix *indexSchema, it attr.Item) ([]byte, []float32) {
	vec, err := checkIndexKeysOf(ix, it)
	if err != nil || (ix.vec != nil && vec == nil) {
		return nil, nil
	}
	return t.keyedEntry(ix, it), vec
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
// An ACTIVE index has no Backfilling member at all (facts 16.1).
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
			g.IndexStatus, g.Backfilling = "ACTIVE", nil
		}
	}
	for i := range meta.Desc.VectorIndexes {
		v := &meta.Desc.VectorIndexes[i]
		if meta.Indexes[v.IndexName] == id {
			v.IndexStatus, v.Backfilling = "ACTIVE", nil
		}
	}
	return e.publish(t, meta, 0)
}
