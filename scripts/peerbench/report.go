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

// The results directory, as scripts/bench-peers.sh writes it:
//
//	targets.tsv           one target per line: name, label, how it was run
//	NAME/error.txt        why the target could not run at all (install, start)
//	NAME/startup.json     peerbench start's line for the benchmark process
//	NAME/start-K/startup.json  the same for extra starts, made only to time them
//	NAME/setup.err        why creating the table or preloading failed
//	NAME/bench.jsonl      sortkey bench --json lines, every workload and concurrency
//	NAME/cells.err        "workload concurrency: message" for runs that failed
//	NAME/load.jsonl       sortkey bench --json lines of the 1,000,000-item run
//	NAME/load-items.txt   how many items that run loaded (1,000,000 unless told)
//	NAME/load-seconds.txt how long loading them took
//	NAME/load.err         why the 1,000,000-item run failed

type target struct {
	Name, Label, How string
	Error            string       // the target did not run
	Startup          *startupLine // the benchmark process's start
	StartupMS        []float64    // every start's time, sorted
	SetupErr         string
	Results          []bench.Result
	CellErrs         map[cell]string
	Load             []bench.Result
	LoadItems        int
	LoadSeconds      float64
	LoadErr          string
}

type startupLine struct {
	PID       int     `json:"pid"`
	StartupMS float64 `json:"startup_ms"`
	RSSMB     float64 `json:"rss_mb"`
	Command   string  `json:"command"`
}

type cell struct {
	workload    string
	concurrency int
}

// Fixed names the goals refer to.
const (
	noopName     = "noop"
	memName      = "sortkey-mem"
	diskName     = "sortkey-disk"
	dynaliteMem  = "dynalite-mem"
	ddbLocalMem  = "ddblocal-mem"
	ddbLocalDisk = "ddblocal-disk"
)

func readTargets(dir string) ([]*target, error) {
	b, err := os.ReadFile(filepath.Join(dir, "targets.tsv"))
	if err != nil {
		return nil, err
	}
	var ts []*target
	for line := range strings.Lines(string(b)) {
		f := strings.Split(strings.TrimRight(line, "\n"), "\t")
		if len(f) < 3 {
			continue
		}
		t := &target{Name: f[0], Label: f[1], How: f[2], CellErrs: map[cell]string{}}
		if err := t.read(filepath.Join(dir, t.Name)); err != nil {
			return nil, fmt.Errorf("%s: %w", t.Name, err)
		}
		ts = append(ts, t)
	}
	return ts, nil
}

func (t *target) read(dir string) error {
	t.Error = readText(dir, "error.txt")
	t.SetupErr = readText(dir, "setup.err")
	t.LoadErr = readText(dir, "load.err")
	if s := readText(dir, "load-items.txt"); s != "" {
		t.LoadItems, _ = strconv.Atoi(s)
	}
	if s := readText(dir, "load-seconds.txt"); s != "" {
		t.LoadSeconds, _ = strconv.ParseFloat(s, 64)
	}
	for line := range strings.Lines(readText(dir, "cells.err")) {
		var c cell
		var msg string
		if before, after, ok := strings.Cut(line, ": "); ok {
			msg = strings.TrimSpace(after)
			if _, err := fmt.Sscanf(before, "%s %d", &c.workload, &c.concurrency); err == nil {
				t.CellErrs[c] = msg
			}
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "startup.json")); err == nil {
		t.Startup = &startupLine{}
		if err := json.Unmarshal(b, t.Startup); err != nil {
			return err
		}
		t.StartupMS = append(t.StartupMS, t.Startup.StartupMS)
	}
	extra, _ := filepath.Glob(filepath.Join(dir, "start-*", "startup.json"))
	for _, path := range extra {
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var s startupLine
		if err := json.Unmarshal(b, &s); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		t.StartupMS = append(t.StartupMS, s.StartupMS)
	}
	slices.Sort(t.StartupMS)
	var err error
	if t.Results, err = readResults(filepath.Join(dir, "bench.jsonl")); err != nil {
		return err
	}
	t.Load, err = readResults(filepath.Join(dir, "load.jsonl"))
	return err
}

func readText(dir, name string) string {
	b, _ := os.ReadFile(filepath.Join(dir, name))
	return strings.TrimSpace(string(b))
}

func readResults(path string) ([]bench.Result, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rs []bench.Result
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var r bench.Result
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		rs = append(rs, r)
	}
	return rs, sc.Err()
}

// runResult is one workload at one concurrency against one target: every
// operation's results (mix has several) and why it failed, if it did.
type runResult struct {
	rs  []bench.Result
	err string
}

func (t *target) run(c cell) runResult {
	var out runResult
	for _, r := range t.Results {
		if r.Workload == c.workload && r.Concurrency == c.concurrency {
			out.rs = append(out.rs, r)
		}
	}
	out.err = t.CellErrs[c]
	return out
}

// okPerSec is the run's successful operations per second (errors are
// counted, not credited), ops all its operations, errs its errors.
func (r runResult) okPerSec() (rate float64, ops, errs int) {
	for _, x := range r.rs {
		ops += x.Ops
		errs += x.Errors
		if x.Ops > 0 {
			rate += x.OpsPerSec * float64(x.Ops-x.Errors) / float64(x.Ops)
		}
	}
	return rate, ops, errs
}

// p99 is the worst p99 latency over the run's operations.
func (r runResult) p99() float64 {
	var p float64
	for _, x := range r.rs {
		p = max(p, x.P99ms)
	}
	return p
}

// noisy is the limit, in percent of one core, above which other
// processes' CPU use during a run marks its figures as disturbed.
const noisy = 10

// otherCPU is the share of one core other processes used during the run.
func (r runResult) otherCPU() float64 {
	if len(r.rs) == 0 {
		return 0
	}
	return r.rs[0].OtherCPUPercent
}

func (r runResult) cpuPerOp() float64 {
	if len(r.rs) == 0 {
		return 0
	}
	return r.rs[0].ServerCPUusPerOp
}

// medianStartup is the median of the start-up times, in milliseconds.
func (t *target) medianStartup() float64 {
	n := len(t.StartupMS)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return t.StartupMS[n/2]
	}
	return (t.StartupMS[n/2-1] + t.StartupMS[n/2]) / 2
}

// unavailable says why a target has no figure for a run, or "".
func (t *target) unavailable(r runResult) string {
	switch {
	case t.Error != "":
		return "did not run"
	case t.SetupErr != "":
		return "setup failed"
	case r.err != "":
		return "failed"
	case len(r.rs) == 0:
		return "not run"
	}
	return ""
}

func report(dir string, w io.Writer) error {
	ts, err := readTargets(dir)
	if err != nil {
		return err
	}
	if err := writeAll(filepath.Join(dir, "results.jsonl"), ts); err != nil {
		return err
	}
	writeReport(w, ts)
	return nil
}

// writeAll writes every figure as JSON lines, each naming its target.
func writeAll(path string, ts []*target) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	for _, t := range ts {
		type tagged struct {
			Target string `json:"target"`
			Step   string `json:"step"`
			bench.Result
		}
		line := map[string]any{"target": t.Name, "step": "target", "label": t.Label, "how": t.How}
		if t.Error != "" {
			line["error"] = t.Error
		}
		if t.SetupErr != "" {
			line["setup_error"] = t.SetupErr
		}
		if t.Startup != nil {
			line["startup_ms"], line["startup_rss_mb"] = t.medianStartup(), t.Startup.RSSMB
			line["startup_ms_samples"] = t.StartupMS
		}
		if t.LoadItems > 0 {
			line["load_items"] = t.LoadItems
		}
		if t.LoadSeconds > 0 {
			line["load_seconds"] = t.LoadSeconds
		}
		if len(t.Load) > 0 {
			line["load_rss_mb"] = t.Load[0].ServerRSSMB
		}
		if t.LoadErr != "" {
			line["load_error"] = t.LoadErr
		}
		if err := enc.Encode(line); err != nil {
			f.Close()
			return err
		}
		for c, msg := range t.CellErrs {
			if err := enc.Encode(map[string]any{"target": t.Name, "step": "bench", "workload": c.workload, "concurrency": c.concurrency, "error": msg}); err != nil {
				f.Close()
				return err
			}
		}
		for _, r := range t.Results {
			if err := enc.Encode(tagged{t.Name, "bench", r}); err != nil {
				f.Close()
				return err
			}
		}
		for _, r := range t.Load {
			if err := enc.Encode(tagged{t.Name, "load", r}); err != nil {
				f.Close()
				return err
			}
		}
	}
	return f.Close()
}

// cells lists the runs in the order they were made.
func cells(ts []*target) []cell {
	seen := map[cell]bool{}
	var out []cell
	add := func(c cell) {
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	for _, w := range bench.Workloads {
		for _, t := range ts {
			for _, r := range t.Results {
				if r.Workload == w {
					add(cell{r.Workload, r.Concurrency})
				}
			}
			for c := range t.CellErrs {
				if c.workload == w {
					add(c)
				}
			}
		}
	}
	return out
}

func writeReport(w io.Writer, ts []*target) {
	cs := cells(ts)
	header := func(first string) {
		fmt.Fprintf(w, "| %s | conc |", first)
		for _, t := range ts {
			fmt.Fprintf(w, " %s |", t.Label)
		}
		fmt.Fprint(w, "\n|---|--:|")
		for range ts {
			fmt.Fprint(w, "--:|")
		}
		fmt.Fprintln(w)
	}
	table := func(title, first string, value func(t *target, r runResult) string) {
		fmt.Fprintf(w, "%s\n\n", title)
		header(first)
		for _, c := range cs {
			fmt.Fprintf(w, "| %s | %d |", c.workload, c.concurrency)
			for _, t := range ts {
				r := t.run(c)
				v := t.unavailable(r)
				if v == "" {
					v = value(t, r)
				}
				fmt.Fprintf(w, " %s |", v)
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w)
	}

	table("Throughput, successful requests per second (a batch-write request writes 25 items, a transact-write request 4; errors are shown, never credited):", "workload",
		func(_ *target, r runResult) string {
			rate, _, errs := r.okPerSec()
			s := thousands(rate)
			if errs > 0 {
				s += fmt.Sprintf(" (**%d errors**)", errs)
			}
			if r.otherCPU() > noisy {
				s += " †"
			}
			return s
		})
	fmt.Fprintf(w, "† other processes on the machine used more than %d%% of one core during that run (table below).\n\n", noisy)
	table("Latency, p99 in milliseconds (the worst operation's, for mix):", "workload",
		func(_ *target, r runResult) string { return fmt.Sprintf("%.2f", r.p99()) })
	table("Server CPU per request in microseconds (user + system time of the server's processes during the run, divided by the requests answered):", "workload",
		func(_ *target, r runResult) string { return fmt.Sprintf("%.0f", r.cpuPerOp()) })

	table("Client CPU per request in microseconds (the same `sortkey bench` process for every target):", "workload",
		func(_ *target, r runResult) string {
			if len(r.rs) == 0 {
				return ""
			}
			return fmt.Sprintf("%.0f", r.rs[0].ClientCPUusPerOp)
		})
	table("Other processes' CPU during each run, percent of one core (the machine's busy time less the server's and the client's; a quiet machine shows 0–2):", "workload",
		func(_ *target, r runResult) string { return fmt.Sprintf("%.0f", r.otherCPU()) })

	fmt.Fprintln(w, "Start-up and memory (a fresh process for each):")
	fmt.Fprintln(w)
	fmt.Fprint(w, "| | ")
	for _, t := range ts {
		fmt.Fprintf(w, "%s | ", t.Label)
	}
	fmt.Fprint(w, "\n|---|")
	for range ts {
		fmt.Fprint(w, "--:|")
	}
	fmt.Fprintln(w)
	row := func(name string, value func(t *target) string) {
		fmt.Fprintf(w, "| %s |", name)
		for _, t := range ts {
			fmt.Fprintf(w, " %s |", value(t))
		}
		fmt.Fprintln(w)
	}
	row("process start to first answered ListTables, ms: median of the starts (fastest–slowest)", func(t *target) string {
		if t.Startup == nil {
			return "did not start"
		}
		if len(t.StartupMS) == 1 {
			return fmt.Sprintf("%.1f", t.StartupMS[0])
		}
		return fmt.Sprintf("%.1f (%.1f–%.1f)", t.medianStartup(), t.StartupMS[0], t.StartupMS[len(t.StartupMS)-1])
	})
	row("RSS at the first answer, MB", func(t *target) string {
		if t.Startup == nil {
			return "—"
		}
		return fmt.Sprintf("%.0f", t.Startup.RSSMB)
	})
	loaded := 0
	for _, t := range ts {
		loaded = max(loaded, t.LoadItems)
	}
	row(fmt.Sprintf("time to load %s items of 200 bytes (8 writers, BatchWriteItem), s", thousands(float64(loaded))), func(t *target) string {
		switch {
		case t.LoadErr != "":
			return "failed"
		case t.LoadSeconds == 0:
			return "—"
		}
		return fmt.Sprintf("%.1f", t.LoadSeconds)
	})
	row("RSS after loading them and 2 s of GetItem, MB", func(t *target) string {
		switch {
		case t.LoadErr != "":
			return "failed"
		case len(t.Load) == 0:
			return "—"
		}
		return fmt.Sprintf("%.0f", t.Load[0].ServerRSSMB)
	})
	fmt.Fprintln(w)

	writeGoals(w, ts)
	writeErrors(w, ts, cs)
}

func thousands(f float64) string {
	s := strconv.FormatInt(int64(f+0.5), 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// writeGoals checks the figures against the goals of issue 8.
func writeGoals(w io.Writer, ts []*target) {
	byName := map[string]*target{}
	for _, t := range ts {
		byName[t.Name] = t
	}
	fmt.Fprintln(w, "Goals:")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| goal | measured | ratio | the no-op ceiling's ratio | met? |")
	fmt.Fprintln(w, "|---|---|--:|--:|---|")
	// figure is a run's successful rate, or why there is none.
	figure := func(name string, c cell) (float64, string) {
		t := byName[name]
		if t == nil {
			return 0, name + " not in this run"
		}
		r := t.run(c)
		if why := t.unavailable(r); why != "" {
			return 0, t.Label + " " + why
		}
		rate, _, errs := r.okPerSec()
		if errs > 0 {
			return rate, fmt.Sprintf("%s had %d errors", t.Label, errs)
		}
		return rate, ""
	}
	verdict := func(ok bool, notes []string) string {
		v := "**missed**"
		if ok {
			v = "met"
		}
		if len(notes) > 0 {
			v += " (" + strings.Join(notes, "; ") + ")"
		}
		return v
	}

	// CPU per GetItem against the no-op handler.
	for _, conc := range []int{16, 1} {
		c := cell{"get", conc}
		sk, noop := byName[memName], byName[noopName]
		if sk == nil || noop == nil || sk.unavailable(sk.run(c)) != "" || noop.unavailable(noop.run(c)) != "" {
			fmt.Fprintf(w, "| server CPU per GetItem ≤ 1.7 × no-op handler's (conc %d) | not measured | | | **missed** |\n", conc)
			continue
		}
		a, b := sk.run(c).cpuPerOp(), noop.run(c).cpuPerOp()
		ratio := a / b
		fmt.Fprintf(w, "| server CPU per GetItem ≤ 1.7 × no-op handler's (conc %d) | %.1f µs vs %.1f µs | %.2f× | | %s |\n", conc, a, b, ratio, verdict(ratio <= 1.7, nil))
	}

	// Throughput against the peers.
	ratioRow := func(goal, ours string, peer string, c cell, want float64) {
		a, aNote := figure(ours, c)
		b, bNote := figure(peer, c)
		var notes []string
		for _, n := range []string{aNote, bNote} {
			if n != "" {
				notes = append(notes, n)
			}
		}
		if a == 0 || b == 0 {
			fmt.Fprintf(w, "| %s | not measured | — | | %s |\n", goal, verdict(false, notes))
			return
		}
		// The most any server could show here: the no-op handler's rate
		// with the same client on the same machine, over the peer's.
		ceiling := ""
		if n, note := figure(noopName, c); n > 0 && note == "" {
			ceiling = fmt.Sprintf("%.1f×", n/b)
		}
		ratio := a / b
		fmt.Fprintf(w, "| %s | %s/s vs %s/s | %.1f× | %s | %s |\n", goal, thousands(a), thousands(b), ratio, ceiling, verdict(ratio >= want && aNote == "", notes))
	}
	label := func(name string) string {
		if t := byName[name]; t != nil {
			return t.Label
		}
		return name
	}
	for _, wl := range []string{"query", "update", "put", "batch-write", "get"} {
		want := 5.0
		if wl == "get" {
			want = 3
		}
		for _, peer := range []string{dynaliteMem, ddbLocalMem} {
			ratioRow(fmt.Sprintf("%s, conc 16, in memory: ≥ %.0f× %s", wl, want, label(peer)), memName, peer, cell{wl, 16}, want)
		}
	}
	for _, wl := range []string{"put", "batch-write"} {
		ratioRow(fmt.Sprintf("%s, conc 16, on disk: ≥ 10× %s", wl, label(ddbLocalDisk)), diskName, ddbLocalDisk, cell{wl, 16}, 10)
	}

	if t := byName[memName]; t != nil && t.Startup != nil {
		ms := t.medianStartup()
		fmt.Fprintf(w, "| start to first answered request < 20 ms, in memory | %.1f ms (median of %d) | %.2f× the limit | | %s |\n", ms, len(t.StartupMS), ms/20, verdict(ms < 20, nil))
	} else {
		fmt.Fprintln(w, "| start to first answered request < 20 ms, in memory | not measured | | | **missed** |")
	}
	if t := byName[memName]; t != nil && len(t.Load) > 0 && t.LoadErr == "" {
		mb := t.Load[0].ServerRSSMB
		var notes []string
		if t.LoadItems != 1_000_000 {
			notes = append(notes, fmt.Sprintf("measured with %s items, not 1,000,000", thousands(float64(t.LoadItems))))
		}
		fmt.Fprintf(w, "| 1,000,000 items of 200 bytes in memory < 600 MB RSS | %.0f MB | %.2f× the limit | | %s |\n", mb, mb/600, verdict(mb < 600 && len(notes) == 0, notes))
	} else {
		fmt.Fprintln(w, "| 1,000,000 items of 200 bytes in memory < 600 MB RSS | not measured | | | **missed** |")
	}
	fmt.Fprintln(w)
}

// writeErrors lists every failure and the first error of every run that
// had errors.
func writeErrors(w io.Writer, ts []*target, cs []cell) {
	var lines []string
	for _, t := range ts {
		if t.Error != "" {
			lines = append(lines, fmt.Sprintf("- %s did not run: %s", t.Label, oneLine(t.Error)))
		}
		if t.SetupErr != "" {
			lines = append(lines, fmt.Sprintf("- %s: creating the table or preloading failed: %s", t.Label, oneLine(t.SetupErr)))
		}
		for _, c := range cs {
			r := t.run(c)
			if r.err != "" {
				lines = append(lines, fmt.Sprintf("- %s, %s at concurrency %d failed: %s", t.Label, c.workload, c.concurrency, oneLine(r.err)))
			}
			for _, x := range r.rs {
				if x.Errors > 0 {
					lines = append(lines, fmt.Sprintf("- %s, %s at concurrency %d: %d of %d %s requests failed; the first: %s", t.Label, c.workload, c.concurrency, x.Errors, x.Ops, x.Op, oneLine(x.FirstError)))
				}
			}
		}
		if t.LoadErr != "" {
			lines = append(lines, fmt.Sprintf("- %s: loading 1,000,000 items failed: %s", t.Label, oneLine(t.LoadErr)))
		}
		for _, x := range t.Load {
			if x.Errors > 0 {
				lines = append(lines, fmt.Sprintf("- %s, after loading 1,000,000 items: %d of %d %s requests failed; the first: %s", t.Label, x.Errors, x.Ops, x.Op, oneLine(x.FirstError)))
			}
		}
	}
	fmt.Fprintln(w, "Errors and failures:")
	fmt.Fprintln(w)
	if len(lines) == 0 {
		fmt.Fprintln(w, "none: every request of every run was answered with HTTP 200.")
		return
	}
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return strings.ReplaceAll(s, "|", `\|`)
}
