package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/internal/bench"
)

type benchFlags struct {
	endpoints   []string // none: the embedded server
	workloads   []string
	concurrency []int
	duration    time.Duration
	itemSize    int
	preload     int
	skew        float64
	json        bool
	setup       bool
	serverPIDs  []int
	gsi         bool
	dataDir     string
	quiet       bool
}

func parseBench(args []string, stderr io.Writer) (benchFlags, *flag.FlagSet, error) {
	var f benchFlags
	var endpoints, workloads, conc, pids string
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&endpoints, "endpoint", "", "DynamoDB endpoint URL, or comma-separated URLs of one store's nodes (client i sends to URL i mod N; the table is created through the first) (default: an embedded in-memory sortkey on a local port)")
	fs.StringVar(&workloads, "workload", "put,get,query,update,batch-write,transact-write,mix", "comma-separated workloads: "+strings.Join(bench.Workloads, ", "))
	fs.StringVar(&conc, "concurrency", "1,16", "comma-separated numbers of concurrent clients")
	fs.DurationVar(&f.duration, "duration", 5*time.Second, "how long each workload runs at each concurrency (0: only create the table and preload)")
	fs.IntVar(&f.itemSize, "item-size", 200, "approximate bytes per item")
	fs.IntVar(&f.preload, "preload", 10000, "items written before the runs")
	fs.Float64Var(&f.skew, "skew", 0, "Zipf exponent for key choice (> 1 skews toward hot keys; 0 is uniform)")
	fs.BoolVar(&f.json, "json", false, "print JSON lines instead of a table")
	fs.BoolVar(&f.setup, "setup", true, "create the table and write the --preload items first (false: an earlier run did; --preload still sets the keys used)")
	fs.StringVar(&pids, "server-pid", "0", "the server's process id, or comma-separated ids of several (0: none): report its CPU per operation (and the client's, and other processes' share of the machine) and its RSS for each run, summed over the servers (Linux; counts their child processes too)")
	fs.BoolVar(&f.gsi, "gsi", false, "give the table a global secondary index (gsi1, ten items per key) and the items its key; needed by the query-index workload")
	fs.BoolVar(&f.quiet, "quiet", false, quietUsage)
	fs.StringVar(&f.dataDir, "data-dir", "", "the server's data directory: report its size after the preload against the items' raw bytes (--preload × --item-size)")
	if err := parseArgs(fs, args); err != nil {
		return f, fs, err
	}
	f.workloads = strings.Split(workloads, ",")
	var err error
	if f.endpoints, err = parseEndpoints(endpoints); err == nil {
		if f.serverPIDs, err = parsePIDs(pids); err == nil {
			f.concurrency, err = parseConcurrency(conc)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "sortkey bench: %v\n", err)
	}
	return f, fs, err
}

// parseConcurrency reads --concurrency: positive numbers separated by
// commas.
func parseConcurrency(s string) ([]int, error) {
	var out []int
	for c := range strings.SplitSeq(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(c))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("--concurrency wants positive numbers, got %q", c)
		}
		out = append(out, n)
	}
	return out, nil
}

// parseEndpoints reads --endpoint: "" for the embedded server, else
// http(s) URLs separated by commas.
func parseEndpoints(s string) ([]string, error) {
	if s == "" {
		return nil, nil
	}
	var out []string
	for e := range strings.SplitSeq(s, ",") {
		e = strings.TrimSpace(e)
		u, err := url.Parse(e)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("--endpoint wants http:// or https:// URLs separated by commas, got %q", e)
		}
		out = append(out, e)
	}
	return out, nil
}

// parsePIDs reads --server-pid: "0" for none, else positive process ids
// separated by commas.
func parsePIDs(s string) ([]int, error) {
	if s == "0" {
		return nil, nil
	}
	var out []int
	for p := range strings.SplitSeq(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("--server-pid wants process ids separated by commas, got %q", p)
		}
		out = append(out, n)
	}
	return out, nil
}

// benchCmd is `sortkey bench`: it loads an endpoint (or an embedded
// sortkey) with each workload at each concurrency and prints the figures.
func benchCmd(args []string, stdout, stderr io.Writer) int {
	f, fs, err := parseBench(args, stderr)
	if err != nil {
		return exitUsage(err, fs, stdout)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := runBench(ctx, f, stdout, stderr); err != nil {
		fmt.Fprintln(stderr, "sortkey bench:", err)
		return 1
	}
	return 0
}

func runBench(ctx context.Context, f benchFlags, stdout, stderr io.Writer) error {
	target, cleanup, err := benchTarget(f.endpoints)
	if err != nil {
		return err
	}
	defer cleanup()
	for _, w := range f.workloads {
		if err := bench.CheckWorkload(w, f.shape()); err != nil {
			return err
		}
	}
	if f.setup {
		load, err := benchSetup(ctx, target, f, stderr)
		if err != nil {
			return err
		}
		if f.preload > 0 {
			if err := writeLoad(stdout, load, f.json); err != nil {
				return err
			}
		}
	}
	var all []bench.Result
	for _, w := range f.workloads {
		for _, c := range f.concurrency {
			rs, err := benchOne(ctx, target, f, w, c, stderr)
			if err != nil {
				return err
			}
			all = append(all, rs...)
		}
	}
	if f.json {
		return bench.WriteJSON(stdout, all)
	}
	if len(all) > 0 { // --duration 0 only creates the table and preloads
		bench.WriteTable(stdout, all)
	}
	return nil
}

// shape is what the flags make of the table and its items.
func (f benchFlags) shape() bench.Shape {
	return bench.Shape{Keys: f.preload, ItemSize: f.itemSize, Skew: f.skew, GSI: f.gsi}
}

// benchSetup creates the table and preloads it, then measures what the
// flags ask about: the data directory and the server's RSS.
func benchSetup(ctx context.Context, g bench.Group, f benchFlags, stderr io.Writer) (bench.Load, error) {
	fmt.Fprintf(stderr, "endpoint %s: creating table, preloading %d items\n", g, f.preload)
	start := time.Now()
	meter := newMeter(stderr, "preload", f.quiet)
	var told int64 // Setup reports the items written so far; the meter takes the new ones
	load, err := g.Setup(ctx, f.shape(), func(done, total int64) {
		meter.SetTotal(total)
		meter.Add(done-told, (done-told)*int64(f.itemSize))
		told = done
	})
	meter.Done()
	if err != nil {
		return load, err
	}
	fmt.Fprintf(stderr, "  ready in %s\n", time.Since(start).Round(time.Millisecond))
	if f.dataDir != "" {
		disk, err := bench.DirSize(f.dataDir)
		if err != nil {
			return load, fmt.Errorf("--data-dir: %w", err)
		}
		load.ObserveDisk(disk, f.itemSize)
	}
	if len(f.serverPIDs) > 0 {
		rss, err := f.servers().RSS()
		if err != nil {
			return load, err
		}
		load.ServerRSSMB = float64(rss) / (1 << 20)
	}
	return load, nil
}

// writeLoad prints the preload's figures: a JSON line, or a few lines
// above the results' table.
func writeLoad(w io.Writer, load bench.Load, asJSON bool) error {
	if asJSON {
		return json.NewEncoder(w).Encode(load)
	}
	bench.WriteLoad(w, load)
	return nil
}

// servers are the processes --server-pid names.
func (f benchFlags) servers() bench.Procs {
	ps := make(bench.Procs, len(f.serverPIDs))
	for i, pid := range f.serverPIDs {
		ps[i] = bench.Proc{PID: pid}
	}
	return ps
}

func benchOne(ctx context.Context, g bench.Group, f benchFlags, workload string, conc int, stderr io.Writer) ([]bench.Result, error) {
	server := f.servers()
	var before bench.Usage
	var err error
	if len(server) > 0 {
		if before, err = server.Usage(); err != nil {
			return nil, err
		}
	}
	start := time.Now()
	samples, err := g.RunWorkload(ctx, workload, f.shape(), conc, f.duration, 1, func(done, errs int64) {
		if !f.quiet {
			fmt.Fprintf(stderr, "  %s x%d: %s, %d requests (%.0f/s), %d errors\n", workload, conc,
				time.Since(start).Round(time.Second), done, float64(done)/time.Since(start).Seconds(), errs)
		}
	})
	if err != nil {
		return nil, err
	}
	elapsed := time.Since(start)
	rs := bench.Summarize(workload, conc, samples, elapsed)
	if len(server) > 0 {
		after, err := server.Usage()
		if err != nil {
			return nil, err
		}
		rss, err := server.RSS()
		if err != nil {
			return nil, err
		}
		bench.Observe(rs, before, after, elapsed, rss)
	}
	return rs, ctx.Err()
}

// benchTarget is the endpoints to load: the given ones, signed when AWS
// credentials are in the environment, or an embedded in-memory sortkey.
func benchTarget(endpoints []string) (bench.Group, func(), error) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1024}}
	newTarget := func(endpoint string) *bench.Target {
		return &bench.Target{Endpoint: endpoint, Region: cmpOr(os.Getenv("AWS_REGION"), "us-east-1"), Client: client}
	}
	if len(endpoints) == 0 {
		addr, stop, err := embeddedServer()
		return bench.Group{newTarget(addr)}, stop, err
	}
	var creds *aws.Credentials
	if id, secret := os.Getenv("AWS_ACCESS_KEY_ID"), os.Getenv("AWS_SECRET_ACCESS_KEY"); id != "" && secret != "" {
		creds = &aws.Credentials{AccessKeyID: id, SecretAccessKey: secret, SessionToken: os.Getenv("AWS_SESSION_TOKEN")}
	}
	g := make(bench.Group, len(endpoints))
	for i, e := range endpoints {
		g[i] = newTarget(e)
		g[i].Credentials = creds
	}
	return g, func() {}, nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// embeddedServer serves an in-memory sortkey on a local port, so the
// embedded run pays the same HTTP cost as any endpoint.
func embeddedServer() (string, func(), error) {
	db, err := sortkey.Open("", &sortkey.Options{InMemory: true, TTLInterval: -1})
	if err != nil {
		return "", nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		db.Close()
		return "", nil, err
	}
	srv := &http.Server{Handler: db.Handler()}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintln(os.Stderr, "sortkey bench: embedded server:", err)
		}
	}()
	// Shutdown waits for handlers still answering requests the runs cut
	// off, which would otherwise find the storage closed under them.
	stop := func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		db.Close()
	}
	return "http://" + ln.Addr().String(), stop, nil
}
