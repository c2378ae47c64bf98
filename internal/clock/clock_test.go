package clock

import (
	"errors"
	"sync"
	"testing"
	"time"
)

var start = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

func TestAdvanceAndSetMoveForwardOnly(t *testing.T) {
	v := NewVirtual(start)
	if got, err := v.Advance(2 * time.Hour); err != nil || !got.Equal(start.Add(2*time.Hour)) || !v.Now().Equal(got) {
		t.Fatalf("Advance(2h) = %v, %v; Now %v", got, err, v.Now())
	}
	if _, err := v.Advance(-time.Second); !errors.Is(err, ErrBackwards) {
		t.Fatalf("Advance(-1s): %v", err)
	}
	if _, err := v.Set(start); !errors.Is(err, ErrBackwards) {
		t.Fatalf("Set to before now: %v", err)
	}
	if !v.Now().Equal(start.Add(2 * time.Hour)) {
		t.Fatalf("a refused move changed the time to %v", v.Now())
	}
	later := time.Date(2027, 1, 1, 0, 0, 0, 0, time.FixedZone("x", 3600))
	if got, err := v.Set(later); err != nil || !got.Equal(later) || got.Location() != time.UTC {
		t.Fatalf("Set(later) = %v, %v", got, err)
	}
	if _, err := v.Set(later); err != nil {
		t.Fatalf("Set to the current time: %v", err)
	}
}

func TestZeroStartIsTheRealTime(t *testing.T) {
	before := time.Now()
	got := NewVirtual(time.Time{}).Now()
	if got.Before(before.Truncate(time.Second)) || got.After(time.Now()) {
		t.Fatalf("a clock started now reads %v", got)
	}
}

func TestOnMoveRunsBeforeTheMoveReturns(t *testing.T) {
	v := NewVirtual(start)
	var seen []time.Time
	stop := v.OnMove(func(now time.Time) { seen = append(seen, now) })
	v.Advance(time.Hour)
	v.Set(start.Add(3 * time.Hour))
	v.Advance(-time.Hour) // refused: no call
	stop()
	v.Advance(time.Hour)
	want := []time.Time{start.Add(time.Hour), start.Add(3 * time.Hour)}
	if len(seen) != len(want) || !seen[0].Equal(want[0]) || !seen[1].Equal(want[1]) {
		t.Fatalf("watcher saw %v, want %v", seen, want)
	}
}

// TestWatcherMayReadTheClock guards against calling watchers under the
// clock's lock, which would deadlock here.
func TestWatcherMayReadTheClock(t *testing.T) {
	v := NewVirtual(start)
	var read time.Time
	v.OnMove(func(time.Time) { read = v.Now() })
	v.Advance(time.Minute)
	if !read.Equal(start.Add(time.Minute)) {
		t.Fatalf("watcher read %v", read)
	}
}

func TestConcurrentAdvancesAllCount(t *testing.T) {
	v := NewVirtual(start)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				v.Advance(time.Second)
				v.Now()
			}
		})
	}
	wg.Wait()
	if got := v.Now(); !got.Equal(start.Add(800 * time.Second)) {
		t.Fatalf("after 800 one-second advances: %v", got)
	}
}
