package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
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
	endpoint    string
	workloads   []string
	concurrency []int
	duration    time.Duration
	itemSize    int
	preload     int
	skew        float64
	json        bool
	setup       bool
	serverPID   int
}

func parseBench(args []string, stderr io.Writer) (benchFlags, *flag.FlagSet, error) {
	var f benchFlags
	var workloads, conc string
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.endpoint, "endpoint", "", "DynamoDB endpoint URL (default: an embedded in-memory sortkey on a local port)")
	fs.StringVar(&workloads, "workload", "put,get,query,update,batch-write,transact-write,mix", "comma-separated workloads: "+strings.Join(bench.Workloads, ", "))
	fs.StringVar(&conc, "concurrency", "1,16", "comma-separated numbers of concurrent clients")
	fs.DurationVar(&f.duration, "duration", 5*time.Second, "how long each workload runs at each concurrency (0: only create the table and preload)")
	fs.IntVar(&f.itemSize, "item-size", 200, "approximate bytes per item")
	fs.IntVar(&f.preload, "preload", 10000, "items written before the runs")
	fs.Float64Var(&f.skew, "skew", 0, "Zipf exponent for key choice (> 1 skews toward hot keys; 0 is uniform)")
	fs.BoolVar(&f.json, "json", false, "print JSON lines instead of a table")
	fs.BoolVar(&f.setup, "setup", true, "create the table and write the --preload items first (false: an earlier run did; --preload still sets the keys used)")
	fs.IntVar(&f.serverPID, "server-pid", 0, "the server's process id: report its CPU per operation (and the client's, and other processes' share of the machine) and its RSS for each run (Linux; counts its child processes too)")
	if err := parseArgs(fs, args); err != nil {
		return f, fs, err
	}
	f.workloads = strings.Split(workloads, ",")
	for _, c := range strings.Split(conc, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(c))
		if err != nil || n < 1 {
			fmt.Fprintf(stderr, "sortkey bench: --concurrency wants positive numbers, got %q\n", c)
			return f, fs, fmt.Errorf("bad --concurrency %q", c)
		}
		f.concurrency = append(f.concurrency, n)
	}
	return f, fs, nil
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
	target, cleanup, err := benchTarget(f.endpoint)
	if err != nil {
		return err
	}
	defer cleanup()
	if f.setup {
		fmt.Fprintf(stderr, "endpoint %s: creating table, preloading %d items\n", target.Endpoint, f.preload)
		start := time.Now()
		if err := target.Setup(ctx, f.preload, f.itemSize); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "  ready in %s\n", time.Since(start).Round(time.Millisecond))
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

func benchOne(ctx context.Context, t *bench.Target, f benchFlags, workload string, conc int, stderr io.Writer) ([]bench.Result, error) {
	reqs, err := bench.Build(workload, bench.Shape{Keys: f.preload, ItemSize: f.itemSize, Skew: f.skew}, 4096, 1)
	if err != nil {
		return nil, err
	}
	server := bench.Proc{PID: f.serverPID}
	var before bench.Usage
	if f.serverPID > 0 {
		if before, err = server.Usage(); err != nil {
			return nil, err
		}
	}
	start := time.Now()
	samples := t.Run(ctx, reqs, conc, f.duration, func(done, errs int64) {
		fmt.Fprintf(stderr, "  %s x%d: %s, %d requests (%.0f/s), %d errors\n", workload, conc,
			time.Since(start).Round(time.Second), done, float64(done)/time.Since(start).Seconds(), errs)
	})
	elapsed := time.Since(start)
	rs := bench.Summarize(workload, conc, samples, elapsed)
	if f.serverPID > 0 {
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

// benchTarget is the endpoint to load: the given one, signed when AWS
// credentials are in the environment, or an embedded in-memory sortkey.
func benchTarget(endpoint string) (*bench.Target, func(), error) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1024}}
	t := &bench.Target{Endpoint: endpoint, Region: cmpOr(os.Getenv("AWS_REGION"), "us-east-1"), Client: client}
	if endpoint != "" {
		if id, secret := os.Getenv("AWS_ACCESS_KEY_ID"), os.Getenv("AWS_SECRET_ACCESS_KEY"); id != "" && secret != "" {
			t.Credentials = &aws.Credentials{AccessKeyID: id, SecretAccessKey: secret, SessionToken: os.Getenv("AWS_SESSION_TOKEN")}
		}
		return t, func() {}, nil
	}
	url, stop, err := embeddedServer()
	t.Endpoint = url
	return t, stop, err
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
	return "http://" + ln.Addr().String(), func() { srv.Close(); db.Close() }, nil
}
