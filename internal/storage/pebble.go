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

// pebbleStore is the embedded store: Pebble on disk, or on Pebble's
// in-memory filesystem, one code path for both.
type pebbleStore struct {
	pdb    *pebble.DB
	stalls *stalls // metrics.go
	// durable is how a commit is acknowledged: synced to the WAL on disk;
	// in memory, where there is no WAL (nothing outlives the process),
	// once applied.
	durable *pebble.WriteOptions
}

func openPebble(opts Options) (*pebbleStore, error) {
	fs, dir, err := filesystem(opts)
	if err != nil {
		return nil, err
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
	return &pebbleStore{pdb: pdb, stalls: st, durable: commitMode(opts.InMemory)}, nil
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

// close flushes nothing extra (every commit was synced) and releases the lock.
func (s *pebbleStore) close() error { return s.pdb.Close() }

func (s *pebbleStore) settle() error {
	if err := s.pdb.Flush(); err != nil {
		return err
	}
	return s.pdb.Compact([]byte{0}, []byte{0xff}, true)
}

func (s *pebbleStore) closedErr(p any) bool {
	err, ok := p.(error)
	return ok && errors.Is(err, pebble.ErrClosed)
}

func (s *pebbleStore) view(key []byte, fn func(val []byte) error) (bool, error) {
	return view(s.pdb, key, fn)
}

func (s *pebbleStore) scan(lower, upper []byte, reverse bool, fn func(key, val []byte) bool) error {
	return scan(s.pdb, lower, upper, reverse, fn)
}

// pebbleSnapshot is a Pebble snapshot: a batch commits wholly before or
// wholly after it.
type pebbleSnapshot struct{ s *pebble.Snapshot }

func (s *pebbleStore) newSnapshot() (snapshotReader, error) {
	return pebbleSnapshot{s: s.pdb.NewSnapshot()}, nil
}

func (s pebbleSnapshot) view(key []byte, fn func(val []byte) error) (bool, error) {
	return view(s.s, key, fn)
}

func (s pebbleSnapshot) scan(lower, upper []byte, reverse bool, fn func(key, val []byte) bool) error {
	return scan(s.s, lower, upper, reverse, fn)
}

func (s pebbleSnapshot) close() error { return s.s.Close() }

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

// getPebble is get without the reader interface, whose callback escapes.
func getPebble(r pebble.Reader, key []byte) (val []byte, ok bool, err error) {
	ok, err = view(r, key, func(v []byte) error {
		val = append([]byte(nil), v...)
		return nil
	})
	return val, ok, err
}

func scan(r pebble.Reader, lower, upper []byte, reverse bool, fn func(key, val []byte) bool) error {
	it, err := r.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: upper})
	if err != nil {
		return err
	}
	first, next := it.First, it.Next
	if reverse {
		first, next = it.Last, it.Prev
	}
	for ok := first(); ok && fn(it.Key(), it.Value()); ok = next() {
	}
	return closeBoth(it.Error(), it)
}

func closeBoth(err error, c io.Closer) error {
	if cerr := c.Close(); err == nil {
		err = cerr
	}
	return err
}

// pebbleBatch is a Pebble batch.
type pebbleBatch struct {
	b       *pebble.Batch
	s       *pebbleStore
	applied bool // by apply, to be waited for by wait
}

func (s *pebbleStore) newBatch() batchWriter { return &pebbleBatch{b: s.pdb.NewBatch(), s: s} }

func (b *pebbleBatch) set(key, val []byte)       { _ = b.b.Set(key, val, nil) }
func (b *pebbleBatch) delete(key []byte)         { _ = b.b.Delete(key, nil) }
func (b *pebbleBatch) deleteRange(lo, hi []byte) { _ = b.b.DeleteRange(lo, hi, nil) }
func (b *pebbleBatch) empty() bool               { return b.b.Empty() }

func (b *pebbleBatch) written(fn func(key []byte)) {
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

func (b *pebbleBatch) commit() error {
	defer b.b.Close()
	return b.b.Commit(b.s.durable)
}

// apply holds a writer that must keep its commits in some order of its
// own (stream records) only across the apply, so that concurrent writers
// still share the WAL sync wait waits for.
func (b *pebbleBatch) apply() error {
	if b.s.durable == pebble.NoSync || b.b.Empty() {
		return b.commit()
	}
	// Pebble fails an apply only when the WAL or the memtable refused the
	// batch; no sync is then coming for wait to wait for.
	err := b.s.pdb.ApplyNoSyncWait(b.b, b.s.durable)
	if err != nil {
		_ = b.b.Close()
	}
	b.applied = err == nil
	return err
}

func (b *pebbleBatch) wait() error {
	if !b.applied {
		return nil
	}
	defer b.b.Close()
	return b.b.SyncWait()
}

// commitNoSync is durable with the next synced commit, since the WAL is
// written in order.
func (b *pebbleBatch) commitNoSync() error {
	defer b.b.Close()
	return b.b.Commit(pebble.NoSync)
}

func (b *pebbleBatch) discard() { _ = b.b.Close() }

type quietLogger struct{}

func (quietLogger) Infof(string, ...any) {}
func (quietLogger) Errorf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "pebble: "+format+"\n", args...)
}
func (quietLogger) Fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "pebble: fatal: "+format+"\n", args...)
	os.Exit(1)
}
