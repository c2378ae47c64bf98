package storage

import (
	"errors"
	"fmt"
)

// Options say where the store lives.
type Options struct {
	// Dir is the data directory; created if missing.
	Dir string
	// InMemory keeps everything on Pebble's in-memory filesystem; Dir is then
	// only a name.
	InMemory bool
	// CacheSize bounds Pebble's block cache, in bytes: the blocks of
	// tables on disk kept decompressed in memory. 0 means
	// DefaultCacheSize.
	CacheSize int64
	// URL, when set, keeps the data in PostgreSQL (or a PostgreSQL-wire
	// database) instead of Pebble: postgres://USER@HOST:PORT/DB?…, with
	// sortkey's own parameters beside libpq's (pg.go). Dir and InMemory
	// are then not used.
	URL string

	schema    string // overrides the URL's (testswitch.go)
	temporary bool   // drop the schema at Close (testswitch.go)
}

// DefaultCacheSize is Pebble's block cache unless Options say otherwise.
// Pebble's default of 8 MB held too little of a table loaded with a few
// hundred thousand items: point reads missed it, and paid a block read and
// checksum each.
const DefaultCacheSize = 32 << 20

const msgCacheSize = "storage: cache size %d is negative"

// DB is an open store. Its hot methods call the store's concrete type
// (peb or pg), not the backend interface: a callback passed to an
// interface method escapes to the heap, with every variable it captures,
// which cost a Pebble GetItem three allocations.
type DB struct {
	b   backend
	peb *pebbleStore // nil on PostgreSQL
	pg  *pgBackend   // nil on Pebble
}

// ErrLocked is returned when another process has the data directory open.
var ErrLocked = errors.New("storage: data directory is in use by another process")

// Open opens or creates the store: PostgreSQL when opts.URL is set (or
// the test switch, testswitch.go, says so), Pebble otherwise.
func Open(opts Options) (*DB, error) {
	if opts.CacheSize < 0 {
		return nil, fmt.Errorf(msgCacheSize, opts.CacheSize)
	}
	if opts.URL == "" {
		opts = underTestStore(opts)
	}
	if opts.URL != "" {
		b, err := openPG(opts)
		if err != nil {
			return nil, err
		}
		return &DB{b: b, pg: b}, nil
	}
	b, err := openPebble(opts)
	if err != nil {
		return nil, err
	}
	return &DB{b: b, peb: b}, nil
}

// Close releases the store; every commit was already durable.
func (db *DB) Close() error { return db.b.close() }

// Get returns a copy of the value at key, or ok=false when there is none.
func (db *DB) Get(key []byte) (val []byte, ok bool, err error) {
	if db.peb != nil {
		return getPebble(db.peb.pdb, key)
	}
	return get(db.b, key) // the callback is get's own: nothing of the caller's escapes
}

// View calls fn with the value at key, valid only during the call, and
// reports whether there was one: a reader that turns the value into
// something else (an answer's JSON) saves Get's copy.
func (db *DB) View(key []byte, fn func(val []byte) error) (ok bool, err error) {
	if db.peb != nil {
		return view(db.peb.pdb, key, fn)
	}
	return db.pg.view(key, fn)
}

func get(r reader, key []byte) (val []byte, ok bool, err error) {
	ok, err = r.view(key, func(v []byte) error {
		val = append([]byte(nil), v...)
		return nil
	})
	return val, ok, err
}

// Scan calls fn for every key in [lower, upper) in key order until fn
// returns false. The slices passed to fn are valid only during the call.
func (db *DB) Scan(lower, upper []byte, fn func(key, val []byte) bool) error {
	if db.peb != nil {
		return scan(db.peb.pdb, lower, upper, false, fn)
	}
	return db.pg.scan(lower, upper, false, fn)
}

// ScanReverse is Scan from the last key down to the first.
func (db *DB) ScanReverse(lower, upper []byte, fn func(key, val []byte) bool) error {
	if db.peb != nil {
		return scan(db.peb.pdb, lower, upper, true, fn)
	}
	return db.pg.scan(lower, upper, true, fn)
}

// Settle leaves the store as a long-running one would be after a bulk
// load (Pebble: flushed and compacted). Benchmarks call it so that they
// measure that state, not compactions in progress.
func (db *DB) Settle() error { return db.b.settle() }

// Health is the store's own account of how it is doing.
func (db *DB) Health() Health { return db.b.health() }

// Snapshot is a consistent view of the store at one moment: a batch
// commits wholly before or wholly after it.
type Snapshot struct{ r snapshotReader }

// NewSnapshot takes a snapshot; Close it when done.
func (db *DB) NewSnapshot() (*Snapshot, error) {
	r, err := db.b.newSnapshot()
	if err != nil {
		return nil, err
	}
	return &Snapshot{r: r}, nil
}

// Get is DB.Get as of the snapshot.
func (s *Snapshot) Get(key []byte) (val []byte, ok bool, err error) { return get(s.r, key) }

// Scan is DB.Scan over the snapshot: the keys as they were when it was taken.
func (s *Snapshot) Scan(lower, upper []byte, fn func(key, val []byte) bool) error {
	return s.r.scan(lower, upper, false, fn)
}

// Close releases the snapshot.
func (s *Snapshot) Close() error { return s.r.close() }

// Batch collects writes that commit together or not at all. A Pebble
// batch is held in pb, in the same allocation, and called directly (see
// DB); w is any other store's.
type Batch struct {
	pb pebbleBatch
	w  batchWriter
	// applied runs once the batch is applied (AfterApply).
	applied []func()
}

// AfterApply has fn run once the batch is applied, by the Apply or Commit
// that applies it, before that returns: for state outside the store that
// must follow what readers can see (an in-memory search index), changed
// in the writer's order, since the writer still holds its locks.
func (b *Batch) AfterApply(fn func()) { b.applied = append(b.applied, fn) }

// done runs the AfterApply functions when err is nil, and returns err.
func (b *Batch) done(err error) error {
	if err == nil {
		for _, fn := range b.applied {
			fn()
		}
	}
	b.applied = nil
	return err
}

// NewBatch starts an empty batch.
func (db *DB) NewBatch() *Batch {
	if db.peb != nil {
		return &Batch{pb: pebbleBatch{b: db.peb.pdb.NewBatch(), s: db.peb}}
	}
	return &Batch{w: db.b.newBatch()}
}

// writer is the batch's store: Pebble's, or the one in w.
func (b *Batch) writer() batchWriter {
	if b.w != nil {
		return b.w
	}
	return &b.pb
}

func (b *Batch) Set(key, val []byte) {
	if b.w == nil {
		b.pb.set(key, val)
		return
	}
	b.w.set(key, val)
}

func (b *Batch) Delete(key []byte) {
	if b.w == nil {
		b.pb.delete(key)
		return
	}
	b.w.delete(key)
}

func (b *Batch) DeleteRange(lo, hi []byte) { b.writer().deleteRange(lo, hi) }

// Written calls fn with every key the batch sets or deletes, in the
// order they were added; stats and range deletions are left out. key is
// valid only during the call.
func (b *Batch) Written(fn func(key []byte)) { b.writer().written(fn) }

// Commit writes the batch durably: on disk it returns only after the WAL
// is synced; on PostgreSQL, once its transaction has committed.
func (b *Batch) Commit() error { return b.done(b.writer().commit()) }

// Apply is the first half of Commit: the batch is applied, in commit
// order and visible to readers, but not necessarily durable yet. Wait is
// the second half, and must follow, whatever Apply returned. A writer
// that must keep its commits in some order of its own (stream records)
// holds its lock across Apply only, so that concurrent writers still
// share the sync Wait waits for.
func (b *Batch) Apply() error { return b.done(b.writer().apply()) }

// Wait returns once the batch Apply applied is durable, and releases it.
func (b *Batch) Wait() error { return b.writer().wait() }

// CommitNoSync writes the batch without waiting for it to be durable. It
// is for work that can be redone after a crash (an index backfill); the
// next commit makes it durable.
func (b *Batch) CommitNoSync() error { return b.done(b.writer().commitNoSync()) }

// Discard abandons the batch.
func (b *Batch) Discard() { b.writer().discard() }
