package engine

import (
	"slices"

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
// to be nothing. An item a transaction holds is refused before its lock
// is taken: waiting for the transaction is what DynamoDB does not do. The
// item's lock is released once the change is applied, before its sync:
// the next writer of the item reads it and shares the sync (see applyBatch).
func (e *Engine) apply(t *table, k itemKey, m mutation) (old, next attr.Item, err error) {
	if err := e.holds.refuseHeld(k.storage); err != nil {
		return nil, nil, err
	}
	release, err := e.holdStrong(t, k)
	if err != nil {
		return nil, nil, err
	}
	defer release()
	if old, next, err = e.applyHere(t, k, m); err != nil {
		return old, next, err
	}
	return old, next, e.sendStrong(t, k, old, next)
}

// applyHere is apply in this region's replica.
func (e *Engine) applyHere(t *table, k itemKey, m mutation) (old, next attr.Item, err error) {
	for try := 1; ; try++ {
		unlock := e.locks.lock(k.hash)
		var b *storage.Batch
		old, next, b, err = e.applyLocked(t, k, m)
		unlock()
		if err = durable(b, err); !e.again(err, try) {
			return old, next, err
		}
	}
}

func (e *Engine) applyLocked(t *table, k itemKey, m mutation) (old, next attr.Item, b *storage.Batch, err error) {
	old, mark, err := e.readForWrite(k)
	if err != nil {
		return nil, nil, nil, err
	}
	if next, err = m(old); err != nil {
		return old, nil, nil, err
	}
	if old == nil && next == nil {
		return nil, nil, nil, nil
	}
	b, err = e.applyBatch([]write{{t: t, key: k, old: old, new: next, read: mark}}, nil)
	return old, next, b, err
}

// returnOld is the Attributes of a PutItem or DeleteItem response.
func returnOld(o *protocol.WriteOptions, old attr.Item) attr.Item {
	if wantsOld(o) {
		return old
	}
	return nil
}

// wantsOld reports whether a PutItem or DeleteItem returns the old item.
func wantsOld(o *protocol.WriteOptions) bool {
	return o.ReturnValues != nil && *o.ReturnValues == "ALL_OLD"
}

// write is one item change: the item before and after (either may be nil).
type write struct {
	t        *table
	key      itemKey
	old, new attr.Item
	byTTL    bool // a deletion by the TTL sweeper, which streams attribute to the service
	// sizedOld says an old item exists that was not decoded (old is nil):
	// oldSize is its size. See replace.
	sizedOld bool
	oldSize  int
	// enc is new's storage encoding once addWrite has made it, which the
	// stream record transcodes instead of walking new again.
	enc []byte
	// read guards the commit on a shared store (shared.go); a checkOnly
	// write is that guard alone (a transaction's ConditionCheck).
	read      readMark
	checkOnly bool
	// stamp is a change from another region's replica (replication.go):
	// the stamp it was written with there. nil for a write made here.
	stamp *Stamp
}

// commit writes one change; see commitAll.
func (e *Engine) commit(w write) error { return e.commitAll([]write{w}) }

// commitAll writes changes, their stats deltas and their index entries in
// one synced batch: all of them or none. The caller holds every item's
// lock. Index entries follow each table's current definition, not the one
// the request started with, so an index created or deleted meanwhile is
// maintained exactly from the moment it was published (see publish).
func (e *Engine) commitAll(ws []write) error { return e.commitBatch(ws, nil) }

// commitBatch is commitAll with extra writes of the caller's in the same
// batch (a transaction's client token); extra may be nil.
func (e *Engine) commitBatch(ws []write, extra func(*storage.Batch)) error {
	return durable(e.applyBatch(ws, extra))
}

// applyBatch is the first half of commitBatch: it returns once the batch
// is applied, visible to readers in commit order, and the caller then
// waits for its sync with durable. A caller may release its item locks in
// between: a later writer of the same item reads the applied version, and
// its own sync, which follows in the log, covers both. So writers of one
// hot item share syncs instead of queueing one sync each, and every write
// is still acknowledged only once on disk. b is nil when nothing was
// applied.
func (e *Engine) applyBatch(ws []write, extra func(*storage.Batch)) (b *storage.Batch, err error) {
	var one [1]*lifecycle // a single write's table, without an allocation
	held, err := holdTables(lifecycles(one[:0], ws))
	if err != nil {
		return nil, err
	}
	defer releaseTables(held)
	b = e.db.NewBatch()
	if e.db.Shared() {
		for _, l := range held {
			l.current.Load().guardDefinition(b)
		}
		var hists []*streamSeq
		if hists, err = e.lockHistories(held, b); err != nil {
			b.Discard()
			return nil, err
		}
		defer func() {
			if err != nil {
				forgetSeqs(hists)
			}
			unlockSeqs(hists)
		}()
	}
	for i := range ws {
		if err := e.addWrite(b, &ws[i]); err != nil {
			b.Discard()
			return nil, err
		}
	}
	if extra != nil {
		extra(b)
	}
	var oneSeq [1]*streamSeq // a single streamed table's lock, without an allocation
	locked, err := e.addRecords(oneSeq[:0], b, ws, held)
	if err != nil {
		b.Discard()
		return nil, err
	}
	if e.lag != nil {
		if err := e.recordLag(b); err != nil {
			unlockSeqs(locked)
			b.Discard()
			return nil, err
		}
	}
	if err = b.Apply(); err != nil {
		forgetSeqs(locked)
	}
	unlockSeqs(locked)
	return b, err
}

// durable is the second half of a commit: it waits for the sync of b,
// which applyBatch applied (or failed to, with err).
func durable(b *storage.Batch, err error) error {
	if b == nil {
		return err
	}
	if werr := b.Wait(); err == nil {
		err = werr
	}
	return err
}

// addWrite adds one change to b: the item, the table's stats, the index
// entries and, with local secondary indexes, the item collection's size.
func (e *Engine) addWrite(b *storage.Batch, w *write) error {
	t := w.t.alive.current.Load()
	if err := e.decodeOld(t, w); err != nil {
		return err
	}
	w.read.guard(b, w.key.storage)
	if w.checkOnly {
		return nil
	}
	var enc []byte // encoded once, for the item and its ALL index entries
	if w.new != nil {
		enc = attr.AppendItem(nil, w.new)
		b.Set(w.key.storage, enc)
		w.enc = enc
	} else {
		b.Delete(w.key.storage)
	}
	if t.meta.Global != nil {
		if err := e.addReplication(b, t, w); err != nil {
			return err
		}
	}
	if t.pitrOn() {
		e.addHistory(b, t, w)
	}
	d := w.statsDelta()
	b.AddStats(storage.StatsKey(t.meta.ID, 0), d)
	local := e.writeIndexes(b, t, w, enc)
	if !t.hasLSI() {
		return nil
	}
	return e.growCollection(b, t, w, d.Bytes+local)
}

// holdTables takes the shared lifecycle locks of ls, the tables some
// writes touch in table-id order (lifecycles), so that two multi-table
// writers and a DeleteTable can never wait on each other in a cycle. On
// success the caller releases them with releaseTables.
func holdTables(ls []*lifecycle) ([]*lifecycle, error) {
	for i, l := range ls {
		l.RLock()
		if l.dropped {
			releaseTables(ls[:i+1])
			return nil, apierr.New(apierr.ResourceNotFound, msgNotFound)
		}
	}
	return ls, nil
}

func releaseTables(held []*lifecycle) {
	for _, l := range held {
		l.RUnlock()
	}
}

// lifecycles appends to dst the distinct tables' lifecycles in table-id
// order.
func lifecycles(dst []*lifecycle, ws []write) []*lifecycle {
	if len(ws) == 1 {
		return append(dst, ws[0].t.alive)
	}
	byID := map[uint64]*lifecycle{}
	for _, w := range ws {
		byID[w.t.meta.ID] = w.t.alive
	}
	ids := make([]uint64, 0, len(byID))
	for id := range byID {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		dst = append(dst, byID[id])
	}
	return dst
}

// statsDelta is statsDelta of the write, with the size of an old item
// replace did not decode.
func (w *write) statsDelta() storage.Stats {
	if !w.sizedOld {
		return statsDelta(w.old, w.new)
	}
	d := statsDelta(nil, w.new)
	d.Items--
	d.Bytes -= int64(w.oldSize)
	return d
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
