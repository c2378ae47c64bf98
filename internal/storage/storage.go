package storage

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/cockroachdb/pebble"
	"github.com/cockroachdb/pebble/bloom"
	"github.com/cockroachdb/pebble/vfs"
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
}

// DB is an open store.
type DB struct {
	pdb    *pebble.DB
	stalls *stalls // metrics.go
	// durable is how a commit is acknowledged: synced to the WAL on disk;
	// in memory, where there is no WAL (nothing outlives the process),
	// once applied.
	durable *pebble.WriteOptions
}

// ErrLocked is returned when another process has the data directory open.
var ErrLocked = errors.New("storage: data directory is in use by another process")

// Open opens or creates the store.
func Open(opts Options) (*DB, error) {
	fs, dir, err := filesystem(opts)
	if err != nil {
		return nil, err
	}
	if opts.CacheSize < 0 {
		return nil, fmt.Errorf(msgCacheSize, opts.CacheSize)
	}
	po := pebbleOptions(fs, cmp.Or(opts.CacheSize, DefaultCacheSize))
	po.DisableWAL = opts.InMemory
	st := &stalls{}
	po.EventListener = st.listener()
	pdb, err := pebble.Open(dir, po)
	po.Cache.Unref() // the DB holds its own reference
	if err != nil {
		return nil, explainOpen(dir, err)
	}
	return &DB{pdb: pdb, stalls: st, durable: commitMode(opts.InMemory)}, nil
}

// commitMode is how Commit writes a batch. In memory a write-ahead log
// would only be copied into memory and handed to its writer goroutine to
// "sync", which cost every commit a goroutine switch and ~10% of a
// PutItem's CPU; nothing survives the process, so there is nothing for a
// log to recover.
func commitMode(inMemory bool) *pebble.WriteOptions {
	if inMemory {
		return pebble.NoSync
	}
	return pebble.Sync
}

// DefaultCacheSize is Pebble's block cache unless Options say otherwise.
// Pebble's default of 8 MB held too little of a table loaded with a few
// hundred thousand items: point reads missed it, and paid a block read and
// checksum each.
const DefaultCacheSize = 32 << 20

const msgCacheSize = "storage: cache size %d is negative"

// pebbleOptions tunes Pebble for item reads and writes. Every write first
// reads the item it replaces, usually a missing key, so every level gets a
// Bloom filter: a point read then skips the tables that cannot hold its
// key instead of reading and decompressing a block of each. (Turning off
// compression and the WAL in memory were measured too: neither helped.)
func pebbleOptions(fs vfs.FS, cacheSize int64) *pebble.Options {
	// One LevelOptions applies to every level, as Pebble's default does.
	level := pebble.LevelOptions{FilterPolicy: bloom.FilterPolicy(10)}
	return &pebble.Options{
		FS: fs, Merger: statsMerger, Logger: quietLogger{},
		Levels: []pebble.LevelOptions{level},
		Cache:  pebble.NewCache(cacheSize),
	}
}

func filesystem(opts Options) (vfs.FS, string, error) {
	if opts.InMemory {
		return vfs.NewMem(), "sortkey", nil
	}
	if opts.Dir == "" {
		return nil, "", errors.New("storage: no data directory given")
	}
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return nil, "", err
	}
	return vfs.Default, filepath.Clean(opts.Dir), nil
}

// explainOpen turns Pebble's lock failure into ErrLocked: the raw error
// mentions a LOCK file and errno, which tells a user little.
func explainOpen(dir string, err error) error {
	if isLockErr(err) {
		return fmt.Errorf("%w: %s", ErrLocked, dir)
	}
	return fmt.Errorf("storage: open %s: %w", dir, err)
}

// Close flushes nothing extra (every commit was synced) and releases the lock.
func (db *DB) Close() error { return db.pdb.Close() }

// Get returns a copy of the value at key, or ok=false when there is none.
func (db *DB) Get(key []byte) (val []byte, ok bool, err error) {
	return get(db.pdb, key)
}

// Settle flushes the memtable and compacts the whole key space, leaving
// the store as a long-running one would be after a bulk load. Benchmarks
// call it so that they measure that state, not compactions in progress.
func (db *DB) Settle() error {
	if err := db.pdb.Flush(); err != nil {
		return err
	}
	return db.pdb.Compact([]byte{0}, []byte{0xff}, true)
}

// Snapshot is a consistent view of the store at one moment: a batch
// commits wholly before or wholly after it.
type Snapshot struct{ s *pebble.Snapshot }

// NewSnapshot takes a snapshot; Close it when done.
func (db *DB) NewSnapshot() *Snapshot { return &Snapshot{s: db.pdb.NewSnapshot()} }

// Get is DB.Get as of the snapshot.
func (s *Snapshot) Get(key []byte) (val []byte, ok bool, err error) { return get(s.s, key) }

// Close releases the snapshot.
func (s *Snapshot) Close() error { return s.s.Close() }

// View calls fn with the value at key, valid only during the call, and
// reports whether there was one: a reader that turns the value into
// something else (an answer's JSON) saves Get's copy.
func (db *DB) View(key []byte, fn func(val []byte) error) (ok bool, err error) {
	return view(db.pdb, key, fn)
}

func view(r pebble.Reader, key []byte, fn func(val []byte) error) (ok bool, err error) {
	v, closer, err := r.Get(key)
	if errors.Is(err, pebble.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer closer.Close()
	return true, fn(v)
}

func get(r pebble.Reader, key []byte) (val []byte, ok bool, err error) {
	ok, err = view(r, key, func(v []byte) error {
		val = append([]byte(nil), v...)
		return nil
	})
	return val, ok, err
}

// Scan is DB.Scan over the snapshot: the keys as they were when it was taken.
func (s *Snapshot) Scan(lower, upper []byte, fn func(key, val []byte) bool) error {
	return scan(s.s, lower, upper, fn)
}

// Scan calls fn for every key in [lower, upper) in key order until fn
// returns false. The slices passed to fn are valid only during the call.
func (db *DB) Scan(lower, upper []byte, fn func(key, val []byte) bool) error {
	return scan(db.pdb, lower, upper, fn)
}

func scan(r pebble.Reader, lower, upper []byte, fn func(key, val []byte) bool) error {
	it, err := r.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: upper})
	if err != nil {
		return err
	}
	for ok := it.First(); ok && fn(it.Key(), it.Value()); ok = it.Next() {
	}
	return closeBoth(it.Error(), it)
}

// ScanReverse is Scan from the last key down to the first.
func (db *DB) ScanReverse(lower, upper []byte, fn func(key, val []byte) bool) error {
	it, err := db.pdb.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: upper})
	if err != nil {
		return err
	}
	for ok := it.Last(); ok && fn(it.Key(), it.Value()); ok = it.Prev() {
	}
	return closeBoth(it.Error(), it)
}

func closeBoth(err error, c io.Closer) error {
	if cerr := c.Close(); err == nil {
		err = cerr
	}
	return err
}

// Batch collects writes that commit together or not at all.
type Batch struct {
	b       *pebble.Batch
	db      *DB
	applied bool // by Apply, to be waited for by Wait
}

// NewBatch starts an empty batch.
func (db *DB) NewBatch() *Batch { return &Batch{b: db.pdb.NewBatch(), db: db} }

func (b *Batch) Set(key, val []byte)       { _ = b.b.Set(key, val, nil) }
func (b *Batch) Delete(key []byte)         { _ = b.b.Delete(key, nil) }
func (b *Batch) DeleteRange(lo, hi []byte) { _ = b.b.DeleteRange(lo, hi, nil) }
func (b *Batch) merge(key, val []byte)     { _ = b.b.Merge(key, val, nil) }

// Written calls fn with every key the batch sets or deletes, in the
// order they were added; merges and range deletions are left out. key is
// valid only during the call.
func (b *Batch) Written(fn func(key []byte)) {
	r := b.b.Reader()
	for {
		kind, key, _, ok, err := r.Next()
		if !ok || err != nil {
			return
		}
		if kind == pebble.InternalKeyKindSet || kind == pebble.InternalKeyKindDelete {
			fn(key)
		}
	}
}

// Commit writes the batch durably: on disk it returns only after the WAL
// is synced.
func (b *Batch) Commit() error {
	defer b.b.Close()
	return b.b.Commit(b.db.durable)
}

// Apply is the first half of Commit: the batch is applied, in commit
// order and visible to readers, but on disk not yet synced. Wait is the
// second half, and must follow, whatever Apply returned. A writer that
// must keep its commits in some order of its own (stream records) holds
// its lock across Apply only, so that concurrent writers still share the
// WAL sync Wait waits for.
func (b *Batch) Apply() error {
	if b.db.durable == pebble.NoSync || b.b.Empty() {
		return b.Commit()
	}
	// Pebble fails an apply only when the WAL or the memtable refused the
	// batch; no sync is then coming for Wait to wait for.
	err := b.db.pdb.ApplyNoSyncWait(b.b, b.db.durable)
	if err != nil {
		_ = b.b.Close()
	}
	b.applied = err == nil
	return err
}

// Wait returns once the batch Apply applied is durable, and releases it.
func (b *Batch) Wait() error {
	if !b.applied {
		return nil
	}
	defer b.b.Close()
	return b.b.SyncWait()
}

// CommitNoSync writes the batch without waiting for the WAL sync. It is
// for work that can be redone after a crash (an index backfill); the next
// synced commit makes it durable, since the WAL is written in order.
func (b *Batch) CommitNoSync() error {
	defer b.b.Close()
	return b.b.Commit(pebble.NoSync)
}

// Discard abandons the batch.
func (b *Batch) Discard() { _ = b.b.Close() }

type quietLogger struct{}

func (quietLogger) Infof(string, ...any) {}
func (quietLogger) Errorf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "pebble: "+format+"\n", args...)
}
func (quietLogger) Fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "pebble: fatal: "+format+"\n", args...)
	os.Exit(1)
}
