package pgstore

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
)

// Stats count the store's round trips to the database: each statement
// and each batch (a pipeline of statements) is one.
type Stats struct {
	RoundTrips atomic.Int64
	Errors     atomic.Int64 // round trips that failed
	Retries    atomic.Int64 // statements tried again (retry.go)
	Nanos      atomic.Int64 // time spent in round trips, summed
}

type startKey struct{}

// The pgx tracer hooks: a start stamps the context, an end counts.

func (st *Stats) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	return context.WithValue(ctx, startKey{}, time.Now())
}

func (st *Stats) TraceQueryEnd(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryEndData) {
	st.end(ctx, d.Err)
}

func (st *Stats) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	return context.WithValue(ctx, startKey{}, time.Now())
}

func (st *Stats) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}

func (st *Stats) TraceBatchEnd(ctx context.Context, _ *pgx.Conn, d pgx.TraceBatchEndData) {
	st.end(ctx, d.Err)
}

func (st *Stats) end(ctx context.Context, err error) {
	st.RoundTrips.Add(1)
	if err != nil {
		st.Errors.Add(1)
	}
	if t, ok := ctx.Value(startKey{}).(time.Time); ok {
		st.Nanos.Add(int64(time.Since(t)))
	}
}

// Usage is the store's account of itself, for metrics and health.
type Usage struct {
	RoundTrips, Errors, Retries int64
	RoundTripSeconds            float64
	OpenConns, IdleConns        int32
	AcquireWaits                int64 // acquisitions that waited for a free connection
}

// Usage reads the counters and the pool's state.
func (s *Store) Usage() Usage {
	ps := s.pool.Stat()
	return Usage{
		RoundTrips: s.stats.RoundTrips.Load(), Errors: s.stats.Errors.Load(), Retries: s.stats.Retries.Load(),
		RoundTripSeconds: time.Duration(s.stats.Nanos.Load()).Seconds(),
		OpenConns:        ps.TotalConns(), IdleConns: ps.IdleConns(), AcquireWaits: ps.EmptyAcquireCount(),
	}
}
