package pgstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"
)

// testURL is the PostgreSQL the tests use: the test switch's URL, which
// .ci/run sets to a throwaway cluster of its own.
func testURL(t *testing.T) string {
	t.Helper()
	url := os.Getenv("SORTKEY_TEST_STORE")
	if url == "" {
		t.Skip("needs a PostgreSQL: set SORTKEY_TEST_STORE to its postgres:// URL (.ci/run starts one and does)")
	}
	return url
}

func openTemp(t *testing.T) *Store {
	t.Helper()
	s, err := Open(context.Background(), Options{URL: testURL(t), Schema: fmt.Sprintf("pgstore_test_%d", os.Getpid()) + t.Name()[4:], Temporary: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func set(k, v string) Op { return Op{Kind: OpSet, Key: []byte(k), Val: []byte(v)} }

func keys(t *testing.T, s *Store, lo, hi string, reverse bool) string {
	t.Helper()
	var got []string
	var upper []byte
	if hi != "" {
		upper = []byte(hi)
	}
	if err := s.Scan([]byte(lo), upper, reverse, func(k, v []byte) bool {
		got = append(got, string(k)+"="+string(v))
		return true
	}); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(got)
}

// Keys order as unsigned bytes, both ways, across pages, with bounds.
func TestScanOrderAndPages(t *testing.T) {
	s := openTemp(t)
	var ops []Op
	for i := range 1000 {
		ops = append(ops, set(fmt.Sprintf("k%04d", i), fmt.Sprint(i)))
	}
	ops = append(ops, set("k\xff", "high"), set("k\x00", "low"), set("j", "before"), set("l", "after"))
	if err := s.Commit(ops); err != nil {
		t.Fatal(err)
	}
	var n int
	var prev []byte
	err := s.Scan([]byte("k"), []byte("l"), false, func(k, _ []byte) bool {
		if prev != nil && bytes.Compare(prev, k) >= 0 {
			t.Fatalf("%q after %q", k, prev)
		}
		prev, n = append(prev[:0], k...), n+1
		return true
	})
	if err != nil || n != 1002 {
		t.Fatalf("forward scan saw %d keys (%v), want 1002", n, err)
	}
	if got := keys(t, s, "k0998", "k1", false); got != "[k0998=998 k0999=999]" {
		t.Fatalf("bounded scan: %s", got)
	}
	if got := keys(t, s, "k0998", "k1", true); got != "[k0999=999 k0998=998]" {
		t.Fatalf("reverse scan: %s", got)
	}
	if got := keys(t, s, "k\xff", "", false); got != "[k\xff=high l=after]" {
		t.Fatalf("unbounded scan: %s", got)
	}
	n = 0
	_ = s.Scan([]byte("k"), []byte("l"), true, func(_, _ []byte) bool { n++; return n < 700 })
	if n != 700 {
		t.Fatalf("reverse scan stopped after %d keys, want 700", n)
	}
}

// A batch's later change of a key wins; a range deletion takes keys and
// stats; stats sum across batches and shards.
func TestBatchOrderRangesAndStats(t *testing.T) {
	s := openTemp(t)
	err := s.Commit([]Op{set("a", "1"), set("a", "2"), set("b", "x"), {Kind: OpDelete, Key: []byte("b")},
		{Kind: OpStats, Key: []byte("t1"), Items: 1, Bytes: 10}, {Kind: OpStats, Key: []byte("t1"), Items: 1, Bytes: 5}})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 40 {
		wg.Go(func() {
			if err := s.Commit([]Op{{Kind: OpStats, Key: []byte("t1"), Items: -1, Bytes: -1}}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if got := keys(t, s, "", "", false); got != "[a=2]" {
		t.Fatalf("after the batch: %s", got)
	}
	if items, bytes, err := s.ReadStats([]byte("t1")); items != -38 || bytes != -25 || err != nil {
		t.Fatalf("stats %d items %d bytes (%v), want -38, -25", items, bytes, err)
	}
	if err := s.Commit([]Op{{Kind: OpDeleteRange, Key: []byte("a"), Hi: []byte("u")}}); err != nil {
		t.Fatal(err)
	}
	if items, _, _ := s.ReadStats([]byte("t1")); items != 0 || keys(t, s, "", "", false) != "[]" {
		t.Fatalf("after the range deletion: %d items, keys %s", items, keys(t, s, "", "", false))
	}
}

// A snapshot sees the store as it was when taken, whatever commits later.
func TestSnapshotIsolation(t *testing.T) {
	s := openTemp(t)
	if err := s.Commit([]Op{set("a", "old")}); err != nil {
		t.Fatal(err)
	}
	sn, err := s.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	defer sn.Close()
	if err := s.Commit([]Op{set("a", "new"), set("b", "new")}); err != nil {
		t.Fatal(err)
	}
	var got string
	ok, err := sn.Get([]byte("a"), func(v []byte) error { got = string(v); return nil })
	if !ok || err != nil || got != "old" {
		t.Fatalf("snapshot read %q, %v, %v; want old", got, ok, err)
	}
	n := 0
	_ = sn.Scan([]byte(""), nil, false, func(_, _ []byte) bool { n++; return true })
	if n != 1 {
		t.Fatalf("snapshot scan saw %d keys, want 1", n)
	}
}

// A schema a newer sortkey wrote is refused, and left as it is.
func TestNewerSchemaRefused(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	if _, err := s.pool.Exec(ctx, "UPDATE "+ident(s.Schema())+".meta SET value = '99' WHERE name = 'schema_version'"); err != nil {
		t.Fatal(err)
	}
	other, err := own(ctx, s.owner.conn.Config(), s.Schema()+"x")
	if err != nil {
		t.Fatal(err) // another schema is not affected
	}
	other.release()
	s.owner.release()
	if _, err := own(ctx, s.owner.conn.Config(), s.Schema()); !errors.Is(err, ErrNewerSchema) {
		t.Fatalf("open of a newer schema: %v, want ErrNewerSchema", err)
	}
	_, _ = s.pool.Exec(ctx, "DROP SCHEMA "+ident(s.Schema()+"x")+" CASCADE")
}

// Closed, the store answers ErrClosed, not a pool's error.
func TestClosed(t *testing.T) {
	s := openTemp(t)
	s.Close()
	if _, err := s.Get([]byte("a"), func([]byte) error { return nil }); !errors.Is(err, ErrClosed) {
		t.Fatalf("Get after Close: %v", err)
	}
	if err := s.Commit([]Op{set("a", "b")}); !errors.Is(err, ErrClosed) {
		t.Fatalf("Commit after Close: %v", err)
	}
}

// A URL's own parameters are sortkey's or pgx's; a bad one is refused
// without the password in the error.
func TestParseURL(t *testing.T) {
	cfg, schema, timeout, err := parseURL("postgres://u:secret@127.0.0.1:5/db?schema=s1&timeout=3s&pool_max_conns=7")
	if err != nil || schema != "s1" || timeout.String() != "3s" || cfg.MaxConns != 7 {
		t.Fatalf("parse: %v %q %v %v", err, schema, timeout, cfg)
	}
	if _, ok := cfg.ConnConfig.RuntimeParams["schema"]; ok {
		t.Fatal("schema was left for the server")
	}
	for _, bad := range []string{"mysql://u:secret@h/db", "postgres://u:secret@h/db?timeout=-1s", "postgres://u:secret@h/db?pool_max_conns=x"} {
		_, _, _, err := parseURL(bad)
		if err == nil || bytes.Contains([]byte(err.Error()), []byte("secret")) {
			t.Fatalf("%s: %v", bad, err)
		}
	}
}

// A lazy commit is a commit: its changes are there, all of them, and
// the connection it used is back to durable commits.
func TestCommitLazy(t *testing.T) {
	s := openTemp(t)
	if err := s.CommitLazy([]Op{set("a", "1"), {Kind: OpStats, Key: []byte("t"), Items: 2}}); err != nil {
		t.Fatal(err)
	}
	if items, _, _ := s.ReadStats([]byte("t")); items != 2 || keys(t, s, "", "", false) != "[a=1]" {
		t.Fatalf("after a lazy commit: %d items, keys %s", items, keys(t, s, "", "", false))
	}
	var mode string
	ctx := context.Background()
	if err := s.pool.QueryRow(ctx, "SHOW synchronous_commit").Scan(&mode); err != nil || mode != "on" {
		t.Fatalf("synchronous_commit after a lazy commit: %q (%v), want on", mode, err)
	}
}
