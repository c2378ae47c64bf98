package storage

import (
	"encoding/binary"
	"io"

	"github.com/cockroachdb/pebble"
)

// Stats is a table's (or index's) item count and total item size. They are
// kept as Pebble merge operands of deltas, written in the same batch as the
// items they count, so they are exact after any crash without a rescan.
type Stats struct {
	Items int64
	Bytes int64
}

// AddStats records a change of count and size in the batch.
func (b *Batch) AddStats(key []byte, d Stats) {
	if d.Items != 0 || d.Bytes != 0 {
		if b.w == nil {
			b.pb.addStats(key, d)
			return
		}
		// A copy: key handed to an interface method would escape, and
		// move every caller's stats key (built on its stack) to the heap.
		b.w.addStats(append([]byte(nil), key...), d)
	}
}

// ReadStats returns the stats at key, zero when none were written.
func (db *DB) ReadStats(key []byte) (Stats, error) { return db.b.readStats(key) }

func (b *pebbleBatch) addStats(key []byte, d Stats) { _ = b.b.Merge(key, encodeStats(d), nil) }

func (s *pebbleStore) readStats(key []byte) (Stats, error) {
	var st Stats
	_, err := s.view(key, func(v []byte) error {
		st = decodeStats(v)
		return nil
	})
	return st, err
}

func encodeStats(s Stats) []byte {
	b := binary.LittleEndian.AppendUint64(nil, uint64(s.Items))
	return binary.LittleEndian.AppendUint64(b, uint64(s.Bytes))
}

func decodeStats(b []byte) Stats {
	if len(b) != 16 {
		return Stats{}
	}
	return Stats{
		Items: int64(binary.LittleEndian.Uint64(b)),
		Bytes: int64(binary.LittleEndian.Uint64(b[8:])),
	}
}

// statsMerger sums stats deltas. Its name is part of the on-disk format:
// Pebble refuses to open a store written with a different merger name.
var statsMerger = &pebble.Merger{
	Name: "sortkey.stats.v1",
	Merge: func(_, value []byte) (pebble.ValueMerger, error) {
		return &statsSum{s: decodeStats(value)}, nil
	},
}

type statsSum struct{ s Stats }

func (m *statsSum) add(v []byte) error {
	d := decodeStats(v)
	m.s.Items += d.Items
	m.s.Bytes += d.Bytes
	return nil
}

func (m *statsSum) MergeNewer(v []byte) error { return m.add(v) }
func (m *statsSum) MergeOlder(v []byte) error { return m.add(v) }
func (m *statsSum) Finish(bool) ([]byte, io.Closer, error) {
	return encodeStats(m.s), nil, nil
}
