package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// The results directory of scripts/bench-cluster.sh:
//
//	nodes-N/round-R/    sortkey bench against N nodes, laid out as a
//	                    round of bench-pg.sh's (see pgreport.go); the
//	                    servers' CPU is summed over the N nodes
//	ceiling/round-R/    peerbench pgceiling, likewise
//
// As in pgreport, each figure is the median of the rounds.

func clusterreport(dir string, w io.Writer) error {
	nodeDirs, err := filepath.Glob(filepath.Join(dir, "nodes-*"))
	if err != nil {
		return err
	}
	if len(nodeDirs) == 0 {
		return fmt.Errorf("%s: no nodes-* directories", dir)
	}
	slices.SortFunc(nodeDirs, func(a, b string) int { return nodeCount(a) - nodeCount(b) })
	var sides []clusterSide
	for _, d := range nodeDirs {
		s := clusterSide{nodes: nodeCount(d), pgSide: &pgSide{runs: map[string][]pgRun{}}}
		if err := eachRoundDir(d, s.readSortkey); err != nil {
			return err
		}
		sides = append(sides, s)
	}
	ceil := &pgSide{runs: map[string][]pgRun{}}
	if err := eachRoundDir(filepath.Join(dir, "ceiling"), ceil.readCeiling); err != nil {
		return err
	}
	writeClusterReport(w, sides, ceil)
	return nil
}

// clusterSide is sortkey's runs against one number of nodes.
type clusterSide struct {
	nodes int
	*pgSide
}

func nodeCount(dir string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(filepath.Base(dir), "nodes-"))
	return n
}

// eachRoundDir calls read with each round-R directory under dir, in
// order; none is no error (the ceiling's may all have failed to start).
func eachRoundDir(dir string, read func(string) error) error {
	rounds, err := filepath.Glob(filepath.Join(dir, "round-*"))
	if err != nil {
		return err
	}
	slices.SortFunc(rounds, func(a, b string) int { return roundNumber(a) - roundNumber(b) })
	for _, r := range rounds {
		if err := read(r); err != nil {
			return err
		}
	}
	return nil
}

func writeClusterReport(w io.Writer, sides []clusterSide, ceil *pgSide) {
	all := []*pgSide{ceil}
	for _, s := range sides {
		all = append(all, s.pgSide)
	}
	fmt.Fprintln(w, "Figures are the median of the rounds; req/s also each round's, in order, and counts successful requests only. CPU is µs per request: sortkey's (summed over the nodes), PostgreSQL's whole cluster, the benchmark client's. Other CPU is the share of one core every other process on the machine used during the run. × ceiling is req/s against the bare pgx ceiling's.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| workload | nodes | req/s | each round | p99 ms | sortkey CPU | PostgreSQL CPU | client CPU | other CPU % | × ceiling | errors |")
	fmt.Fprintln(w, "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
	for _, wl := range pgWorkloads(all...) {
		top := median(ceil.runs[wl], okRate)
		for _, s := range sides {
			writeClusterRow(w, wl, strconv.Itoa(s.nodes), s.runs[wl], top)
		}
		writeClusterRow(w, wl, "", ceil.runs[wl], top)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Errors and failures:")
	fmt.Fprintln(w)
	lines := clusterErrors(sides, ceil)
	if len(lines) == 0 {
		fmt.Fprintln(w, "none.")
	}
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
}

// writeClusterRow prints one workload's runs against a number of nodes,
// or the ceiling's when nodes is ""; top is the ceiling's median req/s
// (0: not measured).
func writeClusterRow(w io.Writer, workload, nodes string, rs []pgRun, top float64) {
	skCPU := func(r pgRun) float64 { return r.res.ServerCPUusPerOp }
	if nodes == "" {
		// The ceiling's server is PostgreSQL, reported as r.pgCPU.
		nodes, skCPU = "pgx ceiling", func(pgRun) float64 { return 0 }
	}
	if len(rs) == 0 {
		fmt.Fprintf(w, "| %s | %s | not run | | | | | | | | |\n", workload, nodes)
		return
	}
	rate := median(rs, okRate)
	ratio := "—"
	if top > 0 {
		ratio = fmt.Sprintf("%.2f", rate/top)
	}
	fmt.Fprintf(w, "| %s | %s | %s | %s | %.3f | %s | %s | %s | %.0f | %s | %d |\n", workload, nodes,
		thousands(rate), eachRound(rs), median(rs, func(r pgRun) float64 { return r.res.P99ms }),
		orDash(median(rs, skCPU), "%.0f"),
		orDash(median(rs, func(r pgRun) float64 { return r.pgCPU }), "%.0f"),
		orDash(median(rs, func(r pgRun) float64 { return r.res.ClientCPUusPerOp }), "%.0f"),
		median(rs, func(r pgRun) float64 { return r.otherCP }), ratio, errorCount(rs))
}

// clusterErrors lists the runs that failed, and the failed requests of
// those that ran, by side.
func clusterErrors(sides []clusterSide, ceil *pgSide) []string {
	var lines []string
	for _, s := range sides {
		lines = append(lines, sideErrors(fmt.Sprintf("%d node(s)", s.nodes), s.pgSide)...)
	}
	return append(lines, sideErrors("ceiling", ceil)...)
}

func sideErrors(name string, s *pgSide) []string {
	var lines []string
	for _, e := range s.errs {
		lines = append(lines, fmt.Sprintf("- %s, %s", name, e))
	}
	for _, wl := range pgWorkloads(s) {
		for _, r := range s.runs[wl] {
			if r.res.Errors > 0 {
				lines = append(lines, fmt.Sprintf("- %s, %s: %d of %d requests failed; the first: %s", name, wl, r.res.Errors, r.res.Ops, oneLine(r.res.FirstError)))
			}
		}
	}
	return lines
}
