package backup

import (
	"encoding/binary"
	"errors"
	"time"
)

// A history record is written in the batch of every change to a table
// with point-in-time recovery on: the changed item's storage key and the
// item as it was before (absent for an insert), stamped with the change's
// time. Records are numbered in commit order per item (the number is taken
// under the item's lock), so undoing, newest first, every change made
// after a moment gives the table as it was at that moment.
//
//	value: time (Unix microseconds, 8) | len(key) (uvarint) | key | had (1) | old item (codec)

// Record is one decoded history record.
type Record struct {
	At  time.Time
	Key []byte // the item's storage key
	Old []byte // the item's encoding before the change; nil if it did not exist
}

var errRecord = errors.New("backup: malformed history record")

// AppendRecord appends the record of a change to dst.
func AppendRecord(dst []byte, at time.Time, key, old []byte) []byte {
	dst = binary.BigEndian.AppendUint64(dst, uint64(at.UnixMicro()))
	dst = binary.AppendUvarint(dst, uint64(len(key)))
	dst = append(dst, key...)
	if old == nil {
		return append(dst, 0)
	}
	return append(append(dst, 1), old...)
}

// RecordTime reads only a record's time.
func RecordTime(v []byte) (time.Time, error) {
	if len(v) < 8 {
		return time.Time{}, errRecord
	}
	return time.UnixMicro(int64(binary.BigEndian.Uint64(v))), nil
}

// DecodeRecord decodes a record; Key and Old alias v.
func DecodeRecord(v []byte) (Record, error) {
	at, err := RecordTime(v)
	if err != nil {
		return Record{}, err
	}
	n, w := binary.Uvarint(v[8:])
	rest := v[8+max(w, 0):]
	if w <= 0 || uint64(len(rest)) < n+1 {
		return Record{}, errRecord
	}
	r := Record{At: at, Key: rest[:n]}
	if rest[n] == 1 {
		r.Old = rest[n+1:]
	}
	return r, nil
}

// Undo collects, from the records of changes made after a moment (given
// oldest first), each item's version at that moment: the old version of
// its first change after it.
type Undo struct {
	versions map[string][]byte // storage key -> item encoding, nil if absent
}

// NewUndo returns an empty Undo.
func NewUndo() *Undo { return &Undo{versions: map[string][]byte{}} }

// Add notes a record; only an item's first record after the moment counts.
func (u *Undo) Add(r Record) {
	if _, seen := u.versions[string(r.Key)]; !seen {
		u.versions[string(r.Key)] = clone(r.Old)
	}
}

// Version returns the item's version at the moment for a key some change
// after it touched (ok), the encoding or nil if it did not exist then.
func (u *Undo) Version(key []byte) (item []byte, ok bool) {
	item, ok = u.versions[string(key)]
	return item, ok
}

// Missing calls fn, in no order, for each item that existed at the moment
// and whose key is not in present: items deleted since.
func (u *Undo) Missing(present func(key []byte) bool, fn func(key, item []byte) error) error {
	for k, v := range u.versions {
		if v != nil && !present([]byte(k)) {
			if err := fn([]byte(k), v); err != nil {
				return err
			}
		}
	}
	return nil
}

func clone(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte{}, b...)
}
