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

// diskHeapHeadroom paces collection on disk, where the heap is not the
// data, as Go's default does (a goal of twice the live heap), only never
// below memlimit.Floor: a server's small heap would otherwise be collected
// every few MB of requests.
const diskHeapHeadroom = 100

// followHeap paces the server's garbage collection by a soft limit that
// follows the live heap until the returned function is called: in memory
// the --heap-headroom above it, on disk diskHeapHeadroom. --heap-headroom 0
// keeps Go's default pacing in both.
func followHeap(f serveFlags) (stop func()) {
	if !f.inMemory && f.heapHeadroom > 0 {
		return memlimit.Follow(diskHeapHeadroom)
	}
	return memlimit.Follow(f.heapHeadroom)
}
