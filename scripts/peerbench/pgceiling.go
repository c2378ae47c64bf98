package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/url"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/bench"
	"github.com/sortkeydb/sortkey/internal/storage"
)

// pgceiling is the bare pgx ceiling of sortkey on PostgreSQL: plain pgx
// clients sending, at the same concurrency, the SQL that sortkey's
// PostgreSQL store would need at the least for each `sortkey bench`
// workload, against a table shaped as sortkey's kv table, with the very
// keys sortkey would write. What sortkey adds on top (HTTP, JSON, the
// engine, the old item read before a write, the counters rows) is the
// difference between the two.

const ceilingUsage = "usage: peerbench pgceiling --url postgres://USER@HOST:PORT/DB [--schema peerbench_ceiling] [--concurrency 16] [--duration 3s] [--preload 2000] [--item-size 200] [--workload get,put,update,query,transact-write] [--server-pids PID,PID] [--json]\n"

// ceilingWorkloads are the `sortkey bench` workloads with an equivalent here.
var ceilingWorkloads = []string{"get", "put", "update", "query", "transact-write"}

// ceilingSQL says what one request of each workload sends.
var ceilingSQL = map[string]string{
	"get":            "SELECT v by k",
	"put":            "upsert",
	"update":         "SELECT v by k, then upsert",
	"query":          "SELECT k, v over a range, LIMIT 11",
	"transact-write": "4 upserts in one pgx.Batch",
}

// schemaMark is the comment pgceiling puts on its schema, so that it only
// ever drops a schema it made itself (one left by an interrupted run).
const schemaMark = "peerbench pgceiling: dropped at the end of each run"

type ceilingFlags struct {
	url, schema string
	concurrency int
	duration    time.Duration
	preload     int
	itemSize    int
	workloads   []string
	serverPIDs  []int
	json        bool
}

func parseCeiling(args []string, stderr io.Writer) (ceilingFlags, error) {
	var f ceilingFlags
	var workloads, pids string
	fs := flag.NewFlagSet("pgceiling", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, ceilingUsage); fs.PrintDefaults() }
	fs.StringVar(&f.url, "url", "", "the PostgreSQL: a postgres:// URL (sortkey's own schema= and timeout= parameters are ignored)")
	fs.StringVar(&f.schema, "schema", "peerbench_ceiling", "the schema to create the table in; it is dropped at the end")
	fs.IntVar(&f.concurrency, "concurrency", 16, "concurrent clients, each with a connection of its own")
	fs.DurationVar(&f.duration, "duration", 3*time.Second, "how long each workload runs")
	fs.IntVar(&f.preload, "preload", 2000, "rows written before the runs, the items 0..N-1 of `sortkey bench --preload N`")
	fs.IntVar(&f.itemSize, "item-size", 200, "bytes per value")
	fs.StringVar(&workloads, "workload", strings.Join(ceilingWorkloads, ","), "comma-separated workloads: "+strings.Join(ceilingWorkloads, ", "))
	fs.StringVar(&pids, "server-pids", "", "comma-separated process ids whose CPU is the server's (each with its descendants, as sortkey bench --server-pid counts: the postmaster's pid covers the whole cluster); reports CPU per request")
	fs.BoolVar(&f.json, "json", false, "print JSON lines instead of a Markdown table")
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	if fs.NArg() > 0 {
		return f, fmt.Errorf("pgceiling takes no arguments, got %q", fs.Args())
	}
	if u, err := url.Parse(f.url); err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return f, errors.New("pgceiling wants --url postgres://…")
	}
	if f.schema == "" {
		return f, errors.New("--schema is empty")
	}
	switch {
	case f.concurrency < 1:
		return f, fmt.Errorf("--concurrency %d: want 1 or more", f.concurrency)
	case f.duration <= 0:
		return f, fmt.Errorf("--duration %s: want more than 0", f.duration)
	case f.preload < 4:
		// transact-write names four different items.
		return f, fmt.Errorf("--preload %d: want 4 or more", f.preload)
	case f.itemSize < 1:
		return f, fmt.Errorf("--item-size %d: want 1 or more", f.itemSize)
	}
	for w := range strings.SplitSeq(workloads, ",") {
		w = strings.TrimSpace(w)
		if !slices.Contains(ceilingWorkloads, w) {
			return f, fmt.Errorf("--workload: unknown workload %q (have %s)", w, strings.Join(ceilingWorkloads, ", "))
		}
		f.workloads = append(f.workloads, w)
	}
	var err error
	if f.serverPIDs, err = parsePIDs(pids); err != nil {
		return f, fmt.Errorf("--server-pids: %w", err)
	}
	return f, nil
}

// parsePIDs reads "PID,PID,…"; empty is none.
func parsePIDs(s string) ([]int, error) {
	var out []int
	for p := range strings.SplitSeq(s, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%q is not a process id", p)
		}
		out = append(out, n)
	}
	return out, nil
}

func pgceiling(args []string, stdout, stderr io.Writer) error {
	f, err := parseCeiling(args, stderr)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	c, err := openCeiling(ctx, f)
	if err != nil {
		return err
	}
	defer c.close(stderr)
	if err := c.setup(ctx, stderr); err != nil {
		return err
	}
	var all []ceilingResult
	for _, w := range f.workloads {
		r, err := c.run(ctx, w, stderr)
		if err != nil {
			return fmt.Errorf("%s: %w", w, err)
		}
		all = append(all, r)
	}
	if f.json {
		return writeCeilingJSON(stdout, all)
	}
	writeCeilingTable(stdout, all)
	return nil
}

// ceiling is one pgceiling run: its pool and its schema.
type ceiling struct {
	f     ceilingFlags
	pool  *pgxpool.Pool
	ident string // the schema, quoted
	kv    string // the table, qualified
	sql   struct{ get, upsert, scan string }
	made  bool // the schema is ours to drop
}

func openCeiling(ctx context.Context, f ceilingFlags) (*ceiling, error) {
	cfg, err := pgxpool.ParseConfig(pgURL(f.url))
	if err != nil {
		return nil, fmt.Errorf("--url: %w", err)
	}
	// One connection per client, all made before the runs, none closed
	// between them: a request never waits for a connection.
	cfg.MaxConns, cfg.MinConns = int32(f.concurrency), int32(f.concurrency)
	cfg.MaxConnIdleTime, cfg.HealthCheckPeriod = time.Hour, time.Hour
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	c := &ceiling{f: f, pool: pool, ident: pgx.Identifier{f.schema}.Sanitize()}
	c.kv = c.ident + ".kv"
	// The statements docs/STORES.md lists for sortkey's reads and writes.
	c.sql.get = "SELECT v FROM " + c.kv + " WHERE k = $1"
	c.sql.upsert = "INSERT INTO " + c.kv + " (k, v) VALUES ($1, $2) ON CONFLICT (k) DO UPDATE SET v = excluded.v"
	c.sql.scan = "SELECT k, v FROM " + c.kv + " WHERE k >= $1 AND k < $2 ORDER BY k LIMIT 11"
	return c, nil
}

// pgURL drops sortkey's own URL parameters, which pgx would send to the
// server as settings, so that sortkey's --store URL works here too.
func pgURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	q := u.Query()
	q.Del("schema")
	q.Del("timeout")
	u.RawQuery = q.Encode()
	return u.String()
}

// setup makes the schema and its table, as sortkey makes its kv table,
// and writes the preloaded rows.
func (c *ceiling) setup(ctx context.Context, stderr io.Writer) error {
	var mark *string
	err := c.pool.QueryRow(ctx, "SELECT obj_description(oid, 'pg_namespace') FROM pg_namespace WHERE nspname = $1", c.f.schema).Scan(&mark)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
	case err != nil:
		return err
	case mark == nil || *mark != schemaMark:
		return fmt.Errorf("schema %s exists and was not made by peerbench pgceiling: choose another --schema", c.f.schema)
	default:
		fmt.Fprintf(stderr, "pgceiling: dropping schema %s, left by an interrupted run\n", c.f.schema)
		if _, err := c.pool.Exec(ctx, "DROP SCHEMA "+c.ident+" CASCADE"); err != nil {
			return err
		}
	}
	if _, err := c.pool.Exec(ctx, "CREATE SCHEMA "+c.ident); err != nil {
		return err
	}
	c.made = true
	for _, sql := range []string{
		"COMMENT ON SCHEMA " + c.ident + " IS '" + schemaMark + "'",
		"CREATE TABLE " + c.kv + " (k bytea PRIMARY KEY, v bytea NOT NULL)",
	} {
		if _, err := c.pool.Exec(ctx, sql); err != nil {
			return err
		}
	}
	start := time.Now()
	rng := rand.New(rand.NewPCG(0, 0))
	rows := make([][]any, c.f.preload)
	for i := range rows {
		rows[i] = []any{itemKey(benchPartition(i), benchSortKey(i)), value(rng, c.f.itemSize)}
	}
	if _, err := c.pool.CopyFrom(ctx, pgx.Identifier{c.f.schema, "kv"}, []string{"k", "v"}, pgx.CopyFromRows(rows)); err != nil {
		return fmt.Errorf("preload: %w", err)
	}
	// Statistics now, so the plans of the runs do not change when
	// autovacuum first analyzes the new table.
	if _, err := c.pool.Exec(ctx, "ANALYZE "+c.kv); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "pgceiling: schema %s, %d rows of %d bytes preloaded in %s\n", c.f.schema, c.f.preload, c.f.itemSize, time.Since(start).Round(time.Millisecond))
	return nil
}

// close drops the schema, on a context of its own: an interrupted run
// cleans up too.
func (c *ceiling) close(stderr io.Writer) {
	if c.made {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		if _, err := c.pool.Exec(ctx, "DROP SCHEMA IF EXISTS "+c.ident+" CASCADE"); err != nil {
			fmt.Fprintf(stderr, "pgceiling: dropping schema %s: %v\n", c.f.schema, err)
		}
		cancel()
	}
	c.pool.Close()
}

// The bench table's id in a fresh sortkey: its first table.
const ceilingTableID = 1

// itemKey is the storage key sortkey gives the bench table's item (pk,
// sk): the same bytes, so rows are as long, and sort, as sortkey's.
func itemKey(pk, sk string) []byte {
	p, s := attr.Str(pk), attr.Str(sk)
	return storage.ItemKey(storage.ItemPrefix(ceilingTableID, 0), attr.AppendKey(nil, &p), attr.AppendKey(nil, &s))
}

// queryRange is the key range sortkey reads for a Query of pk = p AND
// begins_with(sk, prefix).
func queryRange(pk, prefix string) (lo, hi []byte) {
	p, b := attr.Str(pk), attr.Str(prefix)
	lo = storage.ItemKey(storage.ItemPrefix(ceilingTableID, 0), attr.AppendKey(nil, &p), attr.AppendKeyPrefix(nil, &b))
	return lo, storage.PrefixEnd(lo)
}

// benchPartition and benchSortKey are item i's keys in `sortkey bench`
// (partition and sortKey in internal/bench/workload.go, unexported there),
// for the preload; TestCeilingKeysAreSortkeyBenchKeys holds them to
// bench.Build's requests.
func benchPartition(i int) string {
	p := i / 100 * 2
	if i%100 >= 30 {
		p++
	}
	return fmt.Sprintf("p%d", p)
}

func benchSortKey(i int) string { return fmt.Sprintf("ITEM#%02d#%08d", i%7, i) }

// value is n random bytes: PostgreSQL compresses only values over 2 kB,
// so their content matters less than to sortkey's own storage, but text
// that compresses to nothing would still flatter a larger --item-size.
func value(rng *rand.Rand, n int) []byte {
	v := make([]byte, n)
	for i := range v {
		v[i] = byte(rng.Uint32())
	}
	return v
}

// ceilingOp is one request: the keys it writes or reads, or the range.
type ceilingOp struct {
	keys   [][]byte
	lo, hi []byte
}

// The request list `sortkey bench` sends: bench.Target.RunWorkload
// prebuilds 4096 requests, and cmd/sortkey's bench seeds it with 1.
const (
	benchRequests = 4096
	benchSeed     = 1
)

// buildOps turns the requests `sortkey bench` sends for a workload into
// their keys, in the same order, so both runs read and write the same
// items in the same sequence.
func buildOps(workload string, preload, itemSize int) ([]ceilingOp, error) {
	reqs, err := bench.Build(workload, bench.Shape{Keys: preload, ItemSize: itemSize}, benchRequests, benchSeed)
	if err != nil {
		return nil, err
	}
	ops := make([]ceilingOp, len(reqs))
	for i, r := range reqs {
		if ops[i], err = parseRequest(workload, r.Body); err != nil {
			return nil, fmt.Errorf("%s request %d: %w", workload, i, err)
		}
	}
	return ops, nil
}

// benchBody is the part of a `sortkey bench` request body that names keys.
type benchBody struct {
	Key                       map[string]struct{ S string }
	Item                      map[string]struct{ S string }
	ExpressionAttributeValues map[string]struct{ S string }
	TransactItems             []struct {
		Put struct{ Item map[string]struct{ S string } }
	}
}

func parseRequest(workload string, body []byte) (ceilingOp, error) {
	var b benchBody
	if err := json.Unmarshal(body, &b); err != nil {
		return ceilingOp{}, err
	}
	key := func(m map[string]struct{ S string }) ([]byte, error) {
		if m["pk"].S == "" || m["sk"].S == "" {
			return nil, fmt.Errorf("no pk and sk in %s", body)
		}
		return itemKey(m["pk"].S, m["sk"].S), nil
	}
	var op ceilingOp
	switch workload {
	case "get", "update":
		k, err := key(b.Key)
		op.keys = [][]byte{k}
		return op, err
	case "put":
		k, err := key(b.Item)
		op.keys = [][]byte{k}
		return op, err
	case "transact-write":
		for _, t := range b.TransactItems {
			k, err := key(t.Put.Item)
			if err != nil {
				return op, err
			}
			op.keys = append(op.keys, k)
		}
		// In key order, as row locks are best taken: two batches locking
		// the same rows in opposite orders would deadlock. sortkey never
		// shows PostgreSQL two writes of one item at once (its item locks
		// are in the process), so it sees no deadlocks either.
		slices.SortFunc(op.keys, bytes.Compare)
		return op, nil
	case "query":
		p, pre := b.ExpressionAttributeValues[":p"].S, b.ExpressionAttributeValues[":b"].S
		if p == "" || pre == "" {
			return op, fmt.Errorf("no :p and :b in %s", body)
		}
		op.lo, op.hi = queryRange(p, pre)
		return op, nil
	}
	return op, fmt.Errorf("unknown workload %q", workload)
}

// opTimeout bounds one request, as sortkey's store bounds a statement
// (its default timeout).
const opTimeout = 10 * time.Second

// request sends one request of a workload on conn; a query says how many
// rows it read.
type request func(ctx context.Context, conn *pgxpool.Conn, op *ceilingOp, rng *rand.Rand) (rows int, err error)

func (c *ceiling) request(workload string) request {
	switch workload {
	case "get":
		return func(ctx context.Context, conn *pgxpool.Conn, op *ceilingOp, _ *rand.Rand) (int, error) {
			var v []byte
			return 0, conn.QueryRow(ctx, c.sql.get, op.keys[0]).Scan(&v)
		}
	case "put":
		return func(ctx context.Context, conn *pgxpool.Conn, op *ceilingOp, rng *rand.Rand) (int, error) {
			_, err := conn.Exec(ctx, c.sql.upsert, op.keys[0], value(rng, c.f.itemSize))
			return 0, err
		}
	case "update":
		// A read-modify-write, as UpdateItem is: the item, then the item
		// changed. Two round trips, and no lock between them; sortkey holds
		// its item lock in the process.
		return func(ctx context.Context, conn *pgxpool.Conn, op *ceilingOp, _ *rand.Rand) (int, error) {
			var v []byte
			if err := conn.QueryRow(ctx, c.sql.get, op.keys[0]).Scan(&v); err != nil {
				return 0, err
			}
			v[len(v)-1]++
			_, err := conn.Exec(ctx, c.sql.upsert, op.keys[0], v)
			return 0, err
		}
	case "query":
		return func(ctx context.Context, conn *pgxpool.Conn, op *ceilingOp, _ *rand.Rand) (int, error) {
			rows, err := conn.Query(ctx, c.sql.scan, op.lo, op.hi)
			if err != nil {
				return 0, err
			}
			n := 0
			for rows.Next() {
				_ = rows.RawValues()
				n++
			}
			return n, rows.Err()
		}
	case "transact-write":
		// One pipeline ending in one Sync: PostgreSQL runs it as one
		// implicit transaction, in one round trip, as sortkey's store sends
		// a write.
		return func(ctx context.Context, conn *pgxpool.Conn, op *ceilingOp, rng *rand.Rand) (int, error) {
			b := &pgx.Batch{}
			for _, k := range op.keys {
				b.Queue(c.sql.upsert, k, value(rng, c.f.itemSize))
			}
			return 0, conn.SendBatch(ctx, b).Close()
		}
	}
	return nil
}

// ceilingResult is one workload's figures: sortkey bench's, plus the
// mean latency and the rows a query read.
type ceilingResult struct {
	bench.Result
	Target  string  `json:"target"`
	MeanMs  float64 `json:"mean_ms"`
	RowsPer float64 `json:"rows_per_request,omitempty"`
}

// run sends one workload from f.concurrency clients for f.duration.
func (c *ceiling) run(ctx context.Context, workload string, stderr io.Writer) (ceilingResult, error) {
	ops, err := buildOps(workload, c.f.preload, c.f.itemSize)
	if err != nil {
		return ceilingResult{}, err
	}
	conns, err := c.acquire(ctx)
	if err != nil {
		return ceilingResult{}, err
	}
	defer func() {
		for _, conn := range conns {
			conn.Release()
		}
	}()
	do := c.request(workload)
	before, err := c.usage()
	if err != nil {
		return ceilingResult{}, err
	}
	start := time.Now()
	deadline := start.Add(c.f.duration)
	samples := make([][]bench.Sample, len(conns))
	var wg sync.WaitGroup
	for w, conn := range conns {
		wg.Go(func() { samples[w] = c.worker(ctx, conn, do, ops, w, deadline) })
	}
	wg.Wait()
	after, err := c.usage()
	if err != nil {
		return ceilingResult{}, err
	}
	if err := ctx.Err(); err != nil {
		return ceilingResult{}, err
	}
	all := slices.Concat(samples...)
	// Only requests answered within the run count (sortkey bench drops
	// those the end cuts off), so the run lasted exactly its duration.
	r := ceilingResult{Target: "pgx ceiling"}
	rs := bench.Summarize(workload, c.f.concurrency, all, c.f.duration)
	if len(rs) == 0 {
		return r, errors.New("no request was answered within the run")
	}
	if len(c.f.serverPIDs) > 0 {
		// No RSS: every backend maps the shared buffers, and summing
		// their RSS would count those once per connection.
		bench.Observe(rs, before, after, time.Since(start), 0)
	}
	r.Result = rs[0]
	r.Op = ceilingSQL[workload]
	var total time.Duration
	for _, s := range all {
		total += s.Latency
	}
	r.MeanMs = float64(total.Microseconds()) / 1000 / float64(len(all))
	if workload == "query" {
		r.RowsPer = float64(r.Items) / float64(r.Ops)
	}
	fmt.Fprintf(stderr, "pgceiling: %s x%d: %d requests (%.0f/s), %d errors\n", workload, c.f.concurrency, r.Ops, r.OpsPerSec, r.Errors)
	return r, nil
}

// acquire takes every connection of the pool, one per client, and makes
// sure each answers before the clock starts.
func (c *ceiling) acquire(ctx context.Context) ([]*pgxpool.Conn, error) {
	conns := make([]*pgxpool.Conn, 0, c.f.concurrency)
	for range c.f.concurrency {
		conn, err := c.pool.Acquire(ctx)
		if err == nil {
			err = conn.Ping(ctx)
		}
		if err != nil {
			for _, conn := range conns {
				conn.Release()
			}
			return nil, err
		}
		conns = append(conns, conn)
	}
	return conns, nil
}

// usage is CPU used so far by the server's processes (the sum over
// --server-pids), this process and the machine; zero without
// --server-pids.
func (c *ceiling) usage() (bench.Usage, error) {
	var u bench.Usage
	for i, pid := range c.f.serverPIDs {
		if i == 0 {
			var err error
			if u, err = (bench.Proc{PID: pid}).Usage(); err != nil {
				return u, err
			}
			continue
		}
		cpu, err := bench.Proc{PID: pid}.CPU()
		if err != nil {
			return u, err
		}
		u.Server += cpu
	}
	return u, nil
}

// worker is one client: it sends requests w, w+n, w+2n… of the list,
// round-robin, as sortkey bench's workers do, until the deadline.
func (c *ceiling) worker(ctx context.Context, conn *pgxpool.Conn, do request, ops []ceilingOp, w int, deadline time.Time) []bench.Sample {
	rng := rand.New(rand.NewPCG(uint64(w), 2))
	var out []bench.Sample
	for i := w; ctx.Err() == nil; i += c.f.concurrency {
		start := time.Now()
		if !start.Before(deadline) {
			break
		}
		octx, cancel := context.WithTimeout(ctx, opTimeout)
		rows, err := do(octx, conn, &ops[i%len(ops)], rng)
		cancel()
		end := time.Now()
		if end.After(deadline) {
			break // cut off by the end of the run: not a result
		}
		out = append(out, bench.Sample{Op: "sql", Latency: end.Sub(start), Err: err, Items: rows})
	}
	return out
}

func writeCeilingJSON(w io.Writer, rs []ceilingResult) error {
	enc := json.NewEncoder(w)
	for _, r := range rs {
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	return nil
}

// writeCeilingTable prints the results as a Markdown table, and the
// first error of each workload that had any.
func writeCeilingTable(w io.Writer, rs []ceilingResult) {
	cpu := slices.ContainsFunc(rs, func(r ceilingResult) bool { return r.ServerCPUms > 0 })
	fmt.Fprint(w, "| workload | SQL per request | conc | requests | req/s | mean ms | p50 ms | p99 ms | errors |")
	if cpu {
		fmt.Fprint(w, " server CPU µs/req | client CPU µs/req | other CPU % |")
	}
	fmt.Fprint(w, "\n|---|---|--:|--:|--:|--:|--:|--:|--:|")
	if cpu {
		fmt.Fprint(w, "--:|--:|--:|")
	}
	fmt.Fprintln(w)
	for _, r := range rs {
		sql := r.Op
		if r.RowsPer > 0 {
			sql += fmt.Sprintf(" (%.1f rows)", r.RowsPer)
		}
		fmt.Fprintf(w, "| %s | %s | %d | %d | %.0f | %.3f | %.3f | %.3f | %d |", r.Workload, sql, r.Concurrency, r.Ops, r.OpsPerSec, r.MeanMs, r.P50ms, r.P99ms, r.Errors)
		if cpu {
			fmt.Fprintf(w, " %.1f | %.1f | %.0f |", r.ServerCPUusPerOp, r.ClientCPUusPerOp, r.OtherCPUPercent)
		}
		fmt.Fprintln(w)
	}
	for _, r := range rs {
		if r.FirstError != "" {
			fmt.Fprintf(w, "\nfirst %s error: %s\n", r.Workload, oneLine(r.FirstError))
		}
	}
}

// cpu prints the CPU time, in seconds, that the processes (each with its
// descendants, and the children it has waited for) have used so far:
// scripts/bench-pg.sh reads PostgreSQL's before and after each run.
func cpu(args []string, stdout io.Writer) error {
	pids, err := parsePIDs(strings.Join(args, ","))
	if err != nil {
		return err
	}
	if len(pids) == 0 {
		return errors.New("cpu wants process ids")
	}
	var total time.Duration
	for _, pid := range pids {
		d, err := bench.Proc{PID: pid}.CPU()
		if err != nil {
			return err
		}
		total += d
	}
	_, err = fmt.Fprintf(stdout, "%.2f\n", total.Seconds())
	return err
}
