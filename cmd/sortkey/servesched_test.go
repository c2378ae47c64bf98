package main

import (
	"runtime"
	"testing"
)

// TestWALWriterSlots: a server on disk gets one scheduler slot more than
// the default, restored after; in memory, or with GOMAXPROCS set, none.
func TestWALWriterSlots(t *testing.T) {
	base := runtime.GOMAXPROCS(0)
	for _, c := range []struct {
		name     string
		inMemory bool
		env      string
		want     int
	}{
		{"on disk", false, "", base + 1},
		{"in memory", true, "", base},
		{"GOMAXPROCS set", false, "3", base},
	} {
		t.Setenv("GOMAXPROCS", c.env)
		restore := walWriterSlots(serveFlags{inMemory: c.inMemory})
		got := runtime.GOMAXPROCS(0)
		restore()
		if got != c.want || runtime.GOMAXPROCS(0) != base {
			t.Errorf("%s: GOMAXPROCS %d while serving, want %d; %d after, want %d", c.name, got, c.want, runtime.GOMAXPROCS(0), base)
		}
	}
}
