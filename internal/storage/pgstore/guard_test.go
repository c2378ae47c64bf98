package pgstore

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A second process shares the schema; the first holds the lease, and
// the second takes it once the first is gone.
func TestLeaseMovesWhenItsHolderCloses(t *testing.T) {
	first := openTemp(t)
	second, err := Open(context.Background(), Options{URL: testURL(t), Schema: first.Schema()})
	if err != nil {
		t.Fatalf("a second process on the schema: %v", err)
	}
	defer second.Close()
	if !first.Leader() || second.Leader() {
		t.Fatalf("leaders: first %v, second %v; want the first alone", first.Leader(), second.Leader())
	}
	if err := second.Commit([]Op{set("a", "from the second")}); err != nil {
		t.Fatal(err)
	}
	first.owner.release() // as if the process died: its session ends
	deadline := time.Now().Add(10 * ownerCheck)
	for !second.Leader() && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if !second.Leader() {
		t.Fatal("the lease did not move to the second process")
	}
}

// A guard on what was read: a commit goes in while it holds, and writes
// nothing when the key changed.
func TestGuardRefusesAStaleRead(t *testing.T) {
	s := openTemp(t)
	if err := s.Commit([]Op{set("a", "1")}); err != nil {
		t.Fatal(err)
	}
	if err := s.Commit([]Op{set("a", "2"), set("b", "x")}, Guard{Key: []byte("a"), Want: Digest([]byte("1"))}); err != nil {
		t.Fatalf("a fresh guard: %v", err)
	}
	err := s.Commit([]Op{set("a", "3"), set("c", "x")}, Guard{Key: []byte("a"), Want: Digest([]byte("1"))})
	if !errors.Is(err, ErrConflict) || errors.Is(err, ErrStaleShared) {
		t.Fatalf("a stale guard: %v, want ErrConflict", err)
	}
	err = s.Commit([]Op{set("c", "x")}, Guard{Key: []byte("a"), Want: Digest([]byte("1")), Shared: true})
	if !errors.Is(err, ErrStaleShared) {
		t.Fatalf("a stale shared guard: %v, want ErrStaleShared", err)
	}
	if err := s.Commit([]Op{set("d", "x")}, Guard{Key: []byte("none")}); err != nil {
		t.Fatalf("a guard that the key is absent: %v", err)
	}
	if got := keys(t, s, "", "", false); got != "[a=2 b=x d=x]" {
		t.Fatalf("after the guarded commits: %s", got)
	}
}

// GuardLast checks a range's last key.
func TestGuardLast(t *testing.T) {
	s := openTemp(t)
	g := Guard{Key: []byte("r/"), Hi: []byte("r0")}
	if err := s.Commit([]Op{set("r/1", "x")}, g); err != nil {
		t.Fatalf("an empty range, as read: %v", err)
	}
	if err := s.Commit([]Op{set("r/2", "x")}, g); !errors.Is(err, ErrConflict) {
		t.Fatalf("a range read empty, no longer: %v", err)
	}
	g.Last = []byte("r/1")
	if err := s.Commit([]Op{set("r/2", "x")}, g); err != nil {
		t.Fatalf("the last key as read: %v", err)
	}
}

// Writers that read, compute and commit under guards lose no update:
// the compare-and-set loop the engine runs, from two stores at once.
func TestGuardedIncrementsFromTwoProcesses(t *testing.T) {
	a := openTemp(t)
	b, err := Open(context.Background(), Options{URL: testURL(t), Schema: a.Schema()})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var conflicts atomic.Int64
	var wg sync.WaitGroup
	for _, s := range []*Store{a, b, a, b} {
		wg.Go(func() {
			for range 50 {
				increment(t, s, &conflicts)
			}
		})
	}
	wg.Wait()
	var got []byte
	if _, err := a.Get([]byte("n"), func(v []byte) error { got = append(got, v...); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 200 {
		t.Fatalf("200 guarded increments left %d", len(got))
	}
	t.Logf("200 increments, %d commits refused and retried", conflicts.Load())
}

// increment appends a byte to key n, reading it and committing under a
// guard until the commit goes in.
func increment(t *testing.T, s *Store, conflicts *atomic.Int64) {
	for {
		var cur []byte
		found, err := s.Get([]byte("n"), func(v []byte) error { cur = append(cur, v...); return nil })
		if err != nil {
			t.Error(err)
			return
		}
		g := Guard{Key: []byte("n")}
		if found {
			g.Want = Digest(cur)
		}
		err = s.Commit([]Op{set("n", string(cur)+"+")}, g)
		if !errors.Is(err, ErrConflict) {
			if err != nil {
				t.Error(err)
			}
			return
		}
		conflicts.Add(1)
	}
}
