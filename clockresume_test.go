package sortkey_test

import (
	"errors"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey"
)

// A virtual clock's time is kept with the data: opened again with a clock
// started at the real time, the database resumes where its clock stood
// after Advance; with a start before that, Open refuses, unless
// ClockRewind.
func TestVirtualClockResumesAfterReopen(t *testing.T) {
	dir := t.TempDir()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	db := openOrFail(t, dir, &sortkey.Options{Clock: sortkey.NewVirtualClock(start)})
	moved, err := db.Clock().Advance(36 * time.Hour)
	closeOrFail(t, db, err)
	db = openOrFail(t, dir, &sortkey.Options{Clock: sortkey.NewVirtualClock(time.Time{})})
	if now := db.Clock().Now(); !now.Equal(moved) {
		t.Errorf("reopened without a start: the clock reads %v, want %v", now, moved)
	}
	closeOrFail(t, db, nil)
	if _, err := sortkey.Open(dir, &sortkey.Options{Clock: sortkey.NewVirtualClock(start)}); !errors.Is(err, sortkey.ErrClockRewind) {
		t.Fatalf("reopened at %v, before %v: %v, want ErrClockRewind", start, moved, err)
	}
	db = openOrFail(t, dir, &sortkey.Options{Clock: sortkey.NewVirtualClock(start), ClockRewind: true})
	if now := db.Clock().Now(); !now.Equal(start) {
		t.Errorf("reopened with ClockRewind: the clock reads %v, want %v", now, start)
	}
	closeOrFail(t, db, nil)
}

func openOrFail(t *testing.T, dir string, opts *sortkey.Options) *sortkey.DB {
	t.Helper()
	db, err := sortkey.Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// closeOrFail closes db, and fails the test on its error or on err, what
// went before.
func closeOrFail(t *testing.T, db *sortkey.DB, err error) {
	t.Helper()
	if err := errors.Join(err, db.Close()); err != nil {
		t.Fatal(err)
	}
}
