package storage

// The store boundary: what the engine needs of a store, and nothing of
// how one keeps it. Two stores implement it: Pebble (pebble.go), embedded
// and the default, and PostgreSQL (pg.go, over package pgstore), for data
// that lives in a database server.
//
// The engine's keys are byte strings in the layout of keys.go; a store
// keeps them in unsigned byte order, which is what makes a Query a range
// read. What a store does not provide, the engine keeps itself: item
// locks, stream sequence numbers and the catalog cache live in its
// process. Pebble refuses a second process; PostgreSQL lets several
// share a schema, each commit guarded by what its process read (guard.go).

// backend is one open store.
type backend interface {
	reader
	// newBatch starts an empty batch.
	newBatch() batchWriter
	// newSnapshot pins a consistent view: a batch is wholly before or
	// wholly after it. It MUST be closed.
	newSnapshot() (snapshotReader, error)
	// readStats returns the sum of every stats delta added at key.
	readStats(key []byte) (Stats, error)
	health() Health
	// settle leaves the store as a long-running one would be after a bulk
	// load (benchmarks); a store with nothing to do returns nil.
	settle() error
	// closedErr reports whether err (or a recovered panic) says the store
	// is closed.
	closedErr(p any) bool
	close() error
}

// reader is what a store and a snapshot both answer.
type reader interface {
	// view calls fn with the value at key, valid only during the call, and
	// reports whether there was one.
	view(key []byte, fn func(val []byte) error) (bool, error)
	// scan calls fn for every key in [lower, upper) in key order (reverse:
	// from the last down) until fn returns false; upper nil is unbounded.
	// The slices are valid only during the call. fn MAY call the store
	// (a nested read); a scan MUST NOT hold anything that call needs.
	scan(lower, upper []byte, reverse bool, fn func(key, val []byte) bool) error
}

type snapshotReader interface {
	reader
	close() error
}

// batchWriter collects changes that commit together or not at all, in
// the order they were added: a later change of a key wins.
type batchWriter interface {
	set(key, val []byte)
	delete(key []byte)
	deleteRange(lower, upper []byte)
	// addStats adds a delta to the stats at key; deltas of one key sum.
	addStats(key []byte, d Stats)
	empty() bool
	// written calls fn with every key set or deleted, in order.
	written(fn func(key []byte))
	// apply makes the batch visible in commit order; wait then returns
	// once it is durable. A store that cannot split the two commits in
	// apply and waits for nothing.
	apply() error
	wait() error
	// commit is apply then wait; commitNoSync is for work that can be
	// redone after a crash, durable with the next commit.
	commit() error
	commitNoSync() error
	discard()
}
