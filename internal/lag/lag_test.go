package lag

import (
	"fmt"
	"testing"
	"time"
)

var t0 = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

func TestAtIsTheValueBeforeTheEarliestChangeAfterTheCutoff(t *testing.T) {
	l := New(time.Minute, 1<<20, 2, 3)
	l.Record(t0, []byte("g1a"), nil, false)                          // created
	l.Record(t0.Add(time.Second), []byte("g1a"), []byte("v1"), true) // updated
	for _, c := range []struct {
		cutoff           time.Time
		val              string
		present, changed bool
	}{
		{t0.Add(-time.Nanosecond), "", false, true},
		{t0, "v1", true, true},
		{t0.Add(time.Second), "", false, false},
	} {
		v, present, changed := l.At([]byte("g1a"), c.cutoff)
		if string(v) != c.val || present != c.present || changed != c.changed {
			t.Errorf("At(%v) = %q, %v, %v; want %q, %v, %v", c.cutoff, v, present, changed, c.val, c.present, c.changed)
		}
	}
}

func TestSinceListsOnlyTheRangeInKeyOrder(t *testing.T) {
	l := New(time.Minute, 1<<20, 2, 3)
	for _, k := range []string{"g1c", "g1a", "g2a", "g1b", "g1z"} {
		l.Record(t0, []byte(k), []byte("old "+k), true)
	}
	got := fmt.Sprint(keysOf(l.Since([]byte("g1a"), []byte("g1d"), t0.Add(-time.Second))))
	if got != "[g1a g1b g1c]" {
		t.Fatalf("Since = %s", got)
	}
	if n := len(l.Since([]byte("g1a"), nil, t0)); n != 0 {
		t.Fatalf("Since a cutoff at the changes = %d keys, want none", n)
	}
	if got := fmt.Sprint(keysOf(l.Since([]byte("g1b"), nil, t0.Add(-time.Second)))); got != "[g1b g1c g1z]" {
		t.Fatalf("Since with no upper bound = %s", got)
	}
}

func keysOf(olds []Old) []string {
	var ks []string
	for _, o := range olds {
		ks = append(ks, string(o.Key))
	}
	return ks
}

func TestChangesPastKeepAreForgotten(t *testing.T) {
	l := New(time.Second, 1<<20, 2, 3)
	l.Record(t0, []byte("g1a"), nil, false)
	l.Record(t0.Add(500*time.Millisecond), []byte("g1b"), nil, false)
	l.Record(t0.Add(time.Second), []byte("g1c"), nil, false)
	if l.Len() != 2 {
		t.Fatalf("a second on, %d changes held, want 2", l.Len())
	}
	if _, _, changed := l.At([]byte("g1a"), t0.Add(-time.Hour)); changed {
		t.Fatal("a forgotten change is still served")
	}
}

func TestTheBudgetDropsTheOldestChangesFirst(t *testing.T) {
	l := New(time.Hour, 3*(overhead+4), 2, 3)
	for i := range 10 {
		l.Record(t0, fmt.Appendf(nil, "g%d", i), []byte("vv"), true)
	}
	if l.Len() != 3 {
		t.Fatalf("%d changes held, want the 3 the budget holds", l.Len())
	}
	if _, _, changed := l.At([]byte("g0"), t0.Add(-time.Second)); changed {
		t.Fatal("the oldest change outlived the budget")
	}
	if _, _, changed := l.At([]byte("g9"), t0.Add(-time.Second)); !changed {
		t.Fatal("the newest change was dropped")
	}
}

func TestAClockSteppingBackKeepsAKeysHistoryInOrder(t *testing.T) {
	l := New(time.Minute, 1<<20, 2, 3)
	l.Record(t0, []byte("g1a"), []byte("v1"), true)
	l.Record(t0.Add(-time.Second), []byte("g1a"), []byte("v2"), true)
	if v, _, _ := l.At([]byte("g1a"), t0.Add(-time.Hour)); string(v) != "v1" {
		t.Fatalf("At before both = %q, want v1", v)
	}
	if _, _, changed := l.At([]byte("g1a"), t0); changed {
		t.Fatal("the change stamped back in time is seen before the one it followed")
	}
}

func TestSinceWithinOnePartAndAcrossParts(t *testing.T) {
	l := New(time.Minute, 1<<20, 2, 3)
	for _, k := range []string{"g1a1", "g1a2", "g1b1", "g1a9"} {
		l.Record(t0, []byte(k), nil, false)
	}
	before := t0.Add(-time.Second)
	if got := fmt.Sprint(keysOf(l.Since([]byte("g1a1"), []byte("g1a3"), before))); got != "[g1a1 g1a2]" {
		t.Fatalf("Since within part g1a = %s", got)
	}
	if got := fmt.Sprint(keysOf(l.Since([]byte("g1a2"), []byte("g1b2"), before))); got != "[g1a2 g1a9 g1b1]" {
		t.Fatalf("Since across parts = %s", got)
	}
}
