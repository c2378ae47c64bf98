package engine

import (
	"errors"
	"math/rand/v2"
	"time"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/storage"
)

// On a store other processes write too (PostgreSQL shared by several
// nodes), this process's item locks order its own writers only. So each
// write's commit is guarded by what it read (storage.Guard): the item,
// the table's definition, a stream's last record, a transaction's token.
// When another node changed one of them in between, the commit writes
// nothing and the write runs again from its read, as if it had arrived
// a moment later. On Pebble none of this costs anything: readMark is
// empty and guards are not kept.

// readMark is what a writer read at an item's key, for its guard.
type readMark struct {
	ok, found bool
	raw       []byte
}

// readForWrite is readItem for a writer: with the mark of what it read.
func (e *Engine) readForWrite(k itemKey) (attr.Item, readMark, error) {
	v, found, err := e.db.Get(k.storage)
	if err != nil {
		return nil, readMark{}, err
	}
	m := readMark{ok: e.db.Shared(), found: found}
	if m.ok {
		m.raw = v // a copy of the stored value (DB.Get)
	}
	if !found {
		return nil, m, nil
	}
	it, err := attr.DecodeItem(v)
	return it, m, err
}

// guard adds the mark's condition to b.
func (m *readMark) guard(b *storage.Batch, key []byte) {
	if m.ok {
		b.Guard(key, m.found, m.raw)
	}
}

// conflictTries bounds how often one write runs again after losing to
// other nodes; each try reads what the winner wrote, so losing that often
// takes that many other writes of the same item meanwhile.
const conflictTries = 100

// retryStale runs fn, and again while its commit lost to another node's.
func (e *Engine) retryStale(fn func() error) error {
	for try := 1; ; try++ {
		if err := fn(); !e.again(err, try) {
			return err
		}
	}
}

// again reports whether a write whose try number try ended in err runs
// again: its commit lost to another node's, fewer than conflictTries
// times. A definition that went stale is read again first. Hot paths
// loop on it themselves, since a closure for retryStale costs them an
// allocation.
func (e *Engine) again(err error, try int) bool {
	if err == nil || try >= conflictTries || !errors.Is(err, storage.ErrConflict) {
		return false
	}
	if errors.Is(err, storage.ErrStaleShared) && e.refreshCatalog() != nil {
		return false
	}
	pauseBeforeRetry(try)
	return true
}

// pauseBeforeRetry spreads the losers of a hot item apart: up to a
// millisecond at first, growing to 20.
func pauseBeforeRetry(try int) {
	d := time.Duration(min(try, 20)) * time.Millisecond
	time.Sleep(rand.N(d) + time.Microsecond)
}
