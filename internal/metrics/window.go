package metrics

import (
	"math"
	"sync"
	"time"
)

const (
	// windowSeconds is how far back the window remembers: latency
	// percentiles are over it.
	windowSeconds = 60
	// RateSeconds is the span rates are averaged over.
	RateSeconds = 10
	// latencyBins are logarithmic, four to a doubling from 1 µs: a
	// percentile is known to within 19%, up to about 2^27 µs (2 min).
	binsPerDoubling = 4
	latencyBins     = 27 * binsPerDoubling
)

// Window keeps the last minute of calls in per-second buckets, a ring
// indexed by the Unix second: what the console's live page shows.
type Window struct {
	mu   sync.Mutex
	now  func() time.Time
	secs [windowSeconds]second
}

// second is one second's calls; at says which second it holds, so a
// bucket left from a minute ago reads as empty.
type second struct {
	at     int64
	ops    map[string]*opSecond
	errs   map[string]int64
	tables map[string]*units
}

type opSecond struct {
	calls int64
	bins  [latencyBins]uint32
}

type units struct{ read, write float64 }

// NewWindow returns an empty window timed by now (nil: time.Now).
func NewWindow(now func() time.Time) *Window {
	if now == nil {
		now = time.Now
	}
	return &Window{now: now}
}

// current is the bucket of this second, emptied if it held an older one.
// The caller holds mu.
func (w *Window) current() *second {
	at := w.now().Unix()
	s := &w.secs[(at%windowSeconds+windowSeconds)%windowSeconds] // a clock before 1970 too
	if s.at != at {
		s.reset(at)
	}
	return s
}

// reset empties s for second at, keeping what it allocated: the same
// operations and tables come back every second.
func (s *second) reset(at int64) {
	s.at = at
	if s.ops == nil {
		s.ops, s.errs, s.tables = map[string]*opSecond{}, map[string]int64{}, map[string]*units{}
	}
	for _, o := range s.ops {
		*o = opSecond{}
	}
	clear(s.errs)
	for _, u := range s.tables {
		*u = units{}
	}
}

// Call counts one answered call of op, failed with code ("" for none),
// that took took.
func (w *Window) Call(op, code string, took time.Duration) {
	bin := latencyBin(took)
	w.mu.Lock()
	s := w.current()
	o := s.ops[op]
	if o == nil {
		o = &opSecond{}
		s.ops[op] = o
	}
	o.calls++
	o.bins[bin]++
	if code != "" {
		s.errs[code]++
	}
	w.mu.Unlock()
}

// Consume counts capacity units a call consumed on table.
func (w *Window) Consume(table string, read bool, n float64) {
	w.mu.Lock()
	s := w.current()
	u := s.tables[table]
	if u == nil {
		u = &units{}
		s.tables[table] = u
	}
	if read {
		u.read += n
	} else {
		u.write += n
	}
	w.mu.Unlock()
}

func latencyBin(d time.Duration) int {
	us := float64(d) / float64(time.Microsecond)
	if us <= 1 {
		return 0
	}
	return min(int(math.Log2(us)*binsPerDoubling), latencyBins-1)
}

// binTop is the longest duration bin i holds: what a percentile falling
// in it reports.
func binTop(i int) time.Duration {
	return time.Duration(math.Exp2(float64(i+1)/binsPerDoubling) * float64(time.Microsecond))
}

// Live is the window's numbers at one moment: rates over the last
// RateSeconds, latency over the last minute.
type Live struct {
	Ops    []OpLive    // by operation name
	Errors []ErrorLive // by code
	Tables []TableLive // by table name
}

// OpLive is one operation's numbers. An operation called in the last
// minute but not in the last RateSeconds shows with a zero rate.
type OpLive struct {
	Op        string
	PerSecond float64
	Calls     int64 // in the last minute
	P50, P99  time.Duration
}

// ErrorLive is the rate of one error code.
type ErrorLive struct {
	Code      string
	PerSecond float64
}

// TableLive is the capacity one table consumed per second, its indexes'
// share included.
type TableLive struct {
	Table    string
	RCU, WCU float64
}

// Live reads the window now.
func (w *Window) Live() Live {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := w.now().Unix()
	sum := newTotals()
	for i := range w.secs {
		s := &w.secs[i]
		if age := now - s.at; s.ops != nil && age >= 0 && age < windowSeconds {
			sum.add(s, age < RateSeconds)
		}
	}
	return sum.live()
}
