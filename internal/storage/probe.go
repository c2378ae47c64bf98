package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync/atomic"
)

// prefixHealth holds the one key Probe writes, outside every table's
// range and every other record's.
const prefixHealth = 'h'

// ErrClosed is Probe's answer once the store is closed.
var ErrClosed = errors.New("storage: closed")

// probes numbers Probe's writes, and probeOwner tells this process's
// from those of other processes on the same store: each probe writes a
// key of its own, so that probes at once, here or on other nodes, never
// read back each other's value.
var (
	probes     atomic.Uint64
	probeOwner = rand.Uint64()
)

// probeKey is the key of probe n.
func probeKey(n uint64) []byte {
	k := binary.BigEndian.AppendUint64([]byte{prefixHealth}, probeOwner)
	return binary.BigEndian.AppendUint64(k, n)
}

// Probe writes a key durably, as every acknowledged write is written, and
// reads it back: a health check that the disk takes writes and the store
// serves reads, not only that the process runs. Pebble panics when used
// after Close, and PostgreSQL's pool fails; Probe answers ErrClosed for
// both, and an error for any other panic, since a health check must
// answer rather than fail.
func (db *DB) Probe() (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = db.probePanic(p)
		}
	}()
	n := probes.Add(1)
	key, val := probeKey(n), strconv.AppendUint(nil, n, 10)
	b := db.NewBatch()
	b.Set(key, val)
	if err := b.Commit(); err != nil {
		if db.b.closedErr(err) {
			return ErrClosed
		}
		return fmt.Errorf("storage: health probe write: %w", err)
	}
	got, ok, err := db.Get(key)
	if err != nil || !ok || !bytes.Equal(got, val) {
		return fmt.Errorf("storage: health probe read back %q (found %v), want %q: %v", got, ok, val, err)
	}
	b = db.NewBatch()
	b.Delete(key) // nothing to sync: a probe key a crash leaves is harmless
	return b.CommitNoSync()
}

func (db *DB) probePanic(p any) error {
	if db.b.closedErr(p) {
		return ErrClosed
	}
	return fmt.Errorf("storage: health probe panicked: %v", p)
}
