package sortkey

import (
	"net/http"
	"time"

	"github.com/sortkeydb/sortkey/internal/auth"
	"github.com/sortkeydb/sortkey/internal/console"
	"github.com/sortkeydb/sortkey/internal/engine"
	"github.com/sortkeydb/sortkey/internal/server"
	"github.com/sortkeydb/sortkey/internal/throttle"
)

// Options configure a DB. The zero value (or nil) means on disk, us-east-1.
type Options struct {
	// InMemory keeps all data in memory; nothing is written to dir.
	InMemory bool
	// Region is the region named in ARNs. Default "us-east-1". Clients of
	// any region (and any credentials) see the same tables.
	Region string
	// Now is the clock; nil means time.Now. Tests inject one to control
	// timestamps.
	Now func() time.Time
	// ItemCollectionLimit caps the size in bytes of an item collection (a
	// partition key's items and local secondary index entries); writes past
	// it fail with ItemCollectionSizeLimitExceededException. 0 means
	// DynamoDB's 10 GB; tests set it low to reach the limit.
	ItemCollectionLimit int64
	// TTLInterval is how often items whose Time to Live has passed are
	// deleted in the background: 0 means every 2 seconds, a negative value
	// never (call SweepExpired instead).
	TTLInterval time.Duration
	// TransientDelay is how long tables and indexes stay CREATING,
	// UPDATING or DELETING after a change, with DynamoDB's refusals
	// meanwhile (item requests to a table being created, changes to a
	// table being created or updated). 0, the default, completes every
	// change at once, as DynamoDB Local does unless told otherwise.
	// Transient statuses are timed by Now, so a test moves its clock
	// instead of waiting.
	TransientDelay time.Duration
	// Auth turns access control on: it is an auth file's JSON, the
	// principals that may call the server with their keys, tags and IAM
	// policies (docs/ACCESS-CONTROL.md). Every request must then be signed
	// with SigV4 by one of them and be allowed by its policies and the
	// resource-based policies of what it touches. nil, the default, takes
	// any request and any credentials.
	Auth []byte
	// Account is the 12-digit AWS account id named in table, index and
	// stream ARNs. Default "000000000000", or with Auth the auth file's
	// account, so that the ARNs in its policies are the tables' own. A
	// database reopened under another account names its tables there.
	Account string
	// Design turns design coverage on: it is a design file's YAML or
	// JSON (docs/DESIGN-FILES.md). Every request is then counted under the
	// pattern it serves (DB.DesignReport, GET /sortkey/design/report).
	Design []byte
	// Coverage is design coverage shared with other DBs (NewCoverage),
	// for a report over many servers; set it or Design, not both.
	Coverage *Coverage
	// Console serves the web console at /console/ on Handler (GET only,
	// docs/CONSOLE.md): read-only pages of tables, item collections and
	// indexes, read through the API as a client would. With Auth, it
	// shows no data, only that it is off until console sign-in exists.
	Console bool
	// EnforceCapacity throttles requests as DynamoDB does at tables' and
	// global secondary indexes' capacity (docs/TESTING-FAILURES.md):
	// provisioned throughput with 300 seconds of burst, on-demand maximums
	// (OnDemandThroughput), and per-partition ceilings. Throttled requests
	// fail with ProvisionedThroughputExceededException or
	// ThrottlingException, and batches return what was throttled as
	// UnprocessedItems or UnprocessedKeys. Capacity refills by Now, so a
	// test moves its clock instead of waiting. false, the default, never
	// throttles.
	EnforceCapacity bool
}

// DB is an open sortkey database.
type DB struct {
	eng     *engine.Engine
	handler http.Handler
	auth    *auth.Authorizer // nil when access control is off
	cov     *Coverage        // nil when no design was given
}

// Open opens (or creates) the database in dir. With Options.InMemory, dir
// is ignored. A dir already open in another process is refused.
func Open(dir string, opts *Options) (*DB, error) {
	if opts == nil {
		opts = &Options{}
	}
	cfg, account, err := authConfig(opts.Auth, opts.Account)
	if err != nil {
		return nil, err
	}
	cov, err := coverageOf(opts)
	if err != nil {
		return nil, err
	}
	eng, err := engine.Open(engine.Options{Dir: dir, InMemory: opts.InMemory, Region: opts.Region, Now: opts.Now,
		ItemCollectionLimit: opts.ItemCollectionLimit, TTLInterval: opts.TTLInterval, TransientDelay: opts.TransientDelay,
		Account: account, CheckPolicy: checkResourcePolicy, Limiter: limiterOf(opts)})
	if err != nil {
		return nil, err
	}
	db := &DB{eng: eng, cov: cov}
	h := server.New(eng, db.guard(cfg, opts.Now))
	if cov != nil {
		h.SetObserver(cov.rec)
	}
	mountConsole(h, opts, cfg != nil, cov)
	db.handler = h
	return db, nil
}

// Handler serves DynamoDB's HTTP API (POST / with X-Amz-Target).
func (db *DB) Handler() http.Handler { return db.handler }

// Limits of `sortkey serve` on its connections, the defaults of its flags.
const (
	// DefaultReadTimeout bounds how long a whole request, headers and body,
	// may take to arrive. A 16 MiB BatchWriteItem body fits in it at about
	// 2.2 Mbit/s; a client sending slower, or stalled, is cut off.
	DefaultReadTimeout = 60 * time.Second
	// DefaultIdleTimeout closes a keep-alive connection idle this long. It
	// is above the idle timeouts of AWS SDK connection pools (Go's 90 s,
	// Java's 60 s), so a client usually closes first; a client that
	// meets a connection closed while idle retries on a new one.
	DefaultIdleTimeout = 120 * time.Second
	// DefaultMaxHeaderBytes caps a request's headers; SigV4 headers with a
	// session token take a few KiB.
	DefaultMaxHeaderBytes = 64 << 10
)

// headerTimeout bounds the wait for a request's headers, the first
// request's too, since a connection is not yet idle before it.
const headerTimeout = 10 * time.Second

// HTTPServer returns a new http.Server of Handler with the limits of
// `sortkey serve`: DefaultReadTimeout, DefaultIdleTimeout and
// DefaultMaxHeaderBytes. srv.Serve(ln) serves; srv.Shutdown stops.
func (db *DB) HTTPServer() *http.Server {
	return &http.Server{
		Handler:           db.handler,
		ReadHeaderTimeout: headerTimeout,
		ReadTimeout:       DefaultReadTimeout,
		IdleTimeout:       DefaultIdleTimeout,
		MaxHeaderBytes:    DefaultMaxHeaderBytes,
	}
}

// Region is the region in the database's ARNs.
func (db *DB) Region() string { return db.eng.Region() }

// Account is the account id in the database's ARNs.
func (db *DB) Account() string { return db.eng.Account() }

// SweepExpired deletes, now, every item whose Time to Live has passed by
// the database's clock, and returns how many. With an injected clock
// (Options.Now) a test moves time forward and calls it instead of waiting
// for the background sweeper.
func (db *DB) SweepExpired() (int, error) { return db.eng.SweepExpired() }

// Close closes the database. Stop serving its Handler first: requests that
// arrive after Close fail.
func (db *DB) Close() error { return db.eng.Close() }

// mountConsole serves the console on h when on; with access control on it
// is the locked console, since it has no sign-in to act as a principal.
func mountConsole(h *server.Handler, opts *Options, accessControl bool, cov *Coverage) {
	switch {
	case !opts.Console:
	case accessControl:
		h.SetConsole(console.Locked())
	default:
		c := console.New(h)
		if opts.Now != nil {
			c.SetClock(opts.Now)
		}
		if cov != nil {
			c.SetDesign(cov.d, cov.rec.Report)
		}
		h.SetConsole(c)
	}
}

// limiterOf is the engine's capacity limiter: nil, enforcing nothing,
// unless EnforceCapacity.
func limiterOf(opts *Options) engine.Limiter {
	if !opts.EnforceCapacity {
		return nil
	}
	return throttle.New(opts.Now)
}
