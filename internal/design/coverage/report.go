package coverage

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Report is what a Recorder has counted so far, as served at
// GET /sortkey/design/report.
type Report struct {
	Design string `json:"design"`
	// Patterns are the access patterns, then the write patterns, in the
	// design's order.
	Patterns []PatternReport `json:"patterns"`
	// EntityWrites are the writes of each entity that no write pattern
	// names; entities never written are left out.
	EntityWrites []PatternReport `json:"entityWrites"`
	// Undeclared are the requests that fit no pattern, one entry per
	// kind, first seen first.
	Undeclared []Undeclared `json:"undeclared"`
	// UndeclaredDropped counts undeclared requests of kinds past the
	// report's bound, counted but not described.
	UndeclaredDropped int64 `json:"undeclaredDropped,omitempty"`
	// NeverExercised names the patterns no request served ("4b The
	// order's items").
	NeverExercised []string `json:"neverExercised"`
}

// PatternReport is one pattern's counters.
type PatternReport struct {
	Number    string `json:"number,omitempty"`
	Name      string `json:"name"`
	Kind      string `json:"kind"` // read, write or entity
	Operation string `json:"operation,omitempty"`
	Calls     int64  `json:"calls"`
	Errors    int64  `json:"errors"`
	// Items are the items returned; Scanned those read (ScannedCount),
	// more than Items when a filter discards some.
	Items   int64   `json:"items"`
	Scanned int64   `json:"scanned"`
	Written int64   `json:"written"`
	RCU     float64 `json:"rcu"`
	WCU     float64 `json:"wcu"`
	// LaterPages are the calls that continued a Query or Scan
	// (ExclusiveStartKey).
	LaterPages int64   `json:"laterPages"`
	P50Ms      float64 `json:"p50Ms"`
	P99Ms      float64 `json:"p99Ms"`
	// FilterDiscardsMost says a filter threw away more than half of
	// what the pattern read.
	FilterDiscardsMost bool `json:"filterDiscardsMost,omitempty"`
	// First is how an access pattern was first called, and its cost.
	First *FirstCall `json:"first,omitempty"`
}

// Undeclared is one kind of request that no pattern serves.
type Undeclared struct {
	Request string `json:"request"`
	Scan    bool   `json:"scan,omitempty"`
	Calls   int64  `json:"calls"`
	Example string `json:"example,omitempty"`
}

// Report is the counters now.
func (r *Recorder) Report() *Report {
	rep := &Report{Design: r.d.Name, Patterns: []PatternReport{}, EntityWrites: []PatternReport{},
		Undeclared: []Undeclared{}, NeverExercised: []string{}, UndeclaredDropped: r.dropped.Load()}
	for _, rp := range r.reads {
		pr := patternReport(rp.p.Number, rp.p.Name, "read", rp.p.Operation, rp.stats)
		pr.First = rp.first.Load()
		rep.add(pr)
	}
	for _, wp := range r.writes {
		rep.add(patternReport(wp.w.Number, wp.w.Name, "write", wp.w.Operation, wp.stats))
	}
	for _, er := range r.entities {
		if pr := patternReport("", er.e.Name, "entity", "", er.stats); pr.Calls > 0 {
			rep.EntityWrites = append(rep.EntityWrites, pr)
		}
	}
	r.mu.Lock()
	for _, what := range r.order {
		u := r.undeclared[what]
		rep.Undeclared = append(rep.Undeclared, Undeclared{Request: what, Scan: u.scan, Calls: u.calls.Load(), Example: u.example})
	}
	r.mu.Unlock()
	return rep
}

func (rep *Report) add(pr PatternReport) {
	rep.Patterns = append(rep.Patterns, pr)
	if pr.Calls == 0 {
		rep.NeverExercised = append(rep.NeverExercised, strings.TrimSpace(pr.Number+" "+pr.Name))
	}
}

func patternReport(number, name, kind, op string, s *stats) PatternReport {
	pr := PatternReport{Number: number, Name: name, Kind: kind, Operation: op,
		Calls: s.calls.Load(), Errors: s.errors.Load(), Items: s.items.Load(), Scanned: s.scanned.Load(),
		Written: s.written.Load(), RCU: float64(s.readMilli.Load()) / 1000, WCU: float64(s.writeMilli.Load()) / 1000,
		LaterPages: s.later.Load(), P50Ms: ms(s.latency.quantile(0.5)), P99Ms: ms(s.latency.quantile(0.99))}
	pr.FilterDiscardsMost = pr.Scanned > 2*pr.Items
	return pr
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Failing messages, each said once.
const (
	msgNever      = "design %s: patterns never exercised: %s"
	msgUndeclared = "design %s: %d requests fit no pattern, e.g. %s"
)

// Check is nil when every pattern was exercised and every request fit a
// pattern; otherwise it says what is missing.
func (rep *Report) Check() error {
	var errs []error
	if len(rep.NeverExercised) > 0 {
		errs = append(errs, fmt.Errorf(msgNever, rep.Design, strings.Join(rep.NeverExercised, "; ")))
	}
	if n := rep.undeclaredCalls(); n > 0 {
		what := "(not described)"
		if len(rep.Undeclared) > 0 {
			what = rep.Undeclared[0].Request
		}
		errs = append(errs, fmt.Errorf(msgUndeclared, rep.Design, n, what))
	}
	return errors.Join(errs...)
}

func (rep *Report) undeclaredCalls() int64 {
	n := rep.UndeclaredDropped
	for _, u := range rep.Undeclared {
		n += u.Calls
	}
	return n
}

// ServeReport answers with the report as JSON.
func (r *Recorder) ServeReport(w http.ResponseWriter, _ *http.Request) {
	b, err := json.MarshalIndent(r.Report(), "", "  ")
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(append(b, '\n'))
}
