package storage

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
)

// prefixHealth holds the one key Probe writes, outside every table's
// range and every other record's.
const prefixHealth = 'h'

// ErrClosed is Probe's answer once the store is closed.
var ErrClosed = errors.New("storage: closed")

// probes numbers Probe's writes, so that each reads back a value no
// earlier probe left there.
var probes atomic.Uint64

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
	key, val := []byte{prefixHealth}, strconv.AppendUint(nil, probes.Add(1), 10)
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
	return nil
}

func (db *DB) probePanic(p any) error {
	if db.b.closedErr(p) {
		return ErrClosed
	}
	return fmt.Errorf("storage: health probe panicked: %v", p)
}
