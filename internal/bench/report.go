package bench

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"text/tabwriter"
	"time"
)

// Result is one operation's figures over a run.
type Result struct {
	Workload    string `json:"workload"`
	Op          string `json:"op"`
	Concurrency int    `json:"concurrency"`
	Ops         int    `json:"ops"`
	Errors      int    `json:"errors"`
	// Conflicts are transactions cancelled by another in flight on the
	// same item (TransactionConflict), as DynamoDB cancels them: the
	// expected outcome of contention, so counted apart from errors.
	Conflicts  int     `json:"conflicts,omitempty"`
	OpsPerSec  float64 `json:"ops_per_sec"`
	P50ms      float64 `json:"p50_ms"`
	P99ms      float64 `json:"p99_ms"`
	P999ms     float64 `json:"p999_ms"`
	FirstError string  `json:"first_error,omitempty"`

	// Items read, for operations that read many per request (scan).
	Items       int     `json:"items,omitempty"`
	ItemsPerSec float64 `json:"items_per_sec,omitempty"`

	// Server figures, when the server's process is known (Observe): the
	// CPU it used during the whole run, that CPU divided by every
	// operation of the run, the same for this client, the share of one
	// core that every other process on the machine used meanwhile, and
	// the server's resident set size at the end.
	ServerCPUms      float64 `json:"server_cpu_ms,omitempty"`
	ServerCPUusPerOp float64 `json:"server_cpu_us_per_op,omitempty"`
	ClientCPUusPerOp float64 `json:"client_cpu_us_per_op,omitempty"`
	OtherCPUPercent  float64 `json:"other_cpu_percent,omitempty"`
	ServerRSSMB      float64 `json:"server_rss_mb,omitempty"`
}

// Observe adds a run's server figures to its results, from CPU usage
// before and after the run, its length, and the server's resident set
// size in bytes at the end.
func Observe(rs []Result, before, after Usage, elapsed time.Duration, rss int64) {
	ops := 0
	for _, r := range rs {
		ops += r.Ops
	}
	server, client := after.Server-before.Server, after.Client-before.Client
	other := max(after.Machine-before.Machine-server-client, 0)
	for i := range rs {
		rs[i].ServerCPUms = float64(server.Microseconds()) / 1000
		if ops > 0 {
			rs[i].ServerCPUusPerOp = float64(server.Nanoseconds()) / 1000 / float64(ops)
			rs[i].ClientCPUusPerOp = float64(client.Nanoseconds()) / 1000 / float64(ops)
		}
		if elapsed > 0 {
			rs[i].OtherCPUPercent = 100 * other.Seconds() / elapsed.Seconds()
		}
		rs[i].ServerRSSMB = float64(rss) / (1 << 20)
	}
}

// Summarize groups samples by operation, in first-seen order.
func Summarize(workload string, concurrency int, samples []Sample, elapsed time.Duration) []Result {
	byOp := map[string][]Sample{}
	var order []string
	for _, s := range samples {
		if _, ok := byOp[s.Op]; !ok {
			order = append(order, s.Op)
		}
		byOp[s.Op] = append(byOp[s.Op], s)
	}
	out := make([]Result, 0, len(order))
	for _, op := range order {
		out = append(out, summarize(workload, op, concurrency, byOp[op], elapsed))
	}
	return out
}

func summarize(workload, op string, concurrency int, ss []Sample, elapsed time.Duration) Result {
	r := Result{Workload: workload, Op: op, Concurrency: concurrency, Ops: len(ss), OpsPerSec: float64(len(ss)) / elapsed.Seconds()}
	lat := make([]time.Duration, 0, len(ss))
	for _, s := range ss {
		lat = append(lat, s.Latency)
		r.Items += s.Items
		if isConflict(s.Err) {
			r.Conflicts++
		} else if s.Err != nil {
			r.Errors++
			if r.FirstError == "" {
				r.FirstError = s.Err.Error()
			}
		}
	}
	r.ItemsPerSec = float64(r.Items) / elapsed.Seconds()
	slices.Sort(lat)
	r.P50ms, r.P99ms, r.P999ms = pct(lat, 0.50), pct(lat, 0.99), pct(lat, 0.999)
	return r
}

// isConflict reports whether err is a transaction cancelled, or a write
// refused, because another transaction held one of its items.
func isConflict(err error) bool {
	return errors.Is(err, errConflict)
}

// pct is the q-quantile of sorted latencies, in milliseconds.
func pct(sorted []time.Duration, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := min(int(q*float64(len(sorted))), len(sorted)-1)
	return float64(sorted[i].Microseconds()) / 1000
}

// WriteTable prints results as an aligned table, errors included.
func WriteTable(w io.Writer, rs []Result) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	server := slices.ContainsFunc(rs, func(r Result) bool { return r.ServerRSSMB > 0 })
	items := slices.ContainsFunc(rs, func(r Result) bool { return r.Items > 0 })
	header := "workload\top\tconc\tops\tops/s\tp50 ms\tp99 ms\tp99.9 ms\terrors\tconflicts\t"
	if items {
		header += "items/s\t"
	}
	if server {
		header += "server µs/op\tclient µs/op\tother CPU %\tserver RSS MB\t"
	}
	fmt.Fprintln(tw, header)
	for _, r := range rs {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%.0f\t%.3f\t%.3f\t%.3f\t%d\t%d\t", r.Workload, r.Op, r.Concurrency, r.Ops, r.OpsPerSec, r.P50ms, r.P99ms, r.P999ms, r.Errors, r.Conflicts)
		if items {
			fmt.Fprintf(tw, "%.0f\t", r.ItemsPerSec)
		}
		if server {
			fmt.Fprintf(tw, "%.1f\t%.1f\t%.0f\t%.0f\t", r.ServerCPUusPerOp, r.ClientCPUusPerOp, r.OtherCPUPercent, r.ServerRSSMB)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	for _, r := range rs {
		if r.FirstError != "" {
			fmt.Fprintf(w, "first %s error: %s\n", r.Op, r.FirstError)
		}
	}
}

// WriteJSON prints one JSON object per result, one per line.
func WriteJSON(w io.Writer, rs []Result) error {
	enc := json.NewEncoder(w)
	for _, r := range rs {
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	return nil
}

// Load is how the preload went: items written, in how many BatchWriteItem
// requests from how many writers, how long it took, and, when known, the
// data directory's size against the items' raw bytes (items × item size)
// and the server's RSS right after.
type Load struct {
	Workload    string        `json:"workload"` // "preload", to tell the line from results
	Items       int           `json:"items"`
	Requests    int           `json:"requests"`
	Writers     int           `json:"writers"`
	Elapsed     time.Duration `json:"-"`
	ElapsedSec  float64       `json:"elapsed_s"`
	ItemsPerSec float64       `json:"items_per_sec"`
	RawMB       float64       `json:"raw_mb,omitempty"`
	DiskMB      float64       `json:"disk_mb,omitempty"`
	ServerRSSMB float64       `json:"server_rss_mb,omitempty"`
}

// NewLoad is a Load with its rates worked out.
func NewLoad(items, requests, writers int, elapsed time.Duration) Load {
	l := Load{Workload: "preload", Items: items, Requests: requests, Writers: writers, Elapsed: elapsed, ElapsedSec: elapsed.Seconds()}
	if elapsed > 0 {
		l.ItemsPerSec = float64(items) / elapsed.Seconds()
	}
	return l
}

// ObserveDisk sets the data directory's size, in bytes, against items of
// itemSize bytes.
func (l *Load) ObserveDisk(disk int64, itemSize int) {
	l.DiskMB = float64(disk) / (1 << 20)
	l.RawMB = float64(l.Items) * float64(itemSize) / (1 << 20)
}

// WriteLoad prints the preload's figures as a few lines.
func WriteLoad(w io.Writer, l Load) {
	fmt.Fprintf(w, "preload: %d items in %d requests from %d writers, %.1f s, %.0f items/s\n", l.Items, l.Requests, l.Writers, l.ElapsedSec, l.ItemsPerSec)
	if l.DiskMB > 0 {
		ratio := 0.0
		if l.RawMB > 0 {
			ratio = l.DiskMB / l.RawMB
		}
		fmt.Fprintf(w, "data directory: %.1f MB on disk for %.1f MB of raw items (%.2f×)\n", l.DiskMB, l.RawMB, ratio)
	}
	if l.ServerRSSMB > 0 {
		fmt.Fprintf(w, "server RSS after the preload: %.0f MB\n", l.ServerRSSMB)
	}
}
