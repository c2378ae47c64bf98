package pgstore

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// maxTries bounds how often one statement is tried; the store's timeout
// bounds them all together.
const maxTries = 6

// retry runs fn until it succeeds, fails for good, or the store's
// timeout passes. idempotent says fn may be run again after an error that
// leaves unknown whether it took effect (a read may; a write may not).
func (s *Store) retry(idempotent bool, fn func(ctx context.Context) error) error {
	if s.closed.Load() {
		return ErrClosed
	}
	ctx, cancel := s.ctx()
	defer cancel()
	var err error
	for try := 0; try < maxTries; try++ {
		if err = fn(ctx); err == nil || !retryable(err, idempotent) || s.closed.Load() {
			break
		}
		s.stats.Retries.Add(1)
		if !sleep(ctx, try) {
			break
		}
	}
	return s.explain(err)
}

// retryable: a serialization failure or deadlock rolled the transaction
// back whole; a request that never reached the server did nothing; a
// read may always be asked again.
func retryable(err error, idempotent bool) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "40001" || pe.Code == "40P01" || (idempotent && isConnectionClass(pe.Code))
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return false
	}
	return idempotent || pgconn.SafeToRetry(err)
}

// isConnectionClass: class 08 (connection exception) and 57P (operator
// intervention: the server is shutting down or restarting).
func isConnectionClass(code string) bool {
	return code[:2] == "08" || code[:3] == "57P"
}

// sleep backs off before try+1: 5 ms doubling, with jitter, unless ctx
// ends first.
func sleep(ctx context.Context, try int) bool {
	d := time.Duration(5<<try) * time.Millisecond
	d = d/2 + rand.N(d/2+1)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// explain marks an error once the store is closed, so that callers can
// tell a closed store from a failing one.
func (s *Store) explain(err error) error {
	if err != nil && s.closed.Load() {
		return ErrClosed
	}
	return err
}
