package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey/internal/bench"
)

// TestClusterReport: one row per workload and number of nodes, beside
// the ceiling's, with PostgreSQL's CPU per request worked out from the
// readings around each run and req/s against the ceiling's.
func TestClusterReport(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	line := func(v any) string {
		b, _ := json.Marshal(v)
		return string(b) + "\n"
	}
	sk := func(rate, cpu float64) string {
		return line(bench.Result{Workload: "get", Op: "GetItem", Concurrency: 16, Ops: int(rate) * 10, OpsPerSec: rate, P99ms: 4,
			ServerCPUusPerOp: cpu, ClientCPUusPerOp: 20})
	}
	// PostgreSQL used 10 s over 20,000 and 40,000 requests: 500 and 250 µs each.
	write("nodes-1/round-1/sortkey.jsonl", sk(2000, 80))
	write("nodes-1/round-1/sortkey-pgcpu.tsv", "get\t1.00\t11.00\n")
	write("nodes-2/round-1/sortkey.jsonl", sk(4000, 90))
	write("nodes-2/round-1/sortkey-pgcpu.tsv", "get\t20.00\t30.00\n")
	write("nodes-10/round-1/sortkey.err", "get: the server exited\n")
	write("ceiling/round-1/ceiling.jsonl", line(ceilingResult{Result: bench.Result{Workload: "get", Op: ceilingSQL["get"], Concurrency: 16,
		Ops: 80000, OpsPerSec: 8000, P99ms: 1, ServerCPUusPerOp: 40, ClientCPUusPerOp: 10}, Target: "pgx ceiling"}))

	var out bytes.Buffer
	if err := clusterreport(dir, &out); err != nil {
		t.Fatal(err)
	}
	md := out.String()
	for _, want := range []string{
		"| get | 1 | 2,000 | 2,000 | 4.000 | 80 | 500 | 20 | 0 | 0.25 | 0 |\n| get | 2 | 4,000 | 4,000 | 4.000 | 90 | 250 | 20 | 0 | 0.50 | 0 |\n| get | 10 | not run |",
		"| get | pgx ceiling | 8,000 | 8,000 | 1.000 | — | 40 | 10 | 0 | 1.00 | 0 |",
		"- 10 node(s), round-1: get: the server exited",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if t.Failed() {
		t.Log(md)
	}
}
