package storage

import (
	"errors"
	"fmt"

	"github.com/sortkeydb/sortkey/internal/storage/pgstore"
)

// On a store several processes share (PostgreSQL), a process's item
// locks and caches say nothing of the others' writes. A guard makes a
// batch commit only if what the caller read is still there; otherwise
// the commit writes nothing and answers ErrConflict, and the caller reads
// again. On Pebble, whose one process serialises its writers with its own
// locks, guards cost nothing and check nothing.

// ErrConflict is a commit's answer when a guarded read went stale.
var ErrConflict = errors.New("storage: a value read for this write was changed by another process")

// ErrStaleShared is the ErrConflict of a GuardShared value: a definition
// the caller should read again before it retries.
var ErrStaleShared = fmt.Errorf("%w (a shared definition)", ErrConflict)

// Shared reports whether other processes may write the store, so that
// writes must carry guards.
func (db *DB) Shared() bool { return db.pg != nil }

// Leader reports whether the work done once per store (sweeps, trims,
// backfills) is this process's: always on Pebble; on PostgreSQL, while it
// holds the schema's lease.
func (db *DB) Leader() bool { return db.pg == nil || db.pg.s.Leader() }

// Guard makes the batch commit only if key still holds val (found false:
// no value), under an exclusive lock on key for the commit.
func (b *Batch) Guard(key []byte, found bool, val []byte) { b.guard(key, found, val, false) }

// GuardShared is Guard under a shared lock: for a value many writers
// depend on and few change (a table's definition), whose changers
// guard it exclusively.
func (b *Batch) GuardShared(key []byte, found bool, val []byte) { b.guard(key, found, val, true) }

func (b *Batch) guard(key []byte, found bool, val []byte, shared bool) {
	if _, ok := b.w.(*pgBatch); !ok {
		return // no digest for Pebble, which checks nothing
	}
	digest := ""
	if found {
		digest = Digest(val)
	}
	b.guardDigest(key, digest, shared)
}

// GuardSharedDigest is GuardShared of a value the caller has digested
// once (Digest) for many batches: a table's definition.
func (b *Batch) GuardSharedDigest(key []byte, digest string) { b.guardDigest(key, digest, true) }

func (b *Batch) guardDigest(key []byte, digest string, shared bool) {
	if pb, ok := b.w.(*pgBatch); ok {
		pb.guards = append(pb.guards, pgstore.Guard{Key: clone(key), Want: digest, Shared: shared})
	}
}

// Digest is what a guard compares a value by ("" for no value is the
// caller's to choose by not calling it).
func Digest(val []byte) string { return pgstore.Digest(val) }

// GuardLast makes the batch commit only if no key in [lo, hi) comes
// after last (nil: the range is empty), under an exclusive lock on lo:
// a numbering's last number is still last, whatever was trimmed before
// it.
func (b *Batch) GuardLast(lo, hi, last []byte) {
	if pb, ok := b.w.(*pgBatch); ok {
		pb.guards = append(pb.guards, pgstore.Guard{Key: clone(lo), Hi: clone(hi), Last: clone(last)})
	}
}
