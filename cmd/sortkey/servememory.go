package main

// --heap-headroom: how far the Go heap may grow above what is live in
// --in-memory mode, where Pebble's files are the heap (see
// internal/memlimit for why a soft limit and not a lower GOGC).

import (
	"errors"

	"github.com/sortkeydb/sortkey/internal/memlimit"
)

const defaultHeapHeadroom = 25

const msgHeapHeadroom = "--heap-headroom must not be negative"

func checkHeapHeadroom(n int) error {
	if n < 0 {
		return errors.New(msgHeapHeadroom)
	}
	return nil
}

// followHeap keeps the in-memory server's heap near what is live until
// the returned function is called; on disk the heap is not the data, and
// it changes nothing.
func followHeap(f serveFlags) (stop func()) {
	if !f.inMemory {
		return func() {}
	}
	return memlimit.Follow(f.heapHeadroom)
}
