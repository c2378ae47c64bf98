package engine

import (
	"errors"
	"log/slog"
	"strconv"
	"time"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/storage"
)

// Expired items are deleted by a sweeper through the ordinary write path,
// so their index entries go in the same batch and streams record the
// deletion (as the TTL service's). An item is expired when its TTL
// attribute is a Number of epoch seconds before now, but not more than
// five years before: DynamoDB ignores those. Until the sweeper reaches an
// item it stays readable, as in DynamoDB.

// maxTTLAge is how far in the past a TTL value may be and still expire.
const maxTTLAge = 5 * 365 * 24 * time.Hour

// sweepBudget bounds the items one background sweep reads, so a large table
// is swept over several intervals instead of in one long pass.
const sweepBudget = 20_000

// DefaultTTLInterval is how often the background sweeper runs: often, so
// that local tests see expired items go quickly.
const DefaultTTLInterval = 2 * time.Second

func ttlExpired(it attr.Item, name string, now time.Time) bool {
	v, ok := it[name]
	if !ok || v.N == nil {
		return false
	}
	sec, err := strconv.ParseFloat(*v.N, 64)
	nowSec := float64(now.UnixMilli()) / 1000
	return err == nil && sec < nowSec && sec >= nowSec-maxTTLAge.Seconds()
}

// SweepExpired deletes every expired item of every table with TTL enabled,
// now, and returns how many it deleted. Tests call it after moving the
// injected clock; the background sweeper does the same work in steps.
func (e *Engine) SweepExpired() (int, error) {
	total := 0
	for _, t := range e.ttlTables() {
		n, _, err := e.sweepTable(t, nil, -1)
		total += n
		if err != nil {
			return total, err
		}
	}
	e.lastSweep.Store(e.now().UnixMilli())
	return total, nil
}

// ttlTables lists the tables whose TTL is enabled.
func (e *Engine) ttlTables() []*table {
	e.mu.RLock()
	defer e.mu.RUnlock()
	var out []*table
	for _, t := range e.tables {
		if t.meta.TTL != nil && t.meta.TTL.Enabled {
			out = append(out, t)
		}
	}
	return out
}

// sweepTable deletes the expired items among up to budget items (all when
// budget < 0) from key from on, returning where to go on (nil at the end).
func (e *Engine) sweepTable(t *table, from []byte, budget int) (deleted int, next []byte, err error) {
	lo := storage.ItemPrefix(t.meta.ID, 0)
	hi := storage.PrefixEnd(lo)
	if from != nil {
		lo = from
	}
	for budget != 0 {
		now := e.now()
		keys, last, err := e.expiredKeys(lo, hi, t.meta.TTL.Attr, now, &budget)
		if err != nil {
			return deleted, nil, err
		}
		for _, k := range keys {
			if err := e.expire(t, k, now); err != nil {
				return deleted, nil, err
			}
			deleted++
		}
		if last == nil {
			return deleted, nil, nil
		}
		lo = append(last, 0)
	}
	return deleted, lo, nil
}

// expiredKeys reads a page of items from [lo, hi) and returns the keys of
// the expired ones, and the last key read (nil when the range is done).
func (e *Engine) expiredKeys(lo, hi []byte, name string, now time.Time, budget *int) (keys [][]byte, last []byte, err error) {
	n := 0
	var bad error
	err = e.db.Scan(lo, hi, func(k, v []byte) bool {
		it, derr := attr.DecodeItem(v)
		if bad = derr; derr != nil {
			return false
		}
		if ttlExpired(it, name, now) {
			keys = append(keys, append([]byte(nil), k...))
		}
		last = append(last[:0], k...)
		n++
		*budget--
		return n < backfillPage && *budget != 0
	})
	if err == nil {
		err = bad
	}
	if n < backfillPage && *budget != 0 {
		last = nil // the range is exhausted
	}
	return keys, last, err
}

// expire deletes the item at k if, under its lock, it is still expired.
func (e *Engine) expire(t *table, k []byte, now time.Time) error {
	key := itemKey{storage: k, hash: stripeOf(k)}
	unlock := e.locks.lock(key.hash)
	defer unlock()
	old, mark, err := e.readForWrite(key)
	cur := t.alive.current.Load()
	if err != nil || old == nil || cur.meta.TTL == nil || !cur.meta.TTL.Enabled || !ttlExpired(old, cur.meta.TTL.Attr, now) {
		return err
	}
	err = e.commit(write{t: t, key: key, old: old, byTTL: true, read: mark})
	if errors.Is(err, storage.ErrConflict) {
		return nil // another node wrote the item meanwhile: the next sweep looks again
	}
	if err != nil {
		return err
	}
	t.alive.ttlDeleted.Add(1)
	return nil
}

// sweepLoop runs the background sweeper until Close, resuming each table
// where the last sweep's budget ran out.
func (e *Engine) sweepLoop(interval time.Duration) {
	defer e.sweeping.Done()
	tick := time.NewTicker(interval)
	defer tick.Stop()
	cursors := map[uint64][]byte{}
	for {
		select {
		case <-e.closing:
			return
		case <-tick.C:
			e.sweepStep(cursors)
		}
	}
}

func (e *Engine) sweepStep(cursors map[uint64][]byte) {
	if !e.db.Leader() {
		return // another node sweeps, trims and counts
	}
	if err := e.trimStreams(); err != nil {
		slog.Error("stream trim failed; it is retried at the next interval", "err", err)
	}
	if err := e.trimHistory(); err != nil {
		slog.Error("history trim failed; it is retried at the next interval", "err", err)
	}
	done := true // every table swept to its end without an error
	for _, t := range e.ttlTables() {
		_, next, err := e.sweepTable(t, cursors[t.meta.ID], sweepBudget)
		if err != nil {
			slog.Error("TTL sweep failed; it is retried at the next interval", "table", t.meta.Desc.TableName, "err", err)
		}
		cursors[t.meta.ID] = next
		done = done && err == nil && next == nil
	}
	if done {
		e.lastSweep.Store(e.now().UnixMilli())
	}
}

// TimeMoved does at once what the background sweeper does at its next
// interval, for a clock that has just jumped ahead: it trims the stream
// records past retention and deletes every expired item, so the new time
// is visible when the jump returns.
func (e *Engine) TimeMoved() error {
	if err := errors.Join(e.trimStreams(), e.trimHistory()); err != nil {
		return err
	}
	_, err := e.SweepExpired()
	return err
}
