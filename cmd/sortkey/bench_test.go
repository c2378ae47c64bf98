package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
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

// TestBenchReportsTheServerProcess: with --server-pid (here the test
// itself, which serves the embedded sortkey) every result carries the
// server's CPU per operation and RSS.
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
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil || r.Ops == 0 || r.CPUms <= 0 || r.CPUperOp <= 0 || r.ServerRSS <= 0 {
		t.Fatalf("%s: %+v (%v)", stdout.String(), r, err)
	}
}
