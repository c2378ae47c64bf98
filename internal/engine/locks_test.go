package engine

import (
	"slices"
	"sync"
	"testing"
	"time"
)

// TestLockAllNeverDeadlocks has writers lock the same items in opposite
// orders, two of them sharing a stripe, over and over.
func TestLockAllNeverDeadlocks(t *testing.T) {
	var l lockTable
	done := make(chan struct{})
	go func() {
		var wg sync.WaitGroup
		for g := 0; g < 4; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				hashes := []uint64{1, 2, 3, 2 + 1024, 700}
				if g%2 == 1 {
					slices.Reverse(hashes)
				}
				for i := 0; i < 5000; i++ {
					l.lockAll(hashes)()
				}
			}()
		}
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("lockAll deadlocked")
	}
}

// TestLockAllExcludesSingleWriters checks that an item locked by a batch
// cannot be locked by a single-item writer until the batch unlocks.
func TestLockAllExcludesSingleWriters(t *testing.T) {
	var l lockTable
	unlock := l.lockAll([]uint64{5, 9})
	locked := make(chan struct{})
	go func() {
		l.lock(9 + 1024)()
		close(locked)
	}()
	select {
	case <-locked:
		t.Fatal("a single writer locked an item the batch holds")
	case <-time.After(50 * time.Millisecond):
	}
	unlock()
	<-locked
}
