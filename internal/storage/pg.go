package storage

import (
	"context"
	"errors"

	"github.com/sortkeydb/sortkey/internal/storage/pgstore"
)

// pgBackend is the PostgreSQL store (package pgstore) behind the boundary.
type pgBackend struct{ s *pgstore.Store }

func openPG(opts Options) (*pgBackend, error) {
	s, err := pgstore.Open(context.Background(), pgstore.Options{URL: opts.URL, Schema: opts.schema, Temporary: opts.temporary})
	if err != nil {
		return nil, err
	}
	return &pgBackend{s: s}, nil
}

func (p *pgBackend) view(key []byte, fn func(val []byte) error) (bool, error) {
	return p.s.Get(key, fn)
}

func (p *pgBackend) scan(lower, upper []byte, reverse bool, fn func(key, val []byte) bool) error {
	return p.s.Scan(lower, upper, reverse, fn)
}

func (p *pgBackend) readStats(key []byte) (Stats, error) {
	items, bytes, err := p.s.ReadStats(key)
	return Stats{Items: items, Bytes: bytes}, err
}

func (p *pgBackend) health() Health {
	u := p.s.Usage()
	return Health{Postgres: &u}
}

func (p *pgBackend) settle() error { return nil }

func (p *pgBackend) closedErr(v any) bool {
	err, ok := v.(error)
	return ok && errors.Is(err, pgstore.ErrClosed)
}

func (p *pgBackend) close() error { return p.s.Close() }

type pgSnapshot struct{ sn *pgstore.Snapshot }

func (p *pgBackend) newSnapshot() (snapshotReader, error) {
	sn, err := p.s.Snapshot()
	if err != nil {
		return nil, err
	}
	return pgSnapshot{sn: sn}, nil
}

func (s pgSnapshot) view(key []byte, fn func(val []byte) error) (bool, error) {
	return s.sn.Get(key, fn)
}

func (s pgSnapshot) scan(lower, upper []byte, reverse bool, fn func(key, val []byte) bool) error {
	return s.sn.Scan(lower, upper, reverse, fn)
}

func (s pgSnapshot) close() error { return s.sn.Close() }

// pgBatch collects a batch's changes, copied (callers reuse their
// buffers), until it commits as one transaction. Apply commits; there is
// nothing left for Wait.
type pgBatch struct {
	s      *pgstore.Store
	ops    []pgstore.Op
	guards []pgstore.Guard
}

func (p *pgBackend) newBatch() batchWriter { return &pgBatch{s: p.s} }

func (b *pgBatch) set(key, val []byte) {
	b.ops = append(b.ops, pgstore.Op{Kind: pgstore.OpSet, Key: clone(key), Val: append([]byte{}, val...)})
}

func (b *pgBatch) delete(key []byte) {
	b.ops = append(b.ops, pgstore.Op{Kind: pgstore.OpDelete, Key: clone(key)})
}

func (b *pgBatch) deleteRange(lo, hi []byte) {
	b.ops = append(b.ops, pgstore.Op{Kind: pgstore.OpDeleteRange, Key: clone(lo), Hi: clone(hi)})
}

func (b *pgBatch) addStats(key []byte, d Stats) {
	b.ops = append(b.ops, pgstore.Op{Kind: pgstore.OpStats, Key: key, Items: d.Items, Bytes: d.Bytes}) // Batch.AddStats copied key
}

func (b *pgBatch) empty() bool { return len(b.ops) == 0 }

func (b *pgBatch) written(fn func(key []byte)) {
	for i := range b.ops {
		if k := b.ops[i].Kind; k == pgstore.OpSet || k == pgstore.OpDelete {
			fn(b.ops[i].Key)
		}
	}
}

func (b *pgBatch) apply() error { return b.commit() }
func (b *pgBatch) wait() error  { return nil }
func (b *pgBatch) commitNoSync() error {
	err := b.s.CommitLazy(b.ops, b.guards...)
	b.discard()
	return conflict(err)
}
func (b *pgBatch) discard() { b.ops, b.guards = nil, nil }

func (b *pgBatch) commit() error {
	err := b.s.Commit(b.ops, b.guards...)
	b.discard()
	return conflict(err)
}

// conflict translates the store's refusal of a guarded commit.
func conflict(err error) error {
	switch {
	case errors.Is(err, pgstore.ErrStaleShared):
		return ErrStaleShared
	case errors.Is(err, pgstore.ErrConflict):
		return ErrConflict
	}
	return err
}

// clone copies b, keeping nil as nil (an unbounded range's end).
func clone(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append(make([]byte, 0, len(b)), b...)
}
