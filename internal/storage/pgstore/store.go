package pgstore

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/url"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Options say which database and schema.
type Options struct {
	// URL is a PostgreSQL connection URL; beside libpq's and pgxpool's
	// parameters (pool_max_conns, …) it takes sortkey's own, which are
	// not sent to the server: schema (default DefaultSchema) and timeout
	// (a Go duration, default DefaultTimeout).
	URL string
	// Temporary drops the schema at Close: a throwaway store for tests.
	Temporary bool
	// Schema, when set, overrides the URL's schema parameter.
	Schema string
}

// DefaultSchema holds sortkey's tables unless the URL names another.
const DefaultSchema = "sortkey"

// DefaultTimeout bounds one statement's round trip, retries included:
// a database that does not answer fails the request instead of holding
// it. A snapshot's transaction is not bounded; its statements are.
const DefaultTimeout = 10 * time.Second

// defaultMaxConns is the pool's size unless pool_max_conns says: enough
// for a server's concurrent requests, each of which holds a connection
// for one statement at a time.
const defaultMaxConns = 32

// Store is an open PostgreSQL store.
type Store struct {
	pool      *pgxpool.Pool
	owner     *owner
	schema    string
	temporary bool
	timeout   time.Duration
	sql       statements
	slots     chan int // batch.go
	closed    atomic.Bool
	stats     Stats // stats.go
}

// ErrClosed is the answer of a Store once closed.
var ErrClosed = errors.New("pgstore: closed")

// Open connects, creates or migrates the schema, and tries its lease
// (owner.go); other processes may share the schema.
func Open(ctx context.Context, opts Options) (*Store, error) {
	cfg, schema, timeout, err := parseURL(opts.URL)
	if err != nil {
		return nil, err
	}
	schema = cmp.Or(opts.Schema, schema)
	s := &Store{schema: schema, temporary: opts.Temporary, timeout: timeout, sql: newStatements(ident(schema)),
		slots: newSlots(int(cfg.MaxConns))}
	ctx, cancel := context.WithTimeout(ctx, 2*timeout)
	defer cancel()
	// The owner's connection is not the requests': its statements are
	// not counted among their round trips.
	if s.owner, err = own(ctx, cfg.ConnConfig.Copy(), schema); err != nil {
		return nil, err
	}
	go s.owner.watch(ownerCheck, timeout)
	cfg.ConnConfig.Tracer = &s.stats
	if s.pool, err = pgxpool.NewWithConfig(context.Background(), cfg); err != nil {
		s.owner.release()
		return nil, fmt.Errorf("pgstore: %w", err)
	}
	return s, nil
}

// parseURL splits sortkey's own parameters off the URL and parses the
// rest as pgxpool does.
func parseURL(raw string) (*pgxpool.Config, string, time.Duration, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return nil, "", 0, fmt.Errorf("pgstore: %q is not a postgres:// URL", redact(raw))
	}
	q := u.Query()
	schema, timeout := cmp.Or(q.Get("schema"), DefaultSchema), DefaultTimeout
	if t := q.Get("timeout"); t != "" {
		if timeout, err = time.ParseDuration(t); err != nil || timeout <= 0 {
			return nil, "", 0, fmt.Errorf("pgstore: timeout %q is not a positive duration such as 5s", t)
		}
	}
	q.Del("schema")
	q.Del("timeout")
	u.RawQuery = q.Encode()
	cfg, err := pgxpool.ParseConfig(u.String())
	if err != nil {
		return nil, "", 0, fmt.Errorf("pgstore: %s: %w", redact(raw), err)
	}
	if !q.Has("pool_max_conns") {
		cfg.MaxConns = defaultMaxConns
	}
	return cfg, schema, timeout, nil
}

// redact hides a password in a URL quoted in an error or a log line.
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}

// Schema is the schema the store owns.
func (s *Store) Schema() string { return s.schema }

// Leader reports whether this process holds the schema's lease: whether
// the work done once per schema is its to do.
func (s *Store) Leader() bool { return s.owner.leader.Load() }

// Close releases the pool and the schema; a Temporary store's schema is
// dropped first.
func (s *Store) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	var err error
	if s.temporary {
		ctx, cancel := s.ctx()
		_, err = s.pool.Exec(ctx, "DROP SCHEMA IF EXISTS "+ident(s.schema)+" CASCADE")
		cancel()
	}
	s.pool.Close()
	s.owner.release()
	return err
}

func (s *Store) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), s.timeout)
}

// statements are the SQL the store runs, with its schema's name in place.
type statements struct {
	get, getStats                           string
	scan, scanOpen, scanBack, scanBackOpen  string
	set, del, delRange, delRangeOpen, stats string
	delStats, delStatsOpen                  string
	guard, guardLast                        string
}

func newStatements(q string) statements {
	kv, c := q+".kv", q+".counters"
	return statements{
		get:          "SELECT v FROM " + kv + " WHERE k = $1",
		getStats:     "SELECT coalesce(sum(items), 0)::bigint, coalesce(sum(bytes), 0)::bigint FROM " + c + " WHERE k = $1",
		scan:         "SELECT k, v FROM " + kv + " WHERE k >= $1 AND k < $2 ORDER BY k LIMIT $3",
		scanOpen:     "SELECT k, v FROM " + kv + " WHERE k >= $1 ORDER BY k LIMIT $2",
		scanBack:     "SELECT k, v FROM " + kv + " WHERE k >= $1 AND k < $2 ORDER BY k DESC LIMIT $3",
		scanBackOpen: "SELECT k, v FROM " + kv + " WHERE k >= $1 ORDER BY k DESC LIMIT $2",
		set:          "INSERT INTO " + kv + " (k, v) VALUES ($1, $2) ON CONFLICT (k) DO UPDATE SET v = excluded.v",
		del:          "DELETE FROM " + kv + " WHERE k = $1",
		delRange:     "DELETE FROM " + kv + " WHERE k >= $1 AND k < $2",
		delRangeOpen: "DELETE FROM " + kv + " WHERE k >= $1",
		delStats:     "DELETE FROM " + c + " WHERE k >= $1 AND k < $2",
		delStatsOpen: "DELETE FROM " + c + " WHERE k >= $1",
		guard:        "SELECT " + q + ".guard($1, $2, $3, $4)",
		guardLast:    "SELECT " + q + ".guard_last($1, $2, $3, $4)",
		stats: "INSERT INTO " + c + " AS c (k, shard, items, bytes) VALUES ($1, $2, $3, $4) " +
			"ON CONFLICT (k, shard) DO UPDATE SET items = c.items + excluded.items, bytes = c.bytes + excluded.bytes",
	}
}
