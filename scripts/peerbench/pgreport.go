package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/sortkeydb/sortkey/internal/bench"
)

// The results directory of scripts/bench-pg.sh:
//
//	round-R/sortkey.jsonl        sortkey bench --json lines, one per workload
//	round-R/sortkey-pgcpu.tsv    workload, then PostgreSQL's CPU seconds
//	                             (peerbench cpu) before and after its run
//	round-R/sortkey.err          "workload: message" for runs that failed
//	round-R/ceiling.jsonl        peerbench pgceiling --json lines
//	round-R/ceiling.err          why pgceiling failed
//
// Each figure is reported as the median of the rounds, throughput with
// every round's too, so that a disturbed round shows.

// pgRun is one workload's run, by either client, in one round.
type pgRun struct {
	res     bench.Result
	meanMs  float64 // the ceiling's only
	rowsPer float64 // the ceiling's query only
	pgCPU   float64 // PostgreSQL's CPU per request, µs; 0: not measured
	otherCP float64 // other processes' share of one core, percent
}

// pgSide is one client's runs: by workload, one per round that has it.
type pgSide struct {
	runs map[string][]pgRun
	errs []string
}

func pgreport(dir string, w io.Writer) error {
	rounds, err := filepath.Glob(filepath.Join(dir, "round-*"))
	if err != nil {
		return err
	}
	slices.SortFunc(rounds, func(a, b string) int { return roundNumber(a) - roundNumber(b) })
	if len(rounds) == 0 {
		return fmt.Errorf("%s: no round-* directories", dir)
	}
	sk, ceil := &pgSide{runs: map[string][]pgRun{}}, &pgSide{runs: map[string][]pgRun{}}
	for _, r := range rounds {
		if err := sk.readSortkey(r); err != nil {
			return err
		}
		if err := ceil.readCeiling(r); err != nil {
			return err
		}
	}
	writePGReport(w, len(rounds), sk, ceil)
	return nil
}

func roundNumber(dir string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(filepath.Base(dir), "round-"))
	return n
}

// readSortkey reads a round of sortkey bench lines and works out
// PostgreSQL's CPU per request from the readings around each run.
// sortkey bench counts PostgreSQL among the "other" processes; it is
// taken out of that share here.
func (s *pgSide) readSortkey(round string) error {
	rs, err := readResults(filepath.Join(round, "sortkey.jsonl"))
	if err != nil {
		return err
	}
	cpu, err := readCPU(filepath.Join(round, "sortkey-pgcpu.tsv"))
	if err != nil {
		return err
	}
	for _, r := range rs {
		run := pgRun{res: r, otherCP: r.OtherCPUPercent}
		if used, ok := cpu[r.Workload]; ok && r.Ops > 0 {
			run.pgCPU = used * 1e6 / float64(r.Ops)
			if r.OpsPerSec > 0 {
				elapsed := float64(r.Ops) / r.OpsPerSec
				run.otherCP = max(r.OtherCPUPercent-100*used/elapsed, 0)
			}
		}
		s.runs[r.Workload] = append(s.runs[r.Workload], run)
	}
	s.addErrs(round, "sortkey.err")
	return nil
}

func (s *pgSide) readCeiling(round string) error {
	f, err := os.Open(filepath.Join(round, "ceiling.jsonl"))
	if errors.Is(err, os.ErrNotExist) {
		s.addErrs(round, "ceiling.err")
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var r ceilingResult
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return fmt.Errorf("%s/ceiling.jsonl: %w", round, err)
		}
		s.runs[r.Workload] = append(s.runs[r.Workload], pgRun{res: r.Result, meanMs: r.MeanMs, rowsPer: r.RowsPer, pgCPU: r.ServerCPUusPerOp, otherCP: r.OtherCPUPercent})
	}
	s.addErrs(round, "ceiling.err")
	return sc.Err()
}

func (s *pgSide) addErrs(round, name string) {
	for line := range strings.Lines(readText(round, name)) {
		if line = strings.TrimSpace(line); line != "" {
			s.errs = append(s.errs, filepath.Base(round)+": "+oneLine(line))
		}
	}
}

// readCPU reads "workload before after" lines into CPU seconds used.
func readCPU(path string) (map[string]float64, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := map[string]float64{}
	for line := range strings.Lines(string(b)) {
		f := strings.Fields(line)
		if len(f) != 3 {
			continue
		}
		before, err1 := strconv.ParseFloat(f[1], 64)
		after, err2 := strconv.ParseFloat(f[2], 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("%s: bad line %q", path, strings.TrimSpace(line))
		}
		out[f[0]] = after - before
	}
	return out, nil
}

// median of the runs' values of fn; 0 when there are none.
func median(runs []pgRun, fn func(pgRun) float64) float64 {
	var vs []float64
	for _, r := range runs {
		vs = append(vs, fn(r))
	}
	slices.Sort(vs)
	switch n := len(vs); {
	case n == 0:
		return 0
	case n%2 == 1:
		return vs[n/2]
	default:
		return (vs[n/2-1] + vs[n/2]) / 2
	}
}

// okRate is a run's successful requests per second: errors are counted,
// never credited.
func okRate(r pgRun) float64 {
	if r.res.Ops == 0 {
		return 0
	}
	return r.res.OpsPerSec * float64(r.res.Ops-r.res.Errors) / float64(r.res.Ops)
}

func eachRound(runs []pgRun) string {
	var parts []string
	for _, r := range runs {
		parts = append(parts, thousands(okRate(r)))
	}
	return strings.Join(parts, " / ")
}

func errorCount(runs []pgRun) int {
	n := 0
	for _, r := range runs {
		n += r.res.Errors
	}
	return n
}

// orDash prints a CPU figure, or a dash when it was not measured.
func orDash(v float64, format string) string {
	if v == 0 {
		return "—"
	}
	return fmt.Sprintf(format, v)
}

// pgWorkloads lists the workloads either side ran, in bench's order.
func pgWorkloads(sides ...*pgSide) []string {
	var out []string
	for _, w := range bench.Workloads {
		for _, s := range sides {
			if len(s.runs[w]) > 0 && !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	return out
}

func writePGReport(w io.Writer, rounds int, sk, ceil *pgSide) {
	ws := pgWorkloads(sk, ceil)
	fmt.Fprintf(w, "Figures are the median of %d round(s); req/s also each round's, in order. req/s counts successful requests only. CPU is µs per request: sortkey's process, PostgreSQL's whole cluster (the postmaster and every process under it), the benchmark client's. Other CPU is the share of one core every other process on the machine used during the run (a quiet machine shows 0–2).\n\n", rounds)

	fmt.Fprintln(w, "sortkey on PostgreSQL (`sortkey bench` against `sortkey serve --store`):")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| workload | conc | req/s | each round | p50 ms | p99 ms | sortkey CPU | PostgreSQL CPU | client CPU | other CPU % | errors |")
	fmt.Fprintln(w, "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
	for _, wl := range ws {
		rs := sk.runs[wl]
		if len(rs) == 0 {
			fmt.Fprintf(w, "| %s | | not run | | | | | | | | |\n", wl)
			continue
		}
		fmt.Fprintf(w, "| %s | %d | %s | %s | %.3f | %.3f | %s | %s | %s | %.0f | %d |\n", wl, rs[0].res.Concurrency,
			thousands(median(rs, okRate)), eachRound(rs),
			median(rs, func(r pgRun) float64 { return r.res.P50ms }), median(rs, func(r pgRun) float64 { return r.res.P99ms }),
			orDash(median(rs, func(r pgRun) float64 { return r.res.ServerCPUusPerOp }), "%.0f"),
			orDash(median(rs, func(r pgRun) float64 { return r.pgCPU }), "%.0f"),
			orDash(median(rs, func(r pgRun) float64 { return r.res.ClientCPUusPerOp }), "%.0f"),
			median(rs, func(r pgRun) float64 { return r.otherCP }), errorCount(rs))
	}
	fmt.Fprintln(w)

	fmt.Fprintln(w, "The bare pgx ceiling (`peerbench pgceiling`: the same keys, the least SQL, one pgx connection per client):")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| workload | SQL per request | conc | req/s | each round | mean ms | p50 ms | p99 ms | PostgreSQL CPU | client CPU | other CPU % | errors |")
	fmt.Fprintln(w, "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
	for _, wl := range ws {
		rs := ceil.runs[wl]
		if len(rs) == 0 {
			fmt.Fprintf(w, "| %s | | | not run | | | | | | | | |\n", wl)
			continue
		}
		sql := rs[0].res.Op
		if rows := median(rs, func(r pgRun) float64 { return r.rowsPer }); rows > 0 {
			sql += fmt.Sprintf(" (%.1f rows)", rows)
		}
		fmt.Fprintf(w, "| %s | %s | %d | %s | %s | %.3f | %.3f | %.3f | %s | %s | %.0f | %d |\n", wl, sql, rs[0].res.Concurrency,
			thousands(median(rs, okRate)), eachRound(rs),
			median(rs, func(r pgRun) float64 { return r.meanMs }),
			median(rs, func(r pgRun) float64 { return r.res.P50ms }), median(rs, func(r pgRun) float64 { return r.res.P99ms }),
			orDash(median(rs, func(r pgRun) float64 { return r.pgCPU }), "%.0f"),
			orDash(median(rs, func(r pgRun) float64 { return r.res.ClientCPUusPerOp }), "%.0f"),
			median(rs, func(r pgRun) float64 { return r.otherCP }), errorCount(rs))
	}
	fmt.Fprintln(w)

	fmt.Fprintln(w, "sortkey / ceiling (of the medians; req/s: the share of the ceiling sortkey reaches; latency and CPU: how many times the ceiling's):")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| workload | req/s | p50 | p99 | PostgreSQL CPU per request |")
	fmt.Fprintln(w, "|---|--:|--:|--:|--:|")
	ratio := func(a, b []pgRun, fn func(pgRun) float64) string {
		x, y := median(a, fn), median(b, fn)
		if len(a) == 0 || len(b) == 0 || x == 0 || y == 0 {
			return "—"
		}
		return fmt.Sprintf("%.2f×", x/y)
	}
	for _, wl := range ws {
		a, b := sk.runs[wl], ceil.runs[wl]
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", wl, ratio(a, b, okRate),
			ratio(a, b, func(r pgRun) float64 { return r.res.P50ms }), ratio(a, b, func(r pgRun) float64 { return r.res.P99ms }),
			ratio(a, b, func(r pgRun) float64 { return r.pgCPU }))
	}
	fmt.Fprintln(w)

	fmt.Fprintln(w, "Errors and failures:")
	fmt.Fprintln(w)
	var lines []string
	for _, side := range []struct {
		name string
		s    *pgSide
	}{{"sortkey", sk}, {"ceiling", ceil}} {
		for _, e := range side.s.errs {
			lines = append(lines, fmt.Sprintf("- %s, %s", side.name, e))
		}
		for _, wl := range ws {
			for _, r := range side.s.runs[wl] {
				if r.res.Errors > 0 {
					lines = append(lines, fmt.Sprintf("- %s, %s: %d of %d requests failed; the first: %s", side.name, wl, r.res.Errors, r.res.Ops, oneLine(r.res.FirstError)))
				}
			}
		}
	}
	if len(lines) == 0 {
		fmt.Fprintln(w, "none.")
		return
	}
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
}
