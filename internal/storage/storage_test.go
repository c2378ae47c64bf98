package storage

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
)

func TestReopenKeepsDataAndStats(t *testing.T) {
	dir := t.TempDir()
	db := mustOpen(t, Options{Dir: dir})
	b := db.NewBatch()
	b.Set([]byte("k"), []byte("v"))
	b.AddStats(StatsKey(1, 0), Stats{Items: 2, Bytes: 10})
	b.AddStats(StatsKey(1, 0), Stats{Items: -1, Bytes: -3})
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = mustOpen(t, Options{Dir: dir})
	defer db.Close()
	v, ok, err := db.Get([]byte("k"))
	if err != nil || !ok || string(v) != "v" {
		t.Fatalf("after reopen: %q %v %v", v, ok, err)
	}
	s, err := db.ReadStats(StatsKey(1, 0))
	if err != nil || s != (Stats{Items: 1, Bytes: 7}) {
		t.Fatalf("stats after reopen: %+v %v", s, err)
	}
}

func TestSecondOpenOfDirIsRefused(t *testing.T) {
	if UnderTestStore() {
		t.Skip("a data directory's rule: under the test switch it is a PostgreSQL schema, which several processes share (pgstore's lease tests)")
	}
	dir := t.TempDir()
	db := mustOpen(t, Options{Dir: dir})
	defer db.Close()
	_, err := Open(Options{Dir: dir})
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("second open: %v, want ErrLocked", err)
	}
}

func TestScanIsBoundedAndOrdered(t *testing.T) {
	db := mustOpen(t, Options{InMemory: true})
	defer db.Close()
	b := db.NewBatch()
	for _, k := range []string{"a", "b2", "b1", "c"} {
		b.Set([]byte(k), nil)
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	var got []string
	err := db.Scan([]byte("b"), []byte("c"), func(k, _ []byte) bool {
		got = append(got, string(k))
		return true
	})
	if err != nil || len(got) != 2 || got[0] != "b1" || got[1] != "b2" {
		t.Fatalf("scan [b,c): %v %v", got, err)
	}
}

func mustOpen(t *testing.T, o Options) *DB {
	t.Helper()
	db, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// CacheSize bounds the block cache: after every block of a store several
// times its size has been read, the cache holds no more than it allows,
// while the default cache, larger than the store, holds more.
func TestCacheSizeBoundsTheBlockCache(t *testing.T) {
	skipUnlessPebble(t, "the block cache is Pebble's")
	const small = 4 << 20
	bounded := cacheAfterReadingAll(t, small)
	if bounded.CacheBytes > small || bounded.CacheBytes == 0 {
		t.Fatalf("with CacheSize %d the cache holds %d bytes", small, bounded.CacheBytes)
	}
	if def := cacheAfterReadingAll(t, 0); def.CacheBytes <= small {
		t.Fatalf("with the default cache size it holds %d bytes, no more than the bounded %d", def.CacheBytes, small)
	}
	t.Logf("cache after reading ~16 MiB of blocks: %d bytes with CacheSize 4 MiB (%d misses)", bounded.CacheBytes, bounded.CacheMisses)
}

func TestNegativeCacheSizeIsRefused(t *testing.T) {
	if _, err := Open(Options{InMemory: true, CacheSize: -1}); err == nil {
		t.Fatal("a negative cache size was accepted")
	}
}

// cacheAfterReadingAll writes about 16 MiB of incompressible values to a
// store with the cache size, flushes them to tables on disk and reads
// every key back.
func cacheAfterReadingAll(t *testing.T, cacheSize int64) Health {
	db := mustOpen(t, Options{Dir: t.TempDir(), CacheSize: cacheSize})
	defer db.Close()
	val := make([]byte, 1024)
	rng := rand.New(rand.NewPCG(1, 2))
	b := db.NewBatch()
	for i := range 16 << 10 {
		for j := range val {
			val[j] = byte(rng.Uint32())
		}
		b.Set(fmt.Appendf(nil, "k%06d", i), val)
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := db.Settle(); err != nil {
		t.Fatal(err)
	}
	for i := range 16 << 10 {
		if _, ok, err := db.Get(fmt.Appendf(nil, "k%06d", i)); !ok || err != nil {
			t.Fatalf("k%06d: %v %v", i, ok, err)
		}
	}
	return db.Health()
}

// TestApplyThenWaitIsVisibleThenDurable: a batch Apply applied is visible
// at once, and once Wait returns it survives a reopen, on disk; in memory,
// where there is no WAL, both halves still succeed.
func TestApplyThenWaitIsVisibleThenDurable(t *testing.T) {
	dir := t.TempDir()
	for _, opts := range []Options{{InMemory: true}, {Dir: dir}} {
		db := mustOpen(t, opts)
		b := db.NewBatch()
		b.Set([]byte("k"), []byte("v"))
		if err := b.Apply(); err != nil {
			t.Fatalf("%+v: apply: %v", opts, err)
		}
		if v, ok, err := db.Get([]byte("k")); err != nil || !ok || string(v) != "v" {
			t.Fatalf("%+v: after apply: %q %v %v", opts, v, ok, err)
		}
		if err := b.Wait(); err != nil {
			t.Fatalf("%+v: wait: %v", opts, err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
	db := mustOpen(t, Options{Dir: dir})
	defer db.Close()
	if v, ok, err := db.Get([]byte("k")); err != nil || !ok || string(v) != "v" {
		t.Fatalf("after reopen: %q %v %v", v, ok, err)
	}
}

// TestInMemoryCommitsAndSettles: without a WAL in memory, synced commits,
// a flush and a compaction all still work and keep the data.
func TestInMemoryCommitsAndSettles(t *testing.T) {
	db := mustOpen(t, Options{InMemory: true})
	defer db.Close()
	for i := range 100 {
		b := db.NewBatch()
		b.Set(fmt.Appendf(nil, "k%03d", i), []byte("v"))
		if err := b.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Settle(); err != nil {
		t.Fatal(err)
	}
	n := 0
	if err := db.Scan([]byte("k"), []byte("l"), func(_, _ []byte) bool { n++; return true }); err != nil || n != 100 {
		t.Fatalf("after settle: %d keys, %v", n, err)
	}
	if err := db.Probe(); err != nil {
		t.Fatal(err)
	}
}

// skipUnlessPebble skips a test of what only the Pebble store has, when
// the test switch runs the suite on PostgreSQL.
func skipUnlessPebble(t *testing.T, why string) {
	t.Helper()
	if UnderTestStore() {
		t.Skipf("%s; %s runs this suite on PostgreSQL", why, TestStoreEnv)
	}
}
