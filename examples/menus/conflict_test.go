package main

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// TestNameFreedByATransactionInFlight: a rename holds the old name's
// record while it runs; a create that wants that name meets it, is
// cancelled with TransactionConflict, and the store tries again once the
// rename is done: the name is free by then, and each name has one owner.
func TestNameFreedByATransactionInFlight(t *testing.T) {
	srv := sortkeytest.New(t)
	f := newFixtureOn(t, srv, true) // reads stored records back by key
	pauses := 0
	renamed := make(chan error, 1)
	f.s.pause = func(context.Context, time.Duration) error {
		pauses++
		srv.ReleaseHeld()
		return <-renamed // the next try comes after the rename
	}
	srv.SetFaults(t, `{"rules": [{"operation": "TransactWriteItems", "hold": "5m", "count": 1}]}`)
	go func() { renamed <- f.s.RenameCategory(f.ctx, "2", "pasta") }()
	srv.AwaitHeld(t, 1)
	f.must(f.s.CreateCategory(f.ctx, Category{ID: "6", Name: "pasta and rice"}))
	if pauses != 1 {
		t.Fatalf("the create was tried again %d times, want once", pauses)
	}
	f.wantStored("CATEGORYNAME#pasta", "CATEGORYNAME#pasta", nameRecord("CATEGORYNAME#pasta", "2", "pasta"))
	f.wantStored("CATEGORYNAME#pasta and rice", "CATEGORYNAME#pasta and rice", nameRecord("CATEGORYNAME#pasta and rice", "6", "pasta and rice"))
	c, err := f.s.GetCategory(f.ctx, "2")
	wantEqual(t, c.Name, err, "pasta")
}

// TestNameTakenByATransactionInFlight: two creates of one name, the first
// held in flight. The second is cancelled with TransactionConflict, tries
// again after the first, and is then refused: the name is taken.
func TestNameTakenByATransactionInFlight(t *testing.T) {
	srv := sortkeytest.New(t)
	f := newFixtureOn(t, srv, true) // reads stored records back by key
	first := make(chan error, 1)
	f.s.pause = func(context.Context, time.Duration) error {
		srv.ReleaseHeld()
		return <-first
	}
	srv.SetFaults(t, `{"rules": [{"operation": "TransactWriteItems", "hold": "5m", "count": 1}]}`)
	go func() { first <- f.s.CreateCategory(f.ctx, Category{ID: "6", Name: "herbs"}) }()
	srv.AwaitHeld(t, 1)
	wantErr(t, f.s.CreateCategory(f.ctx, Category{ID: "7", Name: "herbs"}), ErrNameTaken, "None", "ConditionalCheckFailed")
	f.wantStored("CATEGORYNAME#herbs", "CATEGORYNAME#herbs", nameRecord("CATEGORYNAME#herbs", "6", "herbs"))
	f.wantStored("CATEGORY#7", "CATEGORY#7", nil)
}

// TestConflictRetriesAreBounded: fault rules answer TransactionConflict
// at the name record; the store retries, backing off more each time,
// and gives up after conflictTries with the conflict itself.
func TestConflictRetriesAreBounded(t *testing.T) {
	srv := sortkeytest.NewWithOptions(t, coverage.Options(nil))
	f := newFixtureOn(t, srv, true)
	var waits []time.Duration
	f.s.pause = func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }
	srv.SetFaults(t, `{"rules": [{"operation": "TransactWriteItems", "error": "TransactionCanceledException", "conflict": [1], "count": 2}]}`)
	f.must(f.s.CreateCategory(f.ctx, Category{ID: "6", Name: "herbs"}))
	if len(waits) != 2 || waits[1] < waits[0] {
		t.Fatalf("waits %v, want two, growing", waits)
	}
	c, err := f.s.GetCategoryByName(f.ctx, "herbs")
	wantEqual(t, c, err, Category{ID: "6", Name: "herbs"})

	waits = nil
	srv.SetFaults(t, `{"rules": [{"operation": "TransactWriteItems", "error": "TransactionCanceledException", "conflict": [1]}]}`)
	err = f.s.CreateCategory(f.ctx, Category{ID: "7", Name: "spices"})
	var canceled *types.TransactionCanceledException
	if !errors.As(err, &canceled) || len(waits) != conflictTries-1 {
		t.Fatalf("after %d waits: %v, want the conflict after %d", len(waits), err, conflictTries-1)
	}
	wantErr(t, err, err, "None", "TransactionConflict")
	srv.SetFaults(t, "")
	if _, err := f.s.GetCategory(f.ctx, "7"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("category 7 after giving up: %v, want not found", err)
	}
}

func TestBackoffGrowsToItsCap(t *testing.T) {
	for n := 1; n <= 10; n++ {
		d, top := backoff(n), min(firstBackoff<<(n-1), maxBackoff)
		if d < top/2 || d > top {
			t.Errorf("backoff(%d) = %v, want within [%v, %v]", n, d, top/2, top)
		}
	}
}
