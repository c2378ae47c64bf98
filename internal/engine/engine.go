package engine

import (
	"cmp"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sortkeydb/sortkey/internal/backup"

	"github.com/sortkeydb/sortkey/internal/storage"
)

// DefaultAccount is the AWS account id in every ARN unless Options.Account
// names another: sortkey has one set of tables for all callers, whatever
// their credentials.
const DefaultAccount = "000000000000"

// Options configure an Engine.
type Options struct {
	Dir      string           // data directory (ignored when InMemory)
	InMemory bool             // keep everything in memory
	Region   string           // region named in ARNs; default us-east-1
	Now      func() time.Time // clock; default time.Now (tests inject one)
	// ItemCollectionLimit caps an item collection's size in bytes; 0 means
	// DynamoDB's 10 GB. Tests set it low to reach the limit.
	ItemCollectionLimit int64
	// TTLInterval is how often expired items are swept; 0 means
	// DefaultTTLInterval, a negative value turns the background sweeper
	// off (SweepExpired still works).
	TTLInterval time.Duration
	// TransientDelay is how long a table or index stays CREATING, UPDATING
	// or DELETING after a change (DynamoDB takes seconds); 0 means the
	// change is complete at once, as it always is underneath.
	TransientDelay time.Duration
	// Account is the 12-digit account id in every ARN; "" means
	// DefaultAccount. Access control sets it to the account its
	// principals belong to, so that policies name the tables' real ARNs.
	Account string
	// CheckPolicy judges a resource-based policy document before
	// PutResourcePolicy or CreateTable stores it; its error's text is
	// the detail of DynamoDB's "Invalid policy document" answer. nil
	// means only that the document must be a JSON object.
	CheckPolicy func(doc []byte) error
	// Limiter enforces tables' capacity (see Limiter); nil enforces none.
	Limiter Limiter
	// IndexLag is how long a write takes to reach global secondary
	// indexes; StaleReads how long eventually consistent reads of tables
	// and local indexes may still see what it replaced. 0, the default,
	// is neither; times are by Now. LagBudget caps the bytes of previous
	// versions kept for them; 0 means DefaultLagBudget.
	IndexLag, StaleReads time.Duration
	LagBudget            int
	// PITRWindow caps how far back point-in-time recovery reaches; 0
	// means DynamoDB's 35 days. History older than it is deleted.
	PITRWindow time.Duration
	// CacheSize bounds the storage's block cache in bytes; 0 means
	// storage.DefaultCacheSize.
	CacheSize int64
	// Store, a postgres:// URL, keeps the data in PostgreSQL instead of
	// Pebble (storage.Options.URL).
	Store string
	// StartClock, with a virtual clock, positions it from the time the
	// store saved (vclock.go); nil for any other clock.
	StartClock StartClock
	// Replicated, when set, is called after each write of a replica of a
	// global table has left changes for other regions (replication.go),
	// to wake whatever sends them. It must not block.
	Replicated func()
	// Strong holds and sends the writes of replicas whose group is
	// STRONG (strong.go); nil serves none.
	Strong StrongReplication
}

// Engine is an open database.
type Engine struct {
	db     *storage.DB
	region string
	// account is the account id in ARNs (Options.Account).
	account     string
	arnPrefix   string // a table's ARN but its name; every request with access control on builds one
	checkPolicy func(doc []byte) error
	now         func() time.Time
	limit       Limiter  // nil: capacity is not enforced
	lag         *lagging // nil: every read sees the present
	locks       lockTable

	collectionLimit int64
	holds           holds // the items in-flight transactions hold (conflicts.go)

	pitrWindow time.Duration // Options.PITRWindow
	historySeq atomic.Uint64 // the last history record number issued (pitr.go)

	mu     sync.RWMutex // guards tables, deleting and the catalog on disk
	tables map[string]*table
	lastID uint64
	seqRaw []byte // lastID as stored, which a new id's commit guards

	delay    time.Duration           // Options.TransientDelay
	deleting map[string]deletedTable // tables still shown as DELETING

	bg        sync.WaitGroup // index backfills and vector graph builds
	vectors   vectorCache    // vector indexes' in-memory graphs (vectorcache.go)
	graphDir  string         // where a clean Close saves them; "" when it does not (graphsave.go)
	backfills sync.Map       // the running ones' backfillJob
	sweeping  sync.WaitGroup // the TTL sweeper
	closing   chan struct{}  // closed by Close to stop background work
	// lastSweep is when the TTL sweeper last finished a pass, in Unix ms
	// by the engine's clock (LastSweep).
	lastSweep atomic.Int64

	replicated func()            // Options.Replicated
	strong     StrongReplication // Options.Strong
}

// openStore opens the store opts name, for Open and Upgrade.
func openStore(opts Options) (*storage.DB, error) {
	return storage.Open(storage.Options{Dir: opts.Dir, InMemory: opts.InMemory, CacheSize: opts.CacheSize, URL: opts.Store})
}

// Open opens the store and loads the catalog.
func Open(opts Options) (*Engine, error) {
	if opts.Account != "" && !accountID(opts.Account) {
		return nil, fmt.Errorf("engine: account %q is not a 12-digit AWS account id", opts.Account)
	}
	db, err := openStore(opts)
	if err != nil {
		return nil, err
	}
	e := &Engine{db: db, region: opts.Region, now: opts.Now, tables: map[string]*table{}, closing: make(chan struct{}),
		delay: opts.TransientDelay, deleting: map[string]deletedTable{},
		account: cmp.Or(opts.Account, DefaultAccount), checkPolicy: opts.CheckPolicy, limit: opts.Limiter,
		lag: newLagging(opts), pitrWindow: cmp.Or(opts.PITRWindow, backup.DefaultWindow), replicated: opts.Replicated, strong: opts.Strong}
	if e.region == "" {
		e.region = "us-east-1"
	}
	e.arnPrefix = "arn:aws:dynamodb:" + e.region + ":" + e.account + ":table/"
	if e.now == nil {
		e.now = time.Now
	}
	e.collectionLimit = cmp.Or(opts.ItemCollectionLimit, DefaultItemCollectionLimit)
	if err := e.loadCatalog(); err != nil {
		db.Close()
		return nil, fmt.Errorf("engine: load catalog: %w", err)
	}
	if !opts.InMemory && !db.Shared() {
		e.graphDir = filepath.Join(opts.Dir, graphDirName)
	}
	// Before anything is written: the saved graphs are valid only until
	// the first write.
	if err := e.loadGraphs(); err != nil {
		db.Close()
		return nil, fmt.Errorf("engine: saved vector graphs: %w", err)
	}
	// The clock before any work that tells the time, after the catalog
	// so that a store Open refuses is not written.
	if err := e.startClock(opts.StartClock); err != nil {
		db.Close()
		return nil, err
	}
	if err := errors.Join(e.seedHistory(), e.dropUnfinishedBackups()); err != nil {
		db.Close()
		return nil, fmt.Errorf("engine: backups: %w", err)
	}
	e.resumeBackfills()
	if db.Shared() {
		e.sweeping.Add(1)
		go e.catalogLoop(catalogInterval)
	}
	if interval := cmp.Or(opts.TTLInterval, DefaultTTLInterval); interval > 0 {
		e.sweeping.Add(1)
		go e.sweepLoop(interval)
	}
	return e, nil
}

// Close stops background work, saves the vector graphs (graphsave.go)
// and closes the store. Every acknowledged write is already durable; an
// unfinished backfill resumes at next Open. The item lock stripes stay
// held from the save on, so no write can land after it.
func (e *Engine) Close() error {
	close(e.closing)
	e.bg.Wait()
	e.sweeping.Wait()
	if e.savesGraphs() {
		defer e.locks.lockEvery()()
		e.mu.Lock()
		defer e.mu.Unlock()
		e.saveGraphs()
	}
	return e.db.Close()
}

// Settle flushes and compacts the store (see storage.DB.Settle); for
// benchmarks that load a table and then measure reads.
func (e *Engine) Settle() error { return e.db.Settle() }

// Region is the region named in ARNs.
func (e *Engine) Region() string { return e.region }

// Account is the account id named in ARNs.
func (e *Engine) Account() string { return e.account }

// lockTable serializes writers of the same item. Striping bounds memory; two
// items sharing a stripe only wait for each other, which is harmless.
type lockTable struct {
	stripes [1024]sync.Mutex
}

// stripeOf is the lock stripe hash of a storage key: FNV-1a, which is
// cheap, since stripes live in one process and need no stable order.
func stripeOf(key []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range key {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return h
}

func (l *lockTable) lock(h uint64) func() {
	m := &l.stripes[h%uint64(len(l.stripes))]
	m.Lock()
	return m.Unlock
}
