package memlimit

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestLimit(t *testing.T) {
	for _, c := range []struct {
		live     uint64
		headroom int
		want     int64
	}{
		{0, 25, Floor},
		{10 << 20, 25, Floor},
		{400 << 20, 25, 500 << 20},
		{400 << 20, 100, 800 << 20},
		{math.MaxUint64, 25, math.MaxInt64},
	} {
		if got := Limit(c.live, c.headroom); got != c.want {
			t.Errorf("Limit(%d, %d) = %d, want %d", c.live, c.headroom, got, c.want)
		}
	}
}

// TestFollowRestores sets a limit at once and puts the old one back.
func TestFollowRestores(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	before := debug.SetMemoryLimit(-1)
	stop := Follow(25)
	during := debug.SetMemoryLimit(-1)
	stop()
	if during < Floor || during == before {
		t.Errorf("limit while following = %d, want at least %d and not %d", during, Floor, before)
	}
	if after := debug.SetMemoryLimit(-1); after != before {
		t.Errorf("limit after stop = %d, want %d", after, before)
	}
}

// TestFollowLeavesOperatorLimit: GOMEMLIMIT or no headroom changes
// nothing.
func TestFollowLeavesOperatorLimit(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	t.Setenv("GOMEMLIMIT", "1GiB")
	for _, headroom := range []int{25, 0} {
		stop := Follow(headroom)
		if got := debug.SetMemoryLimit(-1); got != before {
			t.Errorf("headroom %d: limit = %d, want %d untouched", headroom, got, before)
		}
		stop()
		t.Setenv("GOMEMLIMIT", "")
	}
}

// TestFollowPacesByLimit: while following, GOGC is off (the limit paces
// collection) unless the GOGC variable sets it; stop puts it back.
func TestFollowPacesByLimit(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	for _, env := range []string{"", "150"} {
		t.Setenv("GOGC", env)
		before := debug.SetGCPercent(100)
		stop := Follow(25)
		during := debug.SetGCPercent(-1)
		debug.SetGCPercent(during)
		stop()
		after := debug.SetGCPercent(before)
		want := -1
		if env != "" {
			want = 100
		}
		if during != want || after != 100 {
			t.Errorf("GOGC=%q: percent while following %d, want %d; after stop %d, want 100", env, during, want, after)
		}
	}
}
