package metrics

import (
	"math"
	"slices"
	"strings"
	"time"
)

// totals add up the window's seconds for Live.
type totals struct {
	ops    map[string]*opTotal
	errs   map[string]int64
	tables map[string]*units
}

type opTotal struct {
	recent, calls int64
	bins          [latencyBins]uint64
}

func newTotals() *totals {
	return &totals{ops: map[string]*opTotal{}, errs: map[string]int64{}, tables: map[string]*units{}}
}

// add adds second s: to the minute's latency always, to the rates when
// recent.
func (t *totals) add(s *second, recent bool) {
	for name, o := range s.ops {
		if o.calls == 0 {
			continue
		}
		ot := t.ops[name]
		if ot == nil {
			ot = &opTotal{}
			t.ops[name] = ot
		}
		ot.calls += o.calls
		if recent {
			ot.recent += o.calls
		}
		for i, n := range o.bins {
			ot.bins[i] += uint64(n)
		}
	}
	if recent {
		t.addRecent(s)
	}
}

func (t *totals) addRecent(s *second) {
	for code, n := range s.errs {
		t.errs[code] += n
	}
	for name, u := range s.tables {
		if u.read == 0 && u.write == 0 {
			continue
		}
		tu := t.tables[name]
		if tu == nil {
			tu = &units{}
			t.tables[name] = tu
		}
		tu.read += u.read
		tu.write += u.write
	}
}

func (t *totals) live() Live {
	var l Live
	for name, o := range t.ops {
		l.Ops = append(l.Ops, OpLive{Op: name, PerSecond: float64(o.recent) / RateSeconds, Calls: o.calls,
			P50: percentile(&o.bins, o.calls, 0.50), P99: percentile(&o.bins, o.calls, 0.99)})
	}
	for code, n := range t.errs {
		l.Errors = append(l.Errors, ErrorLive{Code: code, PerSecond: float64(n) / RateSeconds})
	}
	for name, u := range t.tables {
		l.Tables = append(l.Tables, TableLive{Table: name, RCU: u.read / RateSeconds, WCU: u.write / RateSeconds})
	}
	slices.SortFunc(l.Ops, func(a, b OpLive) int { return strings.Compare(a.Op, b.Op) })
	slices.SortFunc(l.Errors, func(a, b ErrorLive) int { return strings.Compare(a.Code, b.Code) })
	slices.SortFunc(l.Tables, func(a, b TableLive) int { return strings.Compare(a.Table, b.Table) })
	return l
}

// percentile is the top of the bin where the q-th of n calls falls.
func percentile(bins *[latencyBins]uint64, n int64, q float64) time.Duration {
	rank := max(1, uint64(math.Ceil(q*float64(n))))
	var seen uint64
	for i, c := range bins {
		if seen += c; seen >= rank {
			return binTop(i)
		}
	}
	return 0
}
