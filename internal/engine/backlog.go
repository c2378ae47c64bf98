package engine

import (
	"time"

	"github.com/sortkeydb/sortkey/internal/storage"
)

// Backlog is what a table has yet to be read or swept, for metrics: read
// from numbers the engine keeps anyway, so a scrape stays cheap.
type Backlog struct {
	Table string
	// Streamed says the table has or had a stream within retention, so
	// StreamRecords means something.
	Streamed bool
	// StreamRecords is the stream records kept: the newest record's
	// number less the oldest's, plus one. Records are numbered without
	// gaps, so this is what a reader from TRIM_HORIZON would still read,
	// counting the records past retention the next trim deletes.
	StreamRecords uint64
	// TTLDeleted is the items the TTL sweeper deleted since the engine
	// opened (or the table was created).
	TTLDeleted uint64
}

// Backlogs lists every active table's backlog, in table order. Each
// streamed table costs two seeks (its oldest and newest record); no
// items are read.
func (e *Engine) Backlogs() ([]Backlog, error) {
	var out []Backlog
	for _, name := range e.tableNames() {
		t := e.lookup(name)
		if t == nil {
			continue
		}
		b := Backlog{Table: name, Streamed: len(t.meta.Streams) > 0, TTLDeleted: t.alive.ttlDeleted.Load()}
		if b.Streamed {
			n, err := e.streamRecords(t)
			if err != nil {
				return out, err
			}
			b.StreamRecords = n
		}
		out = append(out, b)
	}
	return out, nil
}

// streamRecords is the number of t's stream records kept: trims delete
// the oldest ones as a range, so the first record left is the oldest.
func (e *Engine) streamRecords(t *table) (uint64, error) {
	lo, hi := storage.RecordRange(t.meta.ID)
	var first, last uint64
	seek := func(k, _ []byte) bool { first = storage.RecordSeq(k); return false }
	if err := e.db.Scan(lo, hi, seek); err != nil || first == 0 {
		return 0, err
	}
	err := e.db.ScanReverse(lo, hi, func(k, _ []byte) bool { last = storage.RecordSeq(k); return false })
	if err != nil || last < first {
		return 0, err
	}
	return last - first + 1, nil
}

// LastSweep is the time, by the engine's clock, at which the TTL sweeper
// last finished a pass over every table with TTL enabled without an
// error; zero before the first.
func (e *Engine) LastSweep() time.Time {
	ms := e.lastSweep.Load()
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms)
}
