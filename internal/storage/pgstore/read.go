package pgstore

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
)

// querier is a pool or a snapshot's transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Get calls fn with the value at key and reports whether there was one.
func (s *Store) Get(key []byte, fn func(val []byte) error) (bool, error) {
	return s.get(s.pool, key, fn)
}

func (s *Store) get(q querier, key []byte, fn func(val []byte) error) (found bool, err error) {
	var val []byte
	err = s.retry(true, func(ctx context.Context) error {
		found, val = false, val[:0]
		err := q.QueryRow(ctx, s.sql.get, key).Scan(&val)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		found = err == nil
		return err
	})
	if err != nil || !found {
		return false, err
	}
	return true, fn(val)
}

// ReadStats sums the stats deltas at key.
func (s *Store) ReadStats(key []byte) (items, bytes int64, err error) {
	err = s.retry(true, func(ctx context.Context) error {
		return s.pool.QueryRow(ctx, s.sql.getStats, key).Scan(&items, &bytes)
	})
	return items, bytes, err
}

// Scan calls fn for every key in [lower, upper) in key order (reverse:
// from the last down) until fn returns false; upper nil is unbounded.
// Keys are read a page at a time, each page a statement of its own, so
// fn may call the store; pages grow from firstPage rows to maxPage, so
// that a short Query costs one round trip and a long Scan few.
func (s *Store) Scan(lower, upper []byte, reverse bool, fn func(key, val []byte) bool) error {
	return s.scan(s.pool, lower, upper, reverse, fn)
}

const (
	firstPage = 32
	maxPage   = 512
)

func (s *Store) scan(q querier, lower, upper []byte, reverse bool, fn func(key, val []byte) bool) error {
	lower = append([]byte{}, lower...) // never NULL
	for n := firstPage; ; n = min(2*n, maxPage) {
		page, err := s.page(q, lower, upper, reverse, n)
		if err != nil {
			return err
		}
		for i := range page.keys {
			if !fn(page.keys[i], page.vals[i]) {
				return nil
			}
		}
		if len(page.keys) < n {
			return nil
		}
		last := page.keys[len(page.keys)-1]
		if reverse {
			upper = last
		} else {
			lower = append(last[:len(last):len(last)], 0) // the next key after last
		}
	}
}

// page is one statement's rows, copied into one buffer: row i's key
// ends at ends[2i] and its value at ends[2i+1].
type page struct {
	keys, vals [][]byte
	buf        []byte
	ends       []int
}

func (s *Store) page(q querier, lower, upper []byte, reverse bool, n int) (*page, error) {
	sql, args := s.scanSQL(lower, upper, reverse, n)
	p := &page{}
	err := s.retry(true, func(ctx context.Context) error {
		p.buf, p.ends = p.buf[:0], p.ends[:0]
		rows, err := q.Query(ctx, sql, args...)
		if err != nil {
			return err
		}
		for rows.Next() {
			raw := rows.RawValues()
			p.buf = append(p.buf, raw[0]...)
			p.ends = append(p.ends, len(p.buf))
			p.buf = append(p.buf, raw[1]...)
			p.ends = append(p.ends, len(p.buf))
		}
		return rows.Err()
	})
	p.slice()
	return p, err
}

// slice cuts the rows out of buf once it has stopped moving.
func (p *page) slice() {
	rows := len(p.ends) / 2
	p.keys, p.vals = make([][]byte, rows), make([][]byte, rows)
	start := 0
	for i := range rows {
		k, v := p.ends[2*i], p.ends[2*i+1]
		p.keys[i], p.vals[i] = p.buf[start:k:k], p.buf[k:v:v]
		start = v
	}
}

func (s *Store) scanSQL(lower, upper []byte, reverse bool, n int) (string, []any) {
	switch {
	case upper == nil && reverse:
		return s.sql.scanBackOpen, []any{lower, n}
	case upper == nil:
		return s.sql.scanOpen, []any{lower, n}
	case reverse:
		return s.sql.scanBack, []any{lower, upper, n}
	}
	return s.sql.scan, []any{lower, upper, n}
}
