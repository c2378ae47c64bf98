package metrics

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/sortkeydb/sortkey/internal/engine"
	"github.com/sortkeydb/sortkey/internal/server"
	"github.com/sortkeydb/sortkey/internal/storage"
)

// Prefix starts every metric of sortkey's own.
const Prefix = "sortkey_"

// unknownOp is the operation label of a call whose X-Amz-Target named no
// operation sortkey serves: what the client sent is not a label, so that
// a client cannot grow the label set.
const unknownOp = "Unknown"

// Source is where scrapes read what the engine keeps: *engine.Engine.
type Source interface {
	Stats() []engine.TableStats
	Health() storage.Health
	Backlogs() ([]engine.Backlog, error)
	LastSweep() time.Time
}

// Metrics is one DB's metrics: a server.Watcher and server.CallObserver
// that counts, and the registry that serves the counts.
type Metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	read     *prometheus.CounterVec
	write    *prometheus.CounterVec

	ops      *cache[string, *opCounters]
	errs     *cache[errKey, prometheus.Counter]
	capacity *cache[capKey, capCounters]
	window   *Window
}

// opCounters are an operation's pre-resolved series.
type opCounters struct {
	ok      prometheus.Counter
	latency prometheus.Observer
}

type errKey struct{ op, code string }

type capKey struct{ table, index string }

type capCounters struct{ read, write prometheus.Counter }

// latencyBuckets span a cached GetItem (tens of µs) to a large Scan or a
// slow disk (seconds).
var latencyBuckets = []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}

// New returns the metrics of the engine src, with the live window timed
// by now (nil: time.Now).
func New(src Source, now func() time.Time) *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry(), window: NewWindow(now)}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{Name: Prefix + "requests_total",
		Help: "API calls answered, by operation and error code (\"\" for success)."}, []string{"operation", "error"})
	m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: Prefix + "request_duration_seconds",
		Help: "Time from a call's first byte read to its answer written, by operation.", Buckets: latencyBuckets}, []string{"operation"})
	m.read = capacityVec("read", "Read capacity units consumed, by table and index (\"\" for the table itself).")
	m.write = capacityVec("write", "Write capacity units consumed, by table and index (\"\" for the table itself).")
	m.reg.MustRegister(m.requests, m.latency, m.read, m.write, newScrape(src),
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m.ops = newCache(m.opCounters)
	m.errs = newCache(func(k errKey) prometheus.Counter { return m.requests.WithLabelValues(k.op, k.code) })
	m.capacity = newCache(func(k capKey) capCounters {
		return capCounters{m.read.WithLabelValues(k.table, k.index), m.write.WithLabelValues(k.table, k.index)}
	})
	return m
}

func capacityVec(kind, help string) *prometheus.CounterVec {
	return prometheus.NewCounterVec(prometheus.CounterOpts{Name: Prefix + "consumed_" + kind + "_capacity_units_total", Help: help},
		[]string{"table", "index"})
}

func (m *Metrics) opCounters(op string) *opCounters {
	return &opCounters{ok: m.requests.WithLabelValues(op, ""), latency: m.latency.WithLabelValues(op)}
}

// Registry is the registry the metrics are in, for adding more.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler serves the metrics in Prometheus's text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError})
}

// Live is the console's live numbers now.
func (m *Metrics) Live() Live { return m.window.Live() }

// Answered counts one answered call (server.Watcher).
func (m *Metrics) Answered(_ *http.Request, a *server.Answer) {
	op := a.Op
	if op == "" {
		op = unknownOp
	}
	c := m.ops.get(op)
	if a.Error == "" {
		c.ok.Inc()
	} else {
		m.errs.get(errKey{op, string(a.Error)}).Inc()
	}
	c.latency.Observe(a.Took.Seconds())
	m.window.Call(op, string(a.Error), a.Took)
}
