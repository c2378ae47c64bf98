package sortkey

import (
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/sortkeydb/sortkey/internal/auth"
	"github.com/sortkeydb/sortkey/internal/console"
	"github.com/sortkeydb/sortkey/internal/engine"
	"github.com/sortkeydb/sortkey/internal/exports"
	"github.com/sortkeydb/sortkey/internal/faults"
	"github.com/sortkeydb/sortkey/internal/imports"
	"github.com/sortkeydb/sortkey/internal/metrics"
	"github.com/sortkeydb/sortkey/internal/regions"
	"github.com/sortkeydb/sortkey/internal/server"
	"github.com/sortkeydb/sortkey/internal/storage"
	"github.com/sortkeydb/sortkey/internal/throttle"
)

// Options configure a DB. The zero value (or nil) means on disk, us-east-1.
type Options struct {
	// InMemory keeps all data in memory; nothing is written to dir.
	InMemory bool
	// Store keeps the data in PostgreSQL (or a PostgreSQL-wire database)
	// instead of Pebble: a postgres://USER@HOST:PORT/DB URL, with the
	// optional parameters schema (default "sortkey") and timeout (one
	// statement's bound, default 10s) beside libpq's (docs/STORES.md).
	// dir and InMemory are then not used.
	Store string
	// Region is the region named in ARNs. Default "us-east-1". Clients of
	// any region (and any credentials) see the same tables, unless Regions
	// is RegionsSeparate; Region is then the region of requests that name
	// none.
	Region string
	// Regions is RegionsShared ("" too), every region seeing the same
	// tables as sortkey always has, or RegionsSeparate: each region its
	// own tables, by the region of the request's SigV4 credential scope,
	// and global tables replicated between them (docs/GLOBAL-TABLES.md).
	Regions string
	// ReplicationLag is how long a write to a replica of a global table
	// takes to reach the other regions, by the database's clock: 0 means
	// DefaultReplicationLag, a negative value sends each write at once.
	ReplicationLag time.Duration
	// Now is the clock; nil means time.Now. Tests inject one to control
	// timestamps. Set it or Clock, not both.
	Now func() time.Time
	// Clock runs the database on a virtual clock (NewVirtualClock) that
	// moves only when told, by Clock.Advance and Clock.Set or by POST
	// ClockPath on Handler: Time to Live, stream retention and iterators,
	// creation times, transient statuses and client token windows all
	// follow it, and each move deletes what expired at once. Signatures
	// (SigV4's 15-minute window) and IAM's aws:CurrentTime keep the real
	// time: a client signs with its own clock. Each move is saved in
	// the store, and a database opened again on it with a clock started
	// at the real time (a zero start) resumes where the clock stood;
	// started at a time before that, Open refuses (ErrClockRewind).
	Clock *VirtualClock
	// ClockRewind lets Clock start before the time the store's virtual
	// clock reached: time then runs back, and what was dated after the
	// start is dated in the future.
	ClockRewind bool
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
	// CacheSize bounds, in bytes, the block cache: the blocks of the
	// storage's files kept decompressed in memory, which spare point reads
	// a disk read and a checksum. It also holds the storage's memtables
	// (up to 4 MiB each), so a cache below about 8 MiB keeps few blocks.
	// 0 means DefaultCacheSize; negative is refused.
	CacheSize int64
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
	// Console serves the web console at /console/ on Handler
	// (docs/CONSOLE.md): pages of tables, item collections and indexes,
	// and its forms, reading and writing through the API as a client
	// would. With Auth, it asks for one of the auth file's credentials
	// and acts as that principal, allowed only what its policies allow.
	Console bool
	// Metrics counts requests, latency, consumed capacity and storage
	// statistics (docs/METRICS.md), served in Prometheus's text format
	// at GET /metrics on Handler and by MetricsHandler, and shown live
	// by the console. sortkey serve turns it on; off by default.
	Metrics bool
	// MetricsApart serves the metrics only through MetricsHandler, not
	// at /metrics on Handler (sortkey serve --metrics-addr).
	MetricsApart bool
	// Faults are fault rules (docs/TESTING-FAILURES.md), a rule file's
	// JSON or YAML: errors, partial batches, latency and dropped
	// connections on demand. nil, the default, injects none; DB.SetFaults
	// changes them while serving.
	Faults []byte
	// Admin serves sortkey's admin API under /sortkey/ on Handler (PUT,
	// GET and DELETE /sortkey/faults), for clients on this machine only
	// unless AdminRemote.
	Admin       bool
	AdminRemote bool
	// EnforceCapacity throttles requests as DynamoDB does at tables' and
	// global secondary indexes' capacity (docs/TESTING-FAILURES.md):
	// provisioned throughput with 300 seconds of burst, on-demand maximums
	// (OnDemandThroughput), and per-partition ceilings. Throttled requests
	// fail with ProvisionedThroughputExceededException or
	// ThrottlingException, and batches return what was throttled as
	// UnprocessedItems or UnprocessedKeys. Capacity refills by the clock (Now
	// or Clock), so a
	// test moves its clock instead of waiting. false, the default, never
	// throttles.
	EnforceCapacity bool
	// Health serves sortkey's own health check at GET /sortkey/health on
	// Handler (docs/OPERATIONS.md): 200 with a JSON report when the
	// storage takes a durable write and serves a read, 503 when it does
	// not (or the DB is closed). sortkey serve turns it on; off by
	// default, when that path is DynamoDB's health check like any other.
	Health bool
	// RequestLog receives request logs (docs/OPERATIONS.md): a line per
	// API call at debug level when it is enabled for debug, with the
	// request id the client received, the operation, status, error code
	// and duration, and a warning for each call slower than SlowRequest.
	// nil, the default, logs no requests.
	RequestLog  *slog.Logger
	SlowRequest time.Duration // 0: no slow-request warnings

	// IndexLag makes global secondary indexes lag behind their tables, as
	// DynamoDB's do (docs/TESTING-FAILURES.md#index-lag-and-stale-reads):
	// a Query or Scan of one sees a write made at T only once the clock
	// (Now or Clock) reaches T+IndexLag, and until then sees what the
	// write replaced. 0, the default, shows every write at once.
	IndexLag time.Duration
	// StaleReadWindow makes eventually consistent reads stale: a GetItem,
	// BatchGetItem, Query or Scan of a table or local secondary index with
	// ConsistentRead false sees a write made at T only from
	// T+StaleReadWindow on, and until then the version it replaced.
	// Strongly consistent reads and TransactGetItems always see the
	// latest; global secondary index reads are at least this stale. 0,
	// the default, shows every write at once.
	StaleReadWindow time.Duration
	// PITRWindow caps how far back point-in-time recovery reaches (by the
	// database clock); 0 means DynamoDB's 35 days.
	PITRWindow time.Duration

	// S3Dirs maps S3 bucket names to local folders, and S3Root is a folder
	// whose subfolders are buckets, for ImportTable and
	// ExportTableToPointInTime (docs/DATA.md): an import reads the objects
	// under its S3KeyPrefix from the bucket's folder, an export writes
	// <S3Prefix>/AWSDynamoDB/<ExportId>/ there. With neither, both are
	// refused with a message saying how to map a bucket. sortkey serve
	// --s3-dir sets them.
	S3Dirs map[string]string
	S3Root string
	// ImportLogDir is where an import logs the items it did not import,
	// in place of CloudWatch Logs: import-<ImportId>-errors.jsonl, made
	// at the first such item. "" means sortkey-imports in the system's
	// temporary folder.
	ImportLogDir string
}

// ErrNegativeLag refuses a negative Options.IndexLag or StaleReadWindow.
var ErrNegativeLag = errors.New("Options.IndexLag and Options.StaleReadWindow must not be negative")

// ErrUpgrade is Open's refusal of a dir (or store) an earlier sortkey
// wrote in a layout this one does not read: `sortkey upgrade` converts
// it, once (docs/OPERATIONS.md).
var ErrUpgrade = engine.ErrUpgrade

// DB is an open sortkey database.
type DB struct {
	eng     *engine.Engine // the default region's
	regions *regions.Set   // nil unless Options.Regions is RegionsSeparate
	handler http.Handler
	auth    *auth.Authorizer // nil when access control is off; the default region's
	// regionAuth is every region's Authorizer when regions are kept apart
	// and access control is on (auth.go).
	regionAuth *regionalGuard
	cov        *Coverage // nil when no design was given

	clock     *VirtualClock // Options.Clock
	stopClock func()
	moving    sync.RWMutex // held by a clock move's catch-up; Close waits for it
	saving    sync.Mutex   // held by a clock move's save of the time
	closed    bool
	metrics   *metrics.Metrics // nil when Options.Metrics is off
	faults    *faults.Injector
	imports   *imports.Manager
	exports   *exports.Manager

	requests inFlight // Handler's requests running, which Close waits for
}

// Open opens (or creates) the database in dir. With Options.InMemory, dir
// is ignored. A dir already open in another process is refused, as is
// one an earlier sortkey wrote and nobody has upgraded (ErrUpgrade).
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
	now, err := clockFunc(opts)
	if err != nil {
		return nil, err
	}
	if opts.IndexLag < 0 || opts.StaleReadWindow < 0 {
		return nil, ErrNegativeLag
	}
	eo := engine.Options{Dir: dir, InMemory: opts.InMemory, Store: opts.Store, Region: opts.Region, Now: now,
		ItemCollectionLimit: opts.ItemCollectionLimit, TTLInterval: opts.TTLInterval, TransientDelay: opts.TransientDelay,
		Account: account, CheckPolicy: checkResourcePolicy, Limiter: limiterOf(opts, now),
		IndexLag: opts.IndexLag, StaleReads: opts.StaleReadWindow, CacheSize: opts.CacheSize,
		PITRWindow: opts.PITRWindow, StartClock: startClock(opts)}
	db := &DB{cov: cov}
	if err := db.openEngines(eo, opts); err != nil {
		return nil, err
	}
	eng := db.eng
	h := server.New(eng, db.guard(cfg, opts.Now))
	if db.regions != nil {
		h.SetRegions(db.regions, eng.Region())
	}
	if cov != nil {
		h.SetObserver(cov.rec)
	}
	db.metrics = mountMetrics(h, eng, opts)
	db.replicationMetrics()
	mountConsole(h, opts, now, db.auth, cov, db.metrics)
	if err := db.injectFaults(h, opts, now); err != nil {
		return nil, errors.Join(err, db.closeEngines())
	}
	mountOperations(h, eng, opts)
	db.mountRegions(h, opts)
	if err := mountBuckets(h, opts); err != nil {
		return nil, errors.Join(err, db.closeEngines())
	}
	db.imports, db.exports = h.Imports(), h.Exports()
	db.watchClock(opts.Clock, h)
	db.handler = db.requests.count(h)
	return db, nil
}

// Handler serves DynamoDB's HTTP API (POST / with X-Amz-Target).
func (db *DB) Handler() http.Handler { return db.handler }

// DefaultCacheSize is the block cache of Options.CacheSize 0: enough for
// the index and filter blocks and the hot data of tables of some hundreds
// of thousands of items.
const DefaultCacheSize = storage.DefaultCacheSize

// Limits of `sortkey serve` on its connections, the defaults of its flags.
const (
	// DefaultReadTimeout bounds how long a whole request, headers and body,
	// may take to arrive. A 16 MiB BatchWriteItem body fits in it at about
	// 2.2 Mbit/s; a client sending slower, or stalled, is cut off.
	DefaultReadTimeout = 60 * time.Second
	// DefaultWriteTimeout bounds how long an answer may take to be
	// written, counted, as net/http counts it, from the end of its
	// request's headers: the body's arrival and the handler are inside
	// it. A 16 MiB answer (BatchGetItem's largest) fits in it at about
	// 2.2 Mbit/s after a body that took all of DefaultReadTimeout, or at
	// about 1.1 Mbit/s after a small one; a client reading slower, or not
	// at all, has its connection closed, which frees its handler.
	DefaultWriteTimeout = 120 * time.Second
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
// `sortkey serve`: DefaultReadTimeout, DefaultWriteTimeout,
// DefaultIdleTimeout and DefaultMaxHeaderBytes. srv.Serve(ln) serves;
// srv.Shutdown stops.
func (db *DB) HTTPServer() *http.Server {
	return &http.Server{
		Handler:           db.handler,
		ReadHeaderTimeout: headerTimeout,
		ReadTimeout:       DefaultReadTimeout,
		WriteTimeout:      DefaultWriteTimeout,
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

// Close closes the database, once every request inside its Handler has
// returned. Stop serving the Handler first: requests that arrive after
// Close fail. A request stuck on its client (a body that never ends) holds
// Close until its connection is closed (http.Server.Close), or until the
// server's ReadTimeout or WriteTimeout cuts it off.
func (db *DB) Close() error {
	db.requests.wait()
	db.unwatchClock()
	db.imports.Close()
	db.exports.Close()
	return db.closeEngines()
}

// mountConsole serves the console on h when on; with access control on
// (a non-nil a) it asks for sign-in and acts as the principal signed in.
func mountConsole(h *server.Handler, opts *Options, now func() time.Time, a *auth.Authorizer, cov *Coverage, m *metrics.Metrics) {
	if !opts.Console {
		return
	}
	c := console.New(h)
	if now != nil {
		c.SetClock(now)
	}
	if cov != nil {
		c.SetDesign(cov.d, cov.rec.Report)
	}
	if m != nil {
		c.SetLive(m.Live)
	}
	if a != nil {
		c.RequireSignIn(consolePrincipals{a}, opts.Now)
	}
	h.SetConsole(c)
}

// limiterOf is the engine's capacity limiter: nil, enforcing nothing,
// unless EnforceCapacity.
func limiterOf(opts *Options, now func() time.Time) engine.Limiter {
	if !opts.EnforceCapacity {
		return nil
	}
	return throttle.New(now)
}
