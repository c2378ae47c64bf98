package engine

import (
	"bytes"
	"slices"
	"time"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/lag"
	"github.com/sortkeydb/sortkey/internal/storage"
)

// DefaultLagBudget is how many bytes of previous versions index lag and
// stale reads hold at most (Options.LagBudget).
const DefaultLagBudget = 64 << 20

// lagging is index lag and stale reads when on: the recent changes, and
// how far behind each kind of read is.
type lagging struct {
	log   *lag.Log
	index time.Duration // Options.IndexLag
	stale time.Duration // Options.StaleReads
}

// newLagging is nil, costing reads one branch, unless a lag is set.
func newLagging(opts Options) *lagging {
	if opts.IndexLag <= 0 && opts.StaleReads <= 0 {
		return nil
	}
	l := &lagging{index: max(opts.IndexLag, 0), stale: max(opts.StaleReads, 0)}
	budget := opts.LagBudget
	if budget <= 0 {
		budget = DefaultLagBudget
	}
	l.log = lag.New(max(l.index, l.stale), budget, storage.IndexPrefixLen, storage.PartitionPrefixLen)
	return l
}

// behind is how far behind the present a read sees: a global secondary
// index by its propagation lag, never less than any eventually consistent
// read; the table and local indexes by the stale-read window unless the
// read is strongly consistent.
func (l *lagging) behind(ix *indexSchema, consistent bool) time.Duration {
	switch {
	case ix != nil && ix.global:
		return max(l.index, l.stale)
	case consistent:
		return 0
	}
	return l.stale
}

// asOf is the time a read sees the data as of; zero means the present,
// which it always is with lag off.
func (e *Engine) asOf(ix *indexSchema, consistent bool) time.Time {
	if e.lag == nil {
		return time.Time{}
	}
	d := e.lag.behind(ix, consistent)
	if d == 0 {
		return time.Time{}
	}
	return e.now().Add(-d)
}

// recordLag notes every item and index entry b is about to change, with
// its value now, before b commits: a reader that meets the record before
// the commit substitutes the value it would read anyway. The caller holds
// every item's lock, so the values stay current until the commit.
func (e *Engine) recordLag(b *storage.Batch) error {
	at := e.now()
	var err error
	b.Written(func(key []byte) {
		if err != nil || !storage.IsEntryKey(key) {
			return
		}
		var prev []byte
		var ok bool
		if prev, ok, err = e.db.Get(key); err == nil {
			e.lag.log.Record(at, key, prev, ok)
		}
	})
	return err
}

// readItemAt is readItem as of asOf (see Engine.asOf).
func (e *Engine) readItemAt(k itemKey, asOf time.Time) (attr.Item, error) {
	if !asOf.IsZero() {
		if v, present, changed := e.lag.log.At(k.storage, asOf); changed {
			return decodeIfPresent(v, present)
		}
	}
	return e.readItem(k)
}

func decodeIfPresent(v []byte, present bool) (attr.Item, error) {
	if !present {
		return nil, nil
	}
	return attr.DecodeItem(v)
}

// viewAt is storage's View as of asOf.
func (e *Engine) viewAt(key []byte, asOf time.Time, fn func(v []byte) error) (bool, error) {
	if !asOf.IsZero() {
		if v, present, changed := e.lag.log.At(key, asOf); changed {
			if !present {
				return false, nil
			}
			return true, fn(v)
		}
	}
	return e.db.View(key, fn)
}

// scanPlan calls visit for each item or entry of the plan's range, in its
// order, as of the plan's asOf, until visit returns false.
func (e *Engine) scanPlan(p *readPlan, visit func(k, v []byte) bool) error {
	scan := e.db.Scan
	if p.reverse {
		scan = e.db.ScanReverse
	}
	if p.asOf.IsZero() {
		return scan(p.lo, p.hi, visit)
	}
	olds := e.lag.log.Since(p.lo, p.hi, p.asOf)
	if len(olds) == 0 {
		return scan(p.lo, p.hi, visit)
	}
	if p.reverse {
		slices.Reverse(olds)
	}
	m := &merged{olds: olds, visit: visit, reverse: p.reverse}
	if err := scan(p.lo, p.hi, m.stored); err != nil {
		return err
	}
	m.rest()
	return nil
}

// merged walks what is stored and what changed since asOf together, in
// scan order: a key that changed reads as it was (or not at all, if it
// did not exist then), and a key deleted since reappears in its place.
type merged struct {
	olds    []lag.Old // in scan order
	visit   func(k, v []byte) bool
	reverse bool
	stopped bool // visit returned false
}

// stored handles one stored key, after any older key that sorts before it.
func (m *merged) stored(k, v []byte) bool {
	for len(m.olds) > 0 && m.before(m.olds[0].Key, k) {
		if !m.old() {
			return false
		}
	}
	if len(m.olds) > 0 && bytes.Equal(m.olds[0].Key, k) {
		return m.old()
	}
	return m.emit(k, v)
}

func (m *merged) before(a, k []byte) bool {
	c := bytes.Compare(a, k)
	return (c < 0 && !m.reverse) || (c > 0 && m.reverse)
}

// old visits the next older version, unless the key did not exist then.
func (m *merged) old() bool {
	o := m.olds[0]
	m.olds = m.olds[1:]
	if !o.Present {
		return true
	}
	return m.emit(o.Key, o.Val)
}

func (m *merged) emit(k, v []byte) bool {
	m.stopped = !m.visit(k, v)
	return !m.stopped
}

// rest visits the older versions past the last stored key.
func (m *merged) rest() {
	for len(m.olds) > 0 && !m.stopped {
		m.old()
	}
}
