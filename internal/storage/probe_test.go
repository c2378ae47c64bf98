package storage

import (
	"errors"
	"testing"
)

// The probe succeeds, repeatedly, on an open store on disk, and answers
// ErrClosed, rather than panicking as Pebble does, once it is closed.
func TestProbe(t *testing.T) {
	db := mustOpen(t, Options{Dir: t.TempDir()})
	for range 2 {
		if err := db.Probe(); err != nil {
			t.Fatalf("open store: %v", err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := db.Probe(); !errors.Is(err, ErrClosed) {
		t.Fatalf("closed store: %v, want ErrClosed", err)
	}
}
