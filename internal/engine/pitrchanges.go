package engine

import (
	"bytes"
	"slices"
	"time"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/backup"
	"github.com/sortkeydb/sortkey/internal/storage"
)

// Changes is what an incremental export holds: the items of a table
// changed in the window [From, To), read from the point-in-time history
// in a snapshot taken when it was opened, so writes or trimming while an
// export runs change nothing it gives.
type Changes struct {
	TableArn, TableID string
	From, To          time.Time
	snap              *storage.Snapshot
	id                uint64
	keys              []string
}

// Change is one item changed in the window, as DynamoDB JSON maps: its
// key attributes, its version just before From (Old) and just before To
// (New), nil where the item did not exist, and the time of its last
// change in the window. Size is the size of New (of Old for an item
// deleted), for the export's billed size.
type Change struct {
	Keys, Old, New []byte
	WriteMicros    int64
	Size           int
}

// OpenChanges opens the changes of table ref (a name or an ARN) made in
// [from, to). The table must have point-in-time recovery on and both ends
// must be within its restorable window (InvalidExportTimeException);
// Close releases it.
func (e *Engine) OpenChanges(ref string, from, to time.Time) (*Changes, error) {
	if _, _, err := e.pitrTable(ref, &from, apierr.InvalidExportTime, msgExportTimeOut); err != nil {
		return nil, err
	}
	t, _, err := e.pitrTable(ref, &to, apierr.InvalidExportTime, msgExportTimeOut)
	if err != nil {
		return nil, err
	}
	var keys []string
	for _, k := range keySchemaOf(t) {
		keys = append(keys, *k.AttributeName)
	}
	snap, err := e.db.NewSnapshot()
	if err != nil {
		return nil, err
	}
	return &Changes{TableArn: t.meta.Desc.TableArn, TableID: t.meta.Desc.TableId, From: from, To: to,
		snap: snap, id: t.meta.ID, keys: keys}, nil
}

// Close releases the snapshot.
func (c *Changes) Close() { c.snap.Close() }

// windowed is one item's changes in the window: its version before the
// first and the time of the last.
type windowed struct {
	old    []byte
	micros int64
}

// Each gives fn, in storage key order, every item changed in the window
// that existed at one end of it at least (an item both created and
// deleted within it is left out, as the export compacts it away); fn's
// error stops the walk and is returned.
func (c *Changes) Each(fn func(Change) error) error {
	changed, later, err := c.history()
	if err != nil {
		return err
	}
	keys := make([]string, 0, len(changed))
	for k := range changed {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		newer, err := c.versionAtEnd(later, []byte(k))
		if err != nil {
			return err
		}
		if err := c.emit(changed[k], newer, fn); err != nil {
			return err
		}
	}
	return nil
}

// history reads the records once: the window's changes per item, and in
// later each item's version just before To (the old version of its first
// change at To or after).
func (c *Changes) history() (map[string]*windowed, *backup.Undo, error) {
	changed, later := map[string]*windowed{}, backup.NewUndo()
	lo, hi := storage.HistoryRange(c.id)
	var bad error
	err := c.snap.Scan(lo, hi, func(_, v []byte) bool {
		r, err := backup.DecodeRecord(v)
		if bad = err; err != nil {
			return false
		}
		c.note(changed, later, r)
		return true
	})
	return changed, later, firstErr(err, bad)
}

// note files one record: before the window it says nothing the export
// needs; in it, it is the item's change; after, it undoes toward To.
func (c *Changes) note(changed map[string]*windowed, later *backup.Undo, r backup.Record) {
	switch {
	case r.At.Before(c.From):
	case r.At.Before(c.To):
		w, seen := changed[string(r.Key)]
		if !seen {
			w = &windowed{old: bytes.Clone(r.Old)}
			changed[string(r.Key)] = w
		}
		w.micros = r.At.UnixMicro()
	default:
		later.Add(r)
	}
}

// versionAtEnd is the item's encoding just before To: undone from the
// later changes, or as the snapshot holds it; nil if it did not exist.
func (c *Changes) versionAtEnd(later *backup.Undo, key []byte) ([]byte, error) {
	if v, ok := later.Version(key); ok {
		return v, nil
	}
	v, ok, err := c.snap.Get(key)
	if err != nil || !ok {
		return nil, err
	}
	return v, nil
}

// emit converts one item's versions to wire JSON and gives it to fn.
func (c *Changes) emit(w *windowed, newer []byte, fn func(Change) error) error {
	if w.old == nil && newer == nil {
		return nil
	}
	ch, last := Change{WriteMicros: w.micros}, w.old
	var err error
	if ch.Old, ch.Size, err = jsonOf(w.old); err != nil {
		return err
	}
	if newer != nil {
		if ch.New, ch.Size, err = jsonOf(newer); err != nil {
			return err
		}
		last = newer
	}
	if ch.Keys, err = c.keysOf(last); err != nil {
		return err
	}
	return fn(ch)
}

func jsonOf(enc []byte) ([]byte, int, error) {
	if enc == nil {
		return nil, 0, nil
	}
	return attr.AppendEncodedJSON(nil, enc)
}

// keysOf is the item's key attributes as a DynamoDB JSON map.
func (c *Changes) keysOf(enc []byte) ([]byte, error) {
	it, err := attr.DecodeItem(enc)
	if err != nil {
		return nil, err
	}
	keys := attr.Item{}
	for _, k := range c.keys {
		if v, ok := it[k]; ok {
			keys[k] = v
		}
	}
	return attr.AppendItemJSON(nil, keys), nil
}
