package pgstore

import (
	"context"
	"fmt"
	"hash/fnv"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
)

// Many sortkey processes may share a schema: their writes are guarded
// (guard.go). Work that must happen once, not once per process (the TTL
// sweeper, trims, backfills), is the leader's: the process holding the
// schema's advisory lock. A session lock lives and dies with its
// connection, so when the leader dies PostgreSQL releases its lock and
// another process takes it at its next check.

// ownerCheck is how often the lease's connection is checked, and the
// lock tried by a process that does not hold it.
const ownerCheck = time.Second

// lockKey is the advisory lock that marks a schema's leader; migrateKey
// serialises processes that create or migrate the schema at once.
func lockKey(schema string) int64    { return hashKey("sortkey schema " + schema) }
func migrateKey(schema string) int64 { return hashKey("sortkey migrate " + schema) }

func hashKey(s string) int64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return int64(h.Sum64())
}

// owner holds the lease's connection for as long as the store is open.
type owner struct {
	cfg    *pgx.ConnConfig
	schema string
	mu     sync.Mutex // guards conn
	conn   *pgx.Conn
	leader atomic.Bool
	stop   chan struct{}
}

// own connects, brings the schema to this version and tries the lease.
func own(ctx context.Context, cfg *pgx.ConnConfig, schema string) (*owner, error) {
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("pgstore: connect: %w", err)
	}
	if err = migrateLocked(ctx, conn, schema); err != nil {
		conn.Close(context.Background())
		return nil, err
	}
	o := &owner{cfg: cfg, schema: schema, conn: conn, stop: make(chan struct{})}
	o.tryLease(ctx)
	return o, nil
}

// migrateLocked migrates under a lock of its own, released at once.
func migrateLocked(ctx context.Context, conn *pgx.Conn, schema string) error {
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", migrateKey(schema)); err != nil {
		return err
	}
	err := migrate(ctx, conn, schema)
	if _, uerr := conn.Exec(ctx, "SELECT pg_advisory_unlock($1)", migrateKey(schema)); err == nil {
		err = uerr
	}
	return err
}

// tryLease takes the lease if it is free. The caller holds o.mu or has
// not shared o yet.
func (o *owner) tryLease(ctx context.Context) {
	var got bool
	if o.conn.QueryRow(ctx, "SELECT pg_try_advisory_lock($1)", lockKey(o.schema)).Scan(&got) == nil && got {
		o.leader.Store(true)
		slog.Info("pgstore: this process leads the schema's background work", "schema", o.schema)
	}
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

// check pings the connection; when it is gone, so is the lease, and a
// new connection tries again. A follower tries the lease every time.
func (o *owner) check(timeout time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.conn.Ping(ctx) != nil {
		o.leader.Store(false)
		conn, err := pgx.ConnectConfig(ctx, o.cfg)
		if err != nil {
			return // the database is still down: next time
		}
		o.conn.Close(context.Background())
		o.conn = conn
	}
	if !o.leader.Load() {
		o.tryLease(ctx)
	}
}

// release stops the watch and closes the connection, which releases the
// lease.
func (o *owner) release() {
	select {
	case <-o.stop:
	default:
		close(o.stop)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.leader.Store(false)
	o.conn.Close(context.Background())
}
