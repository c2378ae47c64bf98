package engine

import (
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/storage"
)

// A plain PutItem (no condition, no old attributes returned, no capacity
// enforced) into a table without indexes, a stream or point-in-time
// recovery needs only the size of the item it replaces: for the table's
// statistics and the capacity it reports (which `sortkey serve` always
// asks for, to count it in its metrics). Decoding that item was ~10% of
// such a request's CPU and ~40 of its allocations, so replace reads its
// size from the encoding instead (attr.EncodedSize).

// plainPut reports whether a PutItem into t with w's expressions needs
// nothing of the item it replaces but its size. The table's definition
// may change before the commit; decodeOld catches that.
func plainPut(t *table, w writeExprs, in *protocol.PutItemInput, enforced bool) bool {
	return w.cond == nil && !enforced && !wantsOld(&in.WriteOptions) &&
		!needsOld(t.alive.current.Load())
}

// needsOld reports whether writes to a table of this definition read the
// old item's attributes: its index entries, stream records or history.
func needsOld(t *table) bool {
	return len(t.indexes) > 0 || t.meta.openStream() != nil || t.pitrOn()
}

// replace is apply for a plain PutItem: under the item's lock, it sizes
// the stored item without decoding it and writes item in its place. It
// returns the write, whose old item was decoded after all if the commit
// needed it (decodeOld).
func (e *Engine) replace(t *table, k itemKey, item attr.Item) (write, error) {
	if err := e.holds.refuseHeld(k.storage); err != nil {
		return write{}, err
	}
	release, err := e.holdStrong(t, k)
	if err != nil {
		return write{}, err
	}
	defer release()
	w, err := e.replaceHere(t, k, item)
	if err != nil {
		return w, err
	}
	return w, e.sendStrong(t, k, w.old, w.new)
}

// replaceHere is replace in this region's replica.
func (e *Engine) replaceHere(t *table, k itemKey, item attr.Item) (write, error) {
	for try := 1; ; try++ {
		unlock := e.locks.lock(k.hash)
		ws := [1]write{{t: t, key: k, new: item}}
		b, err := e.replaceLocked(ws[:])
		unlock()
		if err = durable(b, err); !e.again(err, try) {
			return ws[0], err
		}
	}
}

// replaceLocked sizes the stored item of ws's one write and applies it.
func (e *Engine) replaceLocked(ws []write) (*storage.Batch, error) {
	w := &ws[0]
	shared := e.db.Shared()
	found, err := e.db.View(w.key.storage, func(v []byte) (err error) {
		if shared {
			w.read.raw = append([]byte(nil), v...)
		}
		w.oldSize, err = attr.EncodedSize(v)
		return err
	})
	if err != nil {
		return nil, err
	}
	w.sizedOld = found
	w.read.ok, w.read.found = shared, found
	return e.applyBatch(ws, nil)
}

// putReport is the ConsumedCapacity of a plain PutItem's write w.
func (t *table) putReport(mode *string, table string, w *write) *protocol.ConsumedCapacity {
	if !w.sizedOld {
		return t.writeReport(mode, table, w.old, w.new)
	}
	if mode == nil || *mode == "NONE" {
		return nil
	}
	// The commit found no index to maintain (decodeOld), so the table's
	// units are all of it.
	u := &usage{table: roundUp(max(w.oldSize, w.new.Size()), writeUnitBytes)}
	return u.report(mode, table)
}

// decodeOld decodes the old item replace only sized, when t (the table's
// definition at commit) needs its attributes after all: an index or a
// stream added since the request looked. The caller holds the item's lock,
// so it is still the stored item.
func (e *Engine) decodeOld(t *table, w *write) error {
	if !w.sizedOld || !needsOld(t) {
		return nil
	}
	old, err := e.readItem(w.key)
	w.old, w.sizedOld = old, false
	return err
}
