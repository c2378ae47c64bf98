package engine

import (
	"encoding/binary"
	"encoding/json"
	"slices"
	"sync"
	"time"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/storage"
)

// A table's stream records live in its key range, numbered by a per-table
// sequence. Every write to a table whose stream is enabled adds a record
// to its own batch, so a record exists exactly when its change does.
// Writers of such a table take its stream lock from numbering until their
// batch is applied, so records commit in number order and a reader that
// has seen record n has seen every record before it; the sync after is
// shared with other writers (see applyBatch).
//
// Each enabling of the stream starts a new stream (new label, new ARN)
// that owns the records numbered after Start; disabling closes it at End.
// Each stream has one shard.

// streamRetention is how long records stay readable.
const streamRetention = 24 * time.Hour

// streamMeta is one stream of a table, enabled at Created and, when
// Closed is set, disabled then.
type streamMeta struct {
	Label   string `json:"label"`
	View    string `json:"view"`
	Created int64  `json:"created"` // Unix ms
	Closed  int64  `json:"closed,omitempty"`
	// Start is the last record number before the stream; End the last in
	// it once closed. Stamped says Start was set (see stampStreams).
	Start   uint64 `json:"start"`
	End     uint64 `json:"end,omitempty"`
	Stamped bool   `json:"stamped"`
	// Policy is the stream's resource-based policy, nil if none.
	Policy *policyMeta `json:"policy,omitempty"`
}

func (s *streamMeta) holds(seq uint64) bool {
	return seq > s.Start && (s.Closed == 0 || seq <= s.End)
}

// openStream is the table's enabled stream, or nil.
func (m *tableMeta) openStream() *streamMeta {
	if n := len(m.Streams); n > 0 && m.Streams[n-1].Closed == 0 {
		return &m.Streams[n-1]
	}
	return nil
}

// syncStreams opens a stream when the description has just enabled one
// and closes the open stream when it has just been disabled.
func (e *Engine) syncStreams(m *tableMeta) {
	open := m.openStream()
	spec := m.Desc.StreamSpecification
	switch {
	case spec != nil && open == nil:
		created := e.now()
		for m.hasStream(created) { // labels are times: two streams in one millisecond must differ
			created = created.Add(time.Millisecond)
		}
		setStream(&m.Desc, spec, created)
		m.Streams = append(slices.Clone(m.Streams), streamMeta{Label: m.Desc.LatestStreamLabel,
			View: *spec.StreamViewType, Created: created.UnixMilli()})
	case spec == nil && open != nil:
		m.Streams = slices.Clone(m.Streams)
		m.Streams[len(m.Streams)-1].Closed = e.now().UnixMilli()
	}
}

func (m *tableMeta) hasStream(at time.Time) bool {
	return slices.ContainsFunc(m.Streams, func(s streamMeta) bool { return s.Created == at.UnixMilli() })
}

// streamSeq numbers a table's records; it lives in the table's lifecycle,
// shared by every version of the table.
type streamSeq struct {
	sync.Mutex
	seq    uint64
	loaded bool
}

// lockSeq locks the table's numbering, reading the last number from
// storage the first time.
func (e *Engine) lockSeq(t *table) (*streamSeq, error) {
	lo, hi := storage.RecordRange(t.meta.ID)
	return e.lockLast(&t.alive.seq, lo, hi, storage.RecordFloorKey(t.meta.ID))
}

// lockLast locks a numbering, reading its last number from the last key
// in [lo, hi) the first time, or from the floor a trim left at floorKey
// when it deleted every key (read on a shared store only: alone, the
// numbering was loaded before any trim).
func (e *Engine) lockLast(s *streamSeq, lo, hi, floorKey []byte) (*streamSeq, error) {
	s.Lock()
	if s.loaded {
		return s, nil
	}
	last, err := e.lastNumber(lo, hi, floorKey)
	if err != nil {
		s.Unlock()
		return nil, err
	}
	// A shared store's guard (guardSeq) needs the stored last number
	// exactly; alone, numbers only grow, past any a failed commit took.
	if e.db.Shared() || last > s.seq {
		s.seq = last
	}
	s.loaded = true
	return s, nil
}

// stampStreams fixes the record numbers at which streams opened or closed
// by this definition change begin and end. publish calls it while no write
// of the table is in flight.
func (e *Engine) stampStreams(t *table, m *tableMeta) error {
	if len(m.Streams) == 0 {
		return nil
	}
	s, err := e.lockSeq(t)
	if err != nil {
		return err
	}
	defer s.Unlock()
	m.Streams = slices.Clone(m.Streams)
	for i := range m.Streams {
		st := &m.Streams[i]
		if !st.Stamped {
			st.Start, st.Stamped = s.seq, true
		}
		if st.Closed != 0 && st.End == 0 {
			st.End = s.seq
		}
	}
	return nil
}

// record is a stored stream record: what changed, as the stream's view
// type keeps it.
type record struct {
	Event string    `json:"e"` // INSERT, MODIFY or REMOVE
	Keys  attr.Item `json:"k"`
	Old   attr.Item `json:"o,omitempty"`
	New   attr.Item `json:"n,omitempty"`
	At    int64     `json:"t"` // Unix ms
	Size  int       `json:"s"`
	TTL   bool      `json:"x,omitempty"` // deleted by the TTL sweeper
}

// addRecords numbers and adds the stream records of ws to b, locking each
// streamed table's numbering (in table-id order, as holdTables locks) and
// appending it to locked, which the caller unlocks (unlockSeqs) once the
// batch is applied (applyBatch). held is the tables of ws, their
// lifecycle locks held. On error nothing stays locked.
func (e *Engine) addRecords(locked []*streamSeq, b *storage.Batch, ws []write, held []*lifecycle) ([]*streamSeq, error) {
	for _, l := range held {
		t := l.current.Load()
		if t.meta.openStream() == nil {
			continue // a table without a stream costs nothing here
		}
		s, err := e.lockSeq(t)
		if err != nil {
			unlockSeqs(locked)
			return nil, err
		}
		locked = append(locked, s)
		if e.db.Shared() {
			guardSeq(b, t.meta.ID, s.seq)
		}
		e.appendRecords(b, t, s, ws)
	}
	return locked, nil
}

// lastNumber is the number of the last key in [lo, hi), or the floor.
func (e *Engine) lastNumber(lo, hi, floorKey []byte) (uint64, error) {
	var last uint64
	err := e.db.ScanReverse(lo, hi, func(k, _ []byte) bool {
		last = storage.RecordSeq(k)
		return false
	})
	if err != nil || last > 0 || !e.db.Shared() {
		return last, err
	}
	v, ok, err := e.db.Get(floorKey)
	if err != nil || !ok || len(v) != 8 {
		return 0, err
	}
	return binary.BigEndian.Uint64(v), nil
}

// guardSeq makes b commit only if the stream's last record is still
// seq's (none: 0), so that two nodes never number records alike.
func guardSeq(b *storage.Batch, table, seq uint64) {
	lo, hi := storage.RecordRange(table)
	var last []byte
	if seq > 0 {
		last = storage.RecordKey(table, seq)
	}
	b.GuardLast(lo, hi, last)
}

// forgetSeqs makes the numberings of a failed commit read their last
// number from the store again: another node may have written since,
// and this commit's numbers were never used.
func forgetSeqs(locked []*streamSeq) {
	for _, s := range locked {
		s.loaded = false
	}
}

func unlockSeqs(locked []*streamSeq) {
	for _, s := range locked {
		s.Unlock()
	}
}

// recordBufs recycles the buffer records are written in: the batch keeps
// a copy.
var recordBufs = sync.Pool{New: func() any { return new([]byte) }}

func (e *Engine) appendRecords(b *storage.Batch, t *table, s *streamSeq, ws []write) {
	view := t.meta.openStream().View
	now := e.now()
	p := recordBufs.Get().(*[]byte)
	defer recordBufs.Put(p)
	buf := *p
	defer func() { *p = buf[:0] }()
	for i := range ws {
		if ws[i].checkOnly || ws[i].t.meta.ID != t.meta.ID {
			continue
		}
		var ok bool
		if buf, ok = appendRecord(buf[:0], t, &ws[i], view, now); !ok {
			continue
		}
		s.seq++
		b.Set(storage.RecordKey(t.meta.ID, s.seq), buf) // Set copies buf
	}
}

// trimStreams deletes, in each table, the stream records older than the
// retention period; reads already skip them, this frees their space.
func (e *Engine) trimStreams() error {
	oldest := e.now().Add(-streamRetention).UnixMilli()
	for _, name := range e.tableNames() {
		t := e.lookup(name)
		if t == nil || len(t.meta.Streams) == 0 {
			continue
		}
		if err := e.trimTable(t, oldest); err != nil {
			return err
		}
	}
	return nil
}

func (e *Engine) trimTable(t *table, oldest int64) error {
	lo, hi := storage.RecordRange(t.meta.ID)
	var end []byte
	err := e.db.Scan(lo, hi, func(k, v []byte) bool {
		var r record
		if json.Unmarshal(v, &r) != nil || r.At >= oldest {
			return false
		}
		end = append(end[:0], k...)
		return true
	})
	if err != nil || end == nil {
		return err
	}
	b := e.db.NewBatch()
	b.DeleteRange(lo, append(end, 0))
	b.Set(storage.RecordFloorKey(t.meta.ID), binary.BigEndian.AppendUint64(nil, storage.RecordSeq(end)))
	return b.CommitNoSync()
}
