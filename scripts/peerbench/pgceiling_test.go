package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sortkeydb/sortkey/internal/bench"
)

func TestParseCeiling(t *testing.T) {
	f, err := parseCeiling([]string{"--url", "postgres://u@h:5/db"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if f.schema != "peerbench_ceiling" || f.concurrency != 16 || f.duration != 3*time.Second || f.preload != 2000 ||
		f.itemSize != 200 || !slices.Equal(f.workloads, ceilingWorkloads) || f.serverPIDs != nil || f.json {
		t.Fatalf("defaults: %+v", f)
	}
	f, err = parseCeiling([]string{"--url", "postgresql://u@h:5/db?schema=x", "--schema", "s", "--concurrency", "3", "--duration", "200ms",
		"--preload", "50", "--item-size", "10", "--workload", "query, get", "--server-pids", "12,34", "--json"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if f.schema != "s" || f.concurrency != 3 || f.duration != 200*time.Millisecond || f.preload != 50 || f.itemSize != 10 ||
		!slices.Equal(f.workloads, []string{"query", "get"}) || !slices.Equal(f.serverPIDs, []int{12, 34}) || !f.json {
		t.Fatalf("flags: %+v", f)
	}
	for _, bad := range [][]string{
		{},
		{"--url", "http://h/db"},
		{"--url", "postgres://h/db", "extra"},
		{"--url", "postgres://h/db", "--workload", "scan"},
		{"--url", "postgres://h/db", "--workload", "get,,put"},
		{"--url", "postgres://h/db", "--server-pids", "12,x"},
		{"--url", "postgres://h/db", "--server-pids", "-3"},
		{"--url", "postgres://h/db", "--concurrency", "0"},
		{"--url", "postgres://h/db", "--duration", "0s"},
		{"--url", "postgres://h/db", "--preload", "3"},
		{"--url", "postgres://h/db", "--item-size", "0"},
		{"--url", "postgres://h/db", "--schema", ""},
		{"--url", "postgres://h/db", "--no-such-flag"},
	} {
		if _, err := parseCeiling(bad, io.Discard); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
	var stderr bytes.Buffer
	if code := run([]string{"pgceiling", "--url", "http://x"}, io.Discard, &stderr); code != 1 || !strings.Contains(stderr.String(), "postgres://") {
		t.Fatalf("exit %d, %q", code, stderr.String())
	}
}

func TestCeilingURLDropsSortkeysParameters(t *testing.T) {
	got := pgURL("postgres://u:p@h:5/db?schema=benchsk&timeout=5s&sslmode=disable")
	if got != "postgres://u:p@h:5/db?sslmode=disable" {
		t.Fatalf("got %s", got)
	}
}

// TestCeilingKeysAreSortkeyBenchKeys holds the preload's keys and the
// requests' to `sortkey bench`'s: every key a request names is one of the
// preloaded items', and a query's range holds the items sortkey's Query
// selects.
func TestCeilingKeysAreSortkeyBenchKeys(t *testing.T) {
	const preload = 1000
	preloaded := map[string]int{}
	for i := range preload {
		preloaded[string(itemKey(benchPartition(i), benchSortKey(i)))] = i
	}
	itemNumber := regexp.MustCompile(`"sk":\{"S":"ITEM#(\d\d)#(\d{8})"\}`)
	for _, w := range ceilingWorkloads {
		reqs, err := bench.Build(w, bench.Shape{Keys: preload, ItemSize: 200}, 200, benchSeed)
		if err != nil {
			t.Fatal(err)
		}
		ops, err := buildOps(w, preload, 200)
		if err != nil {
			t.Fatal(err)
		}
		if len(ops) != benchRequests {
			t.Fatalf("%s: %d requests, want %d", w, len(ops), benchRequests)
		}
		for n, r := range reqs {
			op := ops[n]
			if w == "query" {
				// Query: pk = :p AND begins_with(sk, :b), Limit 10.
				var b benchBody
				if err := json.Unmarshal(r.Body, &b); err != nil {
					t.Fatal(err)
				}
				p, pre := b.ExpressionAttributeValues[":p"].S, b.ExpressionAttributeValues[":b"].S
				var want []int
				for i := range preload {
					if benchPartition(i) == p && strings.HasPrefix(benchSortKey(i), pre) {
						want = append(want, i)
					}
				}
				var got []int
				for k, i := range preloaded {
					if k >= string(op.lo) && k < string(op.hi) {
						got = append(got, i)
					}
				}
				slices.Sort(got)
				if !slices.Equal(got, want) || len(want) < 4 || len(want) > 10 {
					t.Fatalf("query %s: range holds items %v, sortkey's Query selects %v", r.Body, got, want)
				}
				continue
			}
			var names []int
			for _, m := range itemNumber.FindAllStringSubmatch(string(r.Body), -1) {
				i, _ := strconv.Atoi(m[2])
				names = append(names, i)
			}
			var got []int
			for _, k := range op.keys {
				i, ok := preloaded[string(k)]
				if !ok {
					t.Fatalf("%s: request %s: key %x was not preloaded", w, r.Body, k)
				}
				got = append(got, i)
			}
			if !slices.IsSortedFunc(op.keys, bytes.Compare) {
				t.Fatalf("%s: keys out of order: %x", w, op.keys)
			}
			slices.Sort(got)
			slices.Sort(names)
			if !slices.Equal(got, names) {
				t.Fatalf("%s: request %s names items %v, the ceiling's keys are %v", w, r.Body, names, got)
			}
		}
	}
}

func TestCeilingTable(t *testing.T) {
	rs := []ceilingResult{
		{Result: bench.Result{Workload: "get", Op: ceilingSQL["get"], Concurrency: 16, Ops: 3000, OpsPerSec: 1000, P50ms: 0.5, P99ms: 2,
			ServerCPUms: 90, ServerCPUusPerOp: 30, ClientCPUusPerOp: 12.5, OtherCPUPercent: 3}, MeanMs: 0.75},
		{Result: bench.Result{Workload: "query", Op: ceilingSQL["query"], Concurrency: 16, Ops: 10, Errors: 1, OpsPerSec: 5,
			FirstError: "ERROR: boom |"}, RowsPer: 8.25},
	}
	var b bytes.Buffer
	writeCeilingTable(&b, rs)
	for _, want := range []string{
		"| get | SELECT v by k | 16 | 3000 | 1000 | 0.750 | 0.500 | 2.000 | 0 | 30.0 | 12.5 | 3 |",
		"| query | SELECT k, v over a range, LIMIT 11 (8.2 rows) | 16 | 10 | 5 | 0.000 | 0.000 | 0.000 | 1 | 0.0 | 0.0 | 0 |",
		`first query error: ERROR: boom \|`,
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
}

func TestCPUPrintsSeconds(t *testing.T) {
	var b bytes.Buffer
	if err := cpu([]string{strconv.Itoa(os.Getpid())}, &b); err != nil {
		t.Fatal(err)
	}
	if _, err := strconv.ParseFloat(strings.TrimSpace(b.String()), 64); err != nil {
		t.Fatalf("%q: %v", b.String(), err)
	}
	if err := cpu(nil, &b); err == nil {
		t.Fatal("no pids accepted")
	}
}

// testStore is the PostgreSQL of the test switch, as
// internal/storage/pgstore's tests use it.
func testStore(t *testing.T) string {
	t.Helper()
	url := os.Getenv("SORTKEY_TEST_STORE")
	if url == "" {
		t.Skip("needs a PostgreSQL: set SORTKEY_TEST_STORE to its postgres:// URL (.ci/run starts one and does)")
	}
	return url
}

// TestCeilingRunsOnPostgres runs every workload for 40 ms, and checks
// that the schema is gone afterwards, that a schema pgceiling did not
// make is refused and that one an interrupted run left is replaced.
func TestCeilingRunsOnPostgres(t *testing.T) {
	url := testStore(t)
	schema := fmt.Sprintf("peerbench_ceiling_test_%d", os.Getpid())
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, pgURL(url))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	ident := pgx.Identifier{schema}.Sanitize()
	t.Cleanup(func() { conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+ident+" CASCADE") })
	exists := func() bool {
		var n int
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_namespace WHERE nspname = $1", schema).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n > 0
	}
	args := []string{"pgceiling", "--url", url, "--schema", schema, "--concurrency", "2", "--duration", "40ms", "--preload", "100",
		"--server-pids", strconv.Itoa(os.Getpid()), "--json"}

	// A leftover of an interrupted run: replaced.
	for _, sql := range []string{"CREATE SCHEMA " + ident, "COMMENT ON SCHEMA " + ident + " IS '" + schemaMark + "'", "CREATE TABLE " + ident + ".kv (k bytea)"} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if exists() {
		t.Fatal("the schema is still there after the run")
	}
	var got []string
	sc := bufio.NewScanner(&stdout)
	for sc.Scan() {
		var r ceilingResult
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%q: %v", sc.Text(), err)
		}
		got = append(got, r.Workload)
		if r.Ops == 0 || r.Errors > 0 || r.OpsPerSec <= 0 || r.MeanMs <= 0 || r.P99ms < r.P50ms || r.Concurrency != 2 || r.Target != "pgx ceiling" {
			t.Errorf("%s: %+v", r.Workload, r)
		}
		if r.Workload == "query" && (r.RowsPer < 4 || r.RowsPer > 10) {
			t.Errorf("query read %.1f rows a request, want 4 to 10", r.RowsPer)
		}
	}
	if !slices.Equal(got, ceilingWorkloads) {
		t.Fatalf("workloads %v, want %v", got, ceilingWorkloads)
	}

	// Someone else's schema: refused, and kept.
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+ident); err != nil {
		t.Fatal(err)
	}
	stderr.Reset()
	if code := run(args, io.Discard, &stderr); code != 1 || !strings.Contains(stderr.String(), "not made by peerbench") {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !exists() {
		t.Fatal("a schema pgceiling did not make was dropped")
	}
}

func TestPGReport(t *testing.T) {
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
	sk := func(rate float64, errs int) bench.Result {
		return bench.Result{Workload: "get", Op: "GetItem", Concurrency: 16, Ops: int(rate) * 3, Errors: errs, OpsPerSec: rate, P50ms: 1, P99ms: 4,
			ServerCPUusPerOp: 100, ClientCPUusPerOp: 20, OtherCPUPercent: 160, FirstError: map[bool]string{true: "GetItem: HTTP 500"}[errs > 0]}
	}
	ceil := func(rate float64) ceilingResult {
		return ceilingResult{Result: bench.Result{Workload: "get", Op: ceilingSQL["get"], Concurrency: 16, Ops: int(rate) * 3, OpsPerSec: rate,
			P50ms: 0.5, P99ms: 1, ServerCPUusPerOp: 40, ClientCPUusPerOp: 10, OtherCPUPercent: 2}, Target: "pgx ceiling", MeanMs: 0.6}
	}
	// PostgreSQL used 500 µs a request in each sortkey run of 3 s: 100%,
	// 150% and 200% of one core, which sortkey bench counted among the
	// other processes' 160%.
	write("round-1/sortkey.jsonl", line(sk(2000, 0)))
	write("round-1/sortkey-pgcpu.tsv", "get\t10.00\t13.00\n")
	write("round-1/ceiling.jsonl", line(ceil(8000)))
	write("round-2/sortkey.jsonl", line(sk(3000, 0)))
	write("round-2/sortkey-pgcpu.tsv", "get\t20.00\t24.50\n")
	write("round-2/ceiling.jsonl", line(ceil(10000)))
	write("round-10/sortkey.jsonl", line(sk(4000, 12)))
	write("round-10/sortkey-pgcpu.tsv", "get\t30.00\t36.00\n")
	write("round-10/ceiling.err", "peerbench: connection refused\n")

	var out bytes.Buffer
	if err := pgreport(dir, &out); err != nil {
		t.Fatal(err)
	}
	md := out.String()
	for _, want := range []string{
		"median of 3 round(s)",
		"| get | 16 | 3,000 | 2,000 / 3,000 / 3,996 | 1.000 | 4.000 | 100 | 500 | 20 | 10 | 12 |",
		"| get | SELECT v by k | 16 | 9,000 | 8,000 / 10,000 | 0.600 | 0.500 | 1.000 | 40 | 10 | 2 | 0 |",
		"| get | 0.33× | 2.00× | 4.00× | 12.50× |",
		"- sortkey, get: 12 of 12000 requests failed; the first: GetItem: HTTP 500",
		"- ceiling, round-10: peerbench: connection refused",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if t.Failed() {
		t.Log(md)
	}
}
