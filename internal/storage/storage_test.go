package storage

import (
	"errors"
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
