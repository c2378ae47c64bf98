package main

// One scheduler slot more than the cores, on disk.
//
// Pebble's WAL writer is one goroutine that spends most of its life in
// fdatasync (~0.3 ms here, thousands a second under load). While it is in
// the call its slot (P) is handed to other goroutines, and when the call
// returns it must win one back before it can release the writers the sync
// made durable; with one slot per core they are all busy at that moment,
// so every sync cycle stretched by a scheduling wait. A spare slot lets it
// return at once: measured with 16 connections on 2 cores (wrk, PutItem
// on disk), 20,400–22,900 → 23,400–25,100 writes/s at the same CPU per
// write (docs/BENCHMARKS.md). In memory nothing blocks, and a spare slot
// only spins: it is not added there.

import (
	"os"
	"runtime"
)

// walWriterSlots sets GOMAXPROCS one above its default for a server on
// disk, unless the GOMAXPROCS variable sets it, and returns what restores
// it. A server on PostgreSQL (--store) has no WAL writer of its own.
func walWriterSlots(f serveFlags) (restore func()) {
	if f.inMemory || f.store != "" || os.Getenv("GOMAXPROCS") != "" {
		return func() {}
	}
	before := runtime.GOMAXPROCS(0)
	runtime.GOMAXPROCS(before + 1)
	return func() { runtime.GOMAXPROCS(before) }
}
