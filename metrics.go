package sortkey

import (
	"net/http"

	"github.com/sortkeydb/sortkey/internal/engine"
	"github.com/sortkeydb/sortkey/internal/metrics"
	"github.com/sortkeydb/sortkey/internal/server"
)

// mountMetrics makes h count every call into a new Metrics when
// opts.Metrics is on, and serve them at /metrics unless MetricsApart.
// The window of the console's live numbers runs on the wall clock, not
// Options.Now: it measures rates, which an injected clock would not.
func mountMetrics(h *server.Handler, eng *engine.Engine, opts *Options) *metrics.Metrics {
	if !opts.Metrics {
		return nil
	}
	m := metrics.New(eng, nil)
	h.Watch(m)
	h.AddObserver(m)
	if !opts.MetricsApart {
		h.SetMetrics(m.Handler())
	}
	return m
}

// MetricsHandler serves the metrics in Prometheus's text format
// (docs/METRICS.md); with Options.Metrics off it answers 404.
func (db *DB) MetricsHandler() http.Handler {
	if db.metrics == nil {
		return http.NotFoundHandler()
	}
	return db.metrics.Handler()
}
