package main

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/sortkeydb/sortkey"
)

// TestBenchCommandPrintsJSONLines runs `sortkey bench` briefly on its
// embedded server: one JSON line per workload and concurrency, no errors.
func TestBenchCommandPrintsJSONLines(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run([]string{"bench", "--workload", "get,transact-write", "--concurrency", "1,2", "--duration", "300ms",
		"--preload", "100", "--item-size", "64", "--json"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[0], `{"workload":"preload",`) {
		t.Fatalf("want the preload line first, got:\n%s", stdout.String())
	}
	lines = lines[1:]
	if len(lines) != 4 {
		t.Fatalf("want 4 result lines, got %d:\n%s", len(lines), stdout.String())
	}
	for _, l := range lines {
		var r struct {
			Op     string `json:"op"`
			Ops    int    `json:"ops"`
			Errors int    `json:"errors"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil || r.Ops == 0 || r.Errors != 0 {
			t.Fatalf("line %q: %+v (%v)", l, r, err)
		}
	}
}

func TestBenchRefusesBadFlags(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"bench", "--concurrency", "0"}, &stdout, &stderr); code != 2 {
		t.Fatalf("--concurrency 0: exit %d", code)
	}
	if code := run([]string{"bench", "--workload", "nope", "--duration", "10ms", "--preload", "0"}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "unknown workload") {
		t.Fatalf("unknown workload: exit %d, %s", code, stderr.String())
	}
}

// TestBenchRefusesBadEndpointsAndPIDs: a list with an empty element, or
// an element that is not an http(s) URL or a process id, is refused
// before anything is sent, naming the flag.
func TestBenchRefusesBadEndpointsAndPIDs(t *testing.T) {
	for _, args := range [][]string{
		{"--endpoint", "http://127.0.0.1:1,"},
		{"--endpoint", ",http://127.0.0.1:1"},
		{"--endpoint", "http://127.0.0.1:1,,http://127.0.0.1:2"},
		{"--endpoint", "127.0.0.1:8000"},
		{"--endpoint", "http://127.0.0.1:1,ftp://127.0.0.1:2"},
		{"--endpoint", "http://"},
		{"--server-pid", "12,"},
		{"--server-pid", ""},
		{"--server-pid", "12,x"},
		{"--server-pid", "-3"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"bench", "--duration", "10ms", "--preload", "10"}, args...), &stdout, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), args[0]+" wants") || strings.Contains(stderr.String(), "preloading") {
			t.Errorf("%q: exit %d, stderr %s", args, code, stderr.String())
		}
	}
}

// TestBenchSpreadsClientsOverEndpoints: given two endpoints of one store
// (two listeners on one in-process sortkey, as two nodes share one
// PostgreSQL), the table is created through the first, and each endpoint
// gets its share of the preload's writers and of the run's clients. With
// the --server-pid list, the results carry the servers' CPU.
func TestBenchSpreadsClientsOverEndpoints(t *testing.T) {
	db, err := sortkey.Open("", &sortkey.Options{InMemory: true, TTLInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	var counts [2]opCounter
	urls := make([]string, 2)
	for i := range urls {
		srv := httptest.NewServer(counts[i].wrap(db.Handler()))
		t.Cleanup(srv.Close)
		urls[i] = srv.URL
	}
	var stdout, stderr bytes.Buffer
	pid := strconv.Itoa(os.Getpid())
	code := run([]string{"bench", "--endpoint", strings.Join(urls, ","), "--workload", "get", "--concurrency", "4",
		"--duration", "300ms", "--preload", "400", "--server-pid", pid + "," + pid, "--json"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if counts[0].get("CreateTable") != 1 || counts[1].get("CreateTable") != 0 {
		t.Errorf("CreateTable: %d and %d, want it through the first endpoint only", counts[0].get("CreateTable"), counts[1].get("CreateTable"))
	}
	for i := range counts {
		if counts[i].get("DescribeTable") == 0 || counts[i].get("BatchWriteItem") == 0 || counts[i].get("GetItem") == 0 {
			t.Errorf("endpoint %d received %v, want DescribeTable, BatchWriteItem and GetItem", i+1, counts[i].snapshot())
		}
	}
	g0, g1 := counts[0].get("GetItem"), counts[1].get("GetItem")
	if g0 < (g0+g1)/4 || g1 < (g0+g1)/4 {
		t.Errorf("GetItem: %d and %d, want two shares of about a half", g0, g1)
	}
	_, result, _ := strings.Cut(stdout.String(), "\n") // after the preload's line
	var r struct {
		Ops      int     `json:"ops"`
		CPUperOp float64 `json:"server_cpu_us_per_op"`
	}
	if err := json.Unmarshal([]byte(result), &r); err != nil || r.Ops == 0 || r.CPUperOp <= 0 {
		t.Fatalf("%s: %+v (%v)", stdout.String(), r, err)
	}
}

// opCounter counts the requests a handler receives, by operation.
type opCounter struct {
	mu  sync.Mutex
	ops map[string]int
}

func (c *opCounter) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, op, _ := strings.Cut(r.Header.Get("X-Amz-Target"), ".")
		c.mu.Lock()
		if c.ops == nil {
			c.ops = map[string]int{}
		}
		c.ops[op]++
		c.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

func (c *opCounter) get(op string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ops[op]
}

func (c *opCounter) snapshot() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.ops)
}

// TestBenchReportsTheServerProcess: with --server-pid (here the test
// itself, which serves the embedded sortkey) every result carries the
// server's CPU per operation and RSS, after the preload's line.
func TestBenchReportsTheServerProcess(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"bench", "--workload", "get", "--concurrency", "2", "--duration", "300ms",
		"--preload", "100", "--server-pid", strconv.Itoa(os.Getpid()), "--json"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var r struct {
		Ops       int     `json:"ops"`
		CPUms     float64 `json:"server_cpu_ms"`
		CPUperOp  float64 `json:"server_cpu_us_per_op"`
		ServerRSS float64 `json:"server_rss_mb"`
	}
	_, result, _ := strings.Cut(stdout.String(), "\n") // after the preload's line
	if err := json.Unmarshal([]byte(result), &r); err != nil || r.Ops == 0 || r.CPUms <= 0 || r.CPUperOp <= 0 || r.ServerRSS <= 0 {
		t.Fatalf("%s: %+v (%v)", stdout.String(), r, err)
	}
}

// TestBenchReportsTheLoadAndScale: with --gsi and --data-dir, the JSON
// output starts with the preload's line (items, rate, disk against raw
// bytes), and query-index and scan run without errors, scan counting the
// items it read.
func TestBenchReportsTheLoadAndScale(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/data", make([]byte, 50000), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"bench", "--workload", "query-index,scan", "--concurrency", "2", "--duration", "300ms",
		"--preload", "500", "--item-size", "100", "--gsi", "--data-dir", dir, "--json"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("want a preload line and 2 results, got:\n%s", stdout.String())
	}
	var load struct {
		Workload    string  `json:"workload"`
		Items       int     `json:"items"`
		ItemsPerSec float64 `json:"items_per_sec"`
		RawMB       float64 `json:"raw_mb"`
		DiskMB      float64 `json:"disk_mb"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &load); err != nil || load.Workload != "preload" || load.Items != 500 ||
		load.ItemsPerSec <= 0 || load.RawMB != 500*100.0/(1<<20) || load.DiskMB != 50000.0/(1<<20) {
		t.Fatalf("preload line %q: %+v (%v)", lines[0], load, err)
	}
	for _, l := range lines[1:] {
		var r struct {
			Workload string `json:"workload"`
			Ops      int    `json:"ops"`
			Errors   int    `json:"errors"`
			Items    int    `json:"items"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil || r.Ops == 0 || r.Errors != 0 || (r.Workload == "scan") != (r.Items > 0) {
			t.Fatalf("line %q: %+v (%v)", l, r, err)
		}
	}
}

// TestBenchRefusesQueryIndexWithoutTheIndex: the mistake is caught before
// any preload.
func TestBenchRefusesQueryIndexWithoutTheIndex(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run([]string{"bench", "--workload", "get,query-index", "--duration", "10ms", "--preload", "10"}, &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "--gsi") || strings.Contains(stderr.String(), "preloading") {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
}

// TestBenchTablePrintsTheLoad: the table output leads with the preload's
// figures and gives scan an items/s column.
func TestBenchTablePrintsTheLoad(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run([]string{"bench", "--workload", "scan", "--concurrency", "1", "--duration", "200ms", "--preload", "300"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	out := stdout.String()
	if !strings.HasPrefix(out, "preload: 300 items in 12 requests from 8 writers") || !strings.Contains(out, "items/s") {
		t.Fatalf("output:\n%s", out)
	}
}
