package pgstore

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
)

// ErrLost is every request's answer once another process has taken the
// schema: this one's lock went with its connection (the database
// restarted) and someone else's came first.
var ErrLost = errors.New("pgstore: another sortkey process took the schema while this one's connection was lost")

// ownerCheck is how often the owner's connection is checked, and its lock
// taken again after the database restarted.
const ownerCheck = time.Second

// lockKey is the advisory lock that marks a schema's owner.
func lockKey(schema string) int64 {
	h := fnv.New64a()
	h.Write([]byte("sortkey schema " + schema))
	return int64(h.Sum64())
}

// owner holds the schema's advisory lock on a connection of its own, for
// as long as the store is open. A session lock lives and dies with its
// connection, so watch takes it again on a new one when the database
// restarts.
type owner struct {
	cfg    *pgx.ConnConfig
	schema string
	mu     sync.Mutex // guards conn
	conn   *pgx.Conn
	lost   atomic.Bool
	stop   chan struct{}
}

// own connects, takes the lock and brings the schema to this version.
func own(ctx context.Context, cfg *pgx.ConnConfig, schema string) (*owner, error) {
	conn, err := lock(ctx, cfg, schema)
	if err == nil {
		err = migrate(ctx, conn, schema)
	}
	if err != nil {
		if conn != nil {
			conn.Close(context.Background())
		}
		return nil, err
	}
	return &owner{cfg: cfg, schema: schema, conn: conn, stop: make(chan struct{})}, nil
}

// lock opens a connection and takes the schema's lock on it; the
// connection is returned with ErrLocked too, for the caller to close.
func lock(ctx context.Context, cfg *pgx.ConnConfig, schema string) (*pgx.Conn, error) {
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("pgstore: connect: %w", err)
	}
	var got bool
	err = conn.QueryRow(ctx, "SELECT pg_try_advisory_lock($1)", lockKey(schema)).Scan(&got)
	if err == nil && !got {
		err = fmt.Errorf("%w: schema %s", ErrLocked, schema)
	}
	return conn, err
}

// watch checks the connection every interval until release.
func (o *owner) watch(interval, timeout time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-o.stop:
			return
		case <-t.C:
			o.check(timeout)
		}
	}
}

// check pings the connection and, when it is gone, takes the lock again
// on a new one; a database still down is tried again next time.
func (o *owner) check(timeout time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.lost.Load() || o.conn.Ping(ctx) == nil {
		return
	}
	conn, err := lock(ctx, o.cfg, o.schema)
	switch {
	case errors.Is(err, ErrLocked):
		conn.Close(context.Background())
		o.lost.Store(true)
		slog.Error("pgstore: the schema's lock was taken by another process while the database was unreachable; refusing every request", "schema", o.schema)
	case err == nil:
		o.conn.Close(context.Background())
		o.conn = conn
	case conn != nil:
		conn.Close(context.Background())
	}
}

// release stops the watch and closes the connection, which releases the
// lock.
func (o *owner) release() {
	select {
	case <-o.stop:
	default:
		close(o.stop)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.conn.Close(context.Background())
}
