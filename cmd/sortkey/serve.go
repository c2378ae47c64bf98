package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/internal/httpfast"
	"github.com/sortkeydb/sortkey/internal/server"
	"github.com/sortkeydb/sortkey/internal/version"
)

// defaultMaxConnections bounds the memory and file descriptors clients can
// hold (some tens of KiB and one descriptor each, idle), far above what
// the connection pools of even many SDK clients keep open.
const defaultMaxConnections = 4096

type serveFlags struct {
	s3Dirs   s3Dirs
	seed     string
	quiet    bool      // progress.go: no progress while --seed loads
	stderr   io.Writer // progress.go: where --seed's progress goes
	addr     string
	dataDir  string
	inMemory bool
	store    string // servestore.go
	region   string
	// collectionLimit is the item collection size limit in bytes.
	collectionLimit int64
	ttlInterval     time.Duration

	readTimeout    time.Duration
	writeTimeout   time.Duration
	idleTimeout    time.Duration
	maxHeaderBytes int
	maxConnections int
	drainTimeout   time.Duration
	fastHTTP       bool // serve.go: the DynamoDB API's requests through internal/httpfast
	transientDelay time.Duration
	authFile       string
	designFile     string
	console        bool
	clock          clockFlags
	metrics        bool   // servemetrics.go
	metricsAddr    string // "": /metrics on the API port
	faultsFile     string
	admin          bool
	adminRemote    bool
	// enforceCapacity throttles at tables' capacity.
	enforceCapacity bool
	log             logFlags    // servelog.go
	lag             lagFlags    // servelag.go
	regions         regionFlags // serveregions.go
	pitrWindow      lagDuration
	configFile      string   // settings.go
	cacheSize       byteSize // servecache.go
	heapHeadroom    int      // servememory.go
}

func parseServe(args []string, stderr io.Writer) (serveFlags, error) {
	var f serveFlags
	fs := serveFlagSet(&f)
	fs.SetOutput(stderr)
	from, err := parseLayeredFrom(fs, args)
	if err != nil {
		return f, err
	}
	if err := errors.Join(checkMetricsFlags(f), checkCacheSize(f.cacheSize), checkHeapHeadroom(f.heapHeadroom), checkStore(f), checkDataDir(f, from), f.regions.check()); err != nil {
		fmt.Fprintln(stderr, "sortkey serve:", err)
		return f, err
	}
	if err := checkConnFlags(f, stderr); err != nil {
		return f, err
	}
	if err := f.log.check(stderr); err != nil {
		return f, err
	}
	return f, f.clock.check(stderr)
}

// serveFlagSet is serve's flags, set into f; the README's table lists
// every one (TestReadmeListsEveryServeFlag).
func serveFlagSet(f *serveFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.StringVar(&f.addr, "addr", "127.0.0.1:8000", "address to listen on")
	fs.StringVar(&f.dataDir, "data-dir", defaultDataDir, "directory for the data (not with --in-memory)")
	fs.BoolVar(&f.inMemory, "in-memory", false, "keep all data in memory; nothing is written to disk")
	fs.StringVar(&f.store, "store", "", "keep the data in PostgreSQL instead of Pebble: postgres://USER@HOST:PORT/DB?schema=NAME (docs/STORES.md)")
	fs.StringVar(&f.region, "region", "us-east-1", "region named in ARNs, and with --regions separate the region of unsigned requests")
	fs.Int64Var(&f.collectionLimit, "item-collection-limit", 10<<30, "item collection size limit in bytes (tables with local secondary indexes); lower it to test ItemCollectionSizeLimitExceededException")
	fs.DurationVar(&f.ttlInterval, "ttl-interval", 2*time.Second, "how often items whose Time to Live has passed are deleted")
	fs.DurationVar(&f.transientDelay, "transient-delay", 0, "how long tables and indexes stay CREATING, UPDATING or DELETING after a change")
	fs.StringVar(&f.authFile, "auth", "", "turn access control on with this auth file (docs/ACCESS-CONTROL.md): SigV4 and IAM policies; re-read on SIGHUP")
	fs.StringVar(&f.designFile, "design", "", "count every request under its pattern of this design file (docs/DESIGN-FILES.md): GET /sortkey/design/report while serving, a Markdown report on stdout when the server stops")
	fs.BoolVar(&f.console, "console", true, "serve the web console at /console/ (docs/CONSOLE.md); with --auth it asks for one of the auth file's credentials and acts as that principal")
	fs.BoolVar(&f.metrics, "metrics", true, "serve Prometheus metrics at GET /metrics (docs/METRICS.md); with --auth, to clients on this machine only")
	fs.StringVar(&f.metricsAddr, "metrics-addr", "", "serve GET /metrics on this address instead of the API port")
	fs.StringVar(&f.faultsFile, "faults", "", "inject the faults of this rule file, JSON or YAML (docs/TESTING-FAILURES.md): errors, partial batches, latency, dropped connections; re-read on SIGHUP")
	fs.BoolVar(&f.admin, "admin", false, "serve sortkey's admin API under /sortkey/ (PUT, GET, DELETE /sortkey/faults) to clients on this machine")
	fs.BoolVar(&f.adminRemote, "admin-remote", false, "serve the admin API (as --admin) to clients on other machines too, for a server shared by a team")
	fs.BoolVar(&f.enforceCapacity, "enforce-capacity", false, "throttle requests at tables' and indexes' provisioned capacity (300 s of burst), on-demand maximums and per-partition limits, as DynamoDB does (docs/TESTING-FAILURES.md)")
	fs.StringVar(&f.configFile, configFlag, "", "read flags from this YAML or JSON file, its keys the flags' names (in-memory: true); the command line and SORTKEY_* variables win over it")
	f.cacheSize = sortkey.DefaultCacheSize
	fs.Var(&f.cacheSize, "cache-size", "memory for Pebble's block cache (and memtables), e.g. 256MiB or 1GiB")
	fs.IntVar(&f.heapHeadroom, "heap-headroom", defaultHeapHeadroom, "with --in-memory, collect garbage before the Go heap grows this many percent above what is live (never below 64 MiB); 0 keeps Go's default pacing (about 100%); GOMEMLIMIT, when set, wins")
	fs.Var(&f.s3Dirs, "s3-dir", "map S3 buckets to local folders for ImportTable and ExportTableToPointInTime (docs/DATA.md): BUCKET=DIR, repeatable, or one DIR whose subfolders are buckets")
	fs.StringVar(&f.seed, "seed", "", "load this fixture folder (sortkey dump's tables.json and data files) before serving; tables that already exist are left as they are")
	fs.BoolVar(&f.quiet, "quiet", false, seedQuietUsage)
	connFlags(fs, f)
	clockFlagSet(fs, &f.clock)
	logFlagSet(fs, &f.log)
	lagFlagSet(fs, &f.lag)
	regionFlagSet(fs, &f.regions)
	f.pitrWindow = lagDuration(35 * 24 * time.Hour)
	fs.Var(&f.pitrWindow, "pitr-window", "how far back point-in-time recovery reaches, by the server's clock; history older than this is deleted")
	return fs
}

func connFlags(fs *flag.FlagSet, f *serveFlags) {
	fs.DurationVar(&f.readTimeout, "read-timeout", sortkey.DefaultReadTimeout, "a whole request, headers and body, must arrive within it; a slower one is answered 400 and its connection closed")
	fs.DurationVar(&f.writeTimeout, "write-timeout", sortkey.DefaultWriteTimeout, "an answer must be written within it of its request's headers; a client that reads slower, or stops reading, has its connection closed and frees its handler")
	fs.DurationVar(&f.idleTimeout, "idle-timeout", sortkey.DefaultIdleTimeout, "a keep-alive connection idle this long is closed")
	fs.IntVar(&f.maxHeaderBytes, "max-header-bytes", sortkey.DefaultMaxHeaderBytes, "largest request headers accepted, in bytes (larger: 431)")
	fs.IntVar(&f.maxConnections, "max-connections", defaultMaxConnections, "connections open at once; more wait to be accepted until one closes")
	fs.DurationVar(&f.drainTimeout, "drain-timeout", 10*time.Second, "on SIGINT/SIGTERM, how long requests in flight may take to finish before their connections are closed")
	fs.BoolVar(&f.fastHTTP, "fast-http", true, "serve the DynamoDB API's plain POST requests on a leaner HTTP/1.1 path, every other request with Go's net/http; false serves every request with Go's net/http")
}

// checkConnFlags refuses values net/http would read as "no limit" or as
// its own default, so that every limit is the one the flag names.
func checkConnFlags(f serveFlags, stderr io.Writer) error {
	var err error
	switch {
	case f.readTimeout <= 0, f.writeTimeout <= 0, f.idleTimeout <= 0:
		err = errors.New("--read-timeout, --write-timeout and --idle-timeout must be positive")
	case f.maxHeaderBytes <= 0, f.maxConnections <= 0:
		err = errors.New("--max-header-bytes and --max-connections must be positive")
	case f.drainTimeout < 0, f.transientDelay < 0:
		err = errors.New("--drain-timeout and --transient-delay must not be negative")
	}
	if err != nil {
		fmt.Fprintln(stderr, "sortkey serve:", err)
	}
	return err
}

// serve runs the server until SIGINT or SIGTERM, then stops it (see
// shutdown.go) and closes the storage. It exits 0 whenever the storage
// closed cleanly, however the requests in flight ended.
func serve(args []string, stdout, stderr io.Writer) int {
	f, err := parseServe(args, stderr)
	if err != nil {
		return exitUsage(err, serveFlagSet(&serveFlags{}), stdout)
	}
	log := f.log.logger(stderr)
	slog.SetDefault(log)
	f.stderr = stderr
	// Room for two: the first stops gracefully, the second at once.
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	if err := listenAndServe(sigs, f, stdout, log); err != nil {
		log.Error("sortkey serve failed", "err", err)
		return 1
	}
	return 0
}

func listenAndServe(sigs <-chan os.Signal, f serveFlags, stdout io.Writer, log *slog.Logger) error {
	start := time.Now()
	defer followHeap(f)()
	defer walWriterSlots(f)()
	db, ln, err := openAndListen(f, log)
	if err != nil {
		return err
	}
	defer reloadOnHangup(db, f.authFile, log)()
	stopMetrics, err := listenMetrics(db, f, log)
	if err != nil {
		return errors.Join(err, ln.Close(), closeDB(db, log))
	}
	defer stopMetrics()
	defer reloadFaultsOnHangup(db, f.faultsFile, log)()
	reqs := newRequests()
	srv := newServer(db, reqs, f)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(limitListen(ln, f.maxConnections)) }()
	fmt.Fprintf(stdout, "sortkey listening on http://%s\n", ln.Addr())
	warnDataDir(f, log)
	noteNodes(f, log)
	log.Info("serving", "endpoint", "http://"+ln.Addr().String(), "dataDir", dataDesc(f), "region", f.region, "auth", authDesc(f), "startup", time.Since(start), "version", version.Get().Version)
	serveErr := wait(sigs, srv, errc, f.drainTimeout, log)
	stopMetrics() // before the storage it reads closes
	if err := reqs.await(); err != nil {
		return errors.Join(serveErr, err)
	}
	printDesignReport(db, stdout)
	return errors.Join(serveErr, closeDB(db, log))
}

func openAndListen(f serveFlags, log *slog.Logger) (*sortkey.DB, net.Listener, error) {
	authDoc, err := readAuthFile(f.authFile)
	if err != nil {
		return nil, nil, err
	}
	designDoc, err := readDesignFile(f.designFile)
	if err != nil {
		return nil, nil, err
	}
	faultsDoc, err := readFaultsFile(f.faultsFile)
	if err != nil {
		return nil, nil, err
	}
	opts := &sortkey.Options{InMemory: f.inMemory, Region: f.region, ItemCollectionLimit: f.collectionLimit,
		TTLInterval: f.ttlInterval, TransientDelay: f.transientDelay, Auth: authDoc, Design: designDoc, Console: f.console,
		Clock: f.clock.virtual(log), Metrics: f.metrics, MetricsApart: f.metricsAddr != "",
		Faults: faultsDoc, Admin: f.admin || f.adminRemote, AdminRemote: f.adminRemote,
		EnforceCapacity: f.enforceCapacity, Health: true, RequestLog: log, SlowRequest: f.log.slow,
		CacheSize: int64(f.cacheSize), Store: f.store}
	f.lag.apply(opts)
	f.regions.apply(opts)
	opts.ClockRewind = f.clock.rewind
	opts.PITRWindow = time.Duration(f.pitrWindow)
	if err := f.s3Dirs.apply(opts); err != nil {
		return nil, nil, err
	}
	if f.seed != "" && authDoc != nil {
		return nil, nil, errSeedWithAuth
	}
	db, err := sortkey.Open(f.dataDir, opts)
	if err != nil {
		return nil, nil, err
	}
	if f.seed != "" {
		if err := seed(db, f.seed, f.seedMeter()); err != nil {
			return nil, nil, errors.Join(err, closeDB(db, log))
		}
	}
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return nil, nil, errors.Join(fmt.Errorf("--addr: %w", err), closeDB(db, log))
	}
	return db, ln, nil
}

// httpServer is what serves the API port: net/http's server, or
// internal/httpfast's in front of it.
type httpServer interface {
	Serve(net.Listener) error
	Shutdown(context.Context) error
	Close() error
}

// newServer is db's http.Server with the flags' limits, its handler
// counted by reqs, behind httpfast unless --fast-http=false.
func newServer(db *sortkey.DB, reqs *requests, f serveFlags) httpServer {
	srv := db.HTTPServer()
	srv.Handler = reqs.wrap(srv.Handler)
	srv.ReadTimeout, srv.IdleTimeout, srv.MaxHeaderBytes = f.readTimeout, f.idleTimeout, f.maxHeaderBytes
	srv.WriteTimeout = f.writeTimeout // httpfast reads it from srv too
	// Headers are part of the request: their own bound is never longer.
	srv.ReadHeaderTimeout = min(srv.ReadHeaderTimeout, f.readTimeout)
	if !f.fastHTTP {
		return srv
	}
	return &httpfast.Server{Handler: srv.Handler, Fallback: srv, MaxBodyBytes: server.MaxBodyBytes}
}

func closeDB(db *sortkey.DB, log *slog.Logger) error {
	if err := db.Close(); err != nil {
		return fmt.Errorf("closing storage: %w", err)
	}
	log.Info("storage closed")
	return nil
}

func dataDesc(f serveFlags) string {
	if f.store != "" {
		return storeDesc(f.store)
	}
	if f.inMemory {
		return "(in memory)"
	}
	return f.dataDir
}
