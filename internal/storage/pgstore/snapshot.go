package pgstore

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// Snapshot is a consistent view of the store: a REPEATABLE READ, READ
// ONLY transaction, pinned when it is taken, on a connection it keeps
// until Close.
type Snapshot struct {
	s  *Store
	tx pgx.Tx
}

// Snapshot takes a snapshot; Close it when done.
func (s *Store) Snapshot() (*Snapshot, error) {
	var tx pgx.Tx
	err := s.retry(true, func(ctx context.Context) error {
		var err error
		tx, err = s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
		if err != nil {
			return err
		}
		// The snapshot is taken by the transaction's first statement.
		if _, err = tx.Exec(ctx, "SELECT 1"); err != nil {
			_ = tx.Rollback(context.Background())
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return &Snapshot{s: s, tx: tx}, nil
}

// Get is Store.Get as of the snapshot.
func (sn *Snapshot) Get(key []byte, fn func(val []byte) error) (bool, error) {
	return sn.s.get(sn.tx, key, fn)
}

// Scan is Store.Scan as of the snapshot.
func (sn *Snapshot) Scan(lower, upper []byte, reverse bool, fn func(key, val []byte) bool) error {
	return sn.s.scan(sn.tx, lower, upper, reverse, fn)
}

// Close ends the snapshot's transaction and returns its connection.
func (sn *Snapshot) Close() error {
	ctx, cancel := sn.s.ctx()
	defer cancel()
	return sn.tx.Rollback(ctx)
}
