package server

import "net/http"

// MetricsPath is where Prometheus metrics are served (GET), ahead of the
// 404 page that answers GET on every other path but /.
const MetricsPath = "/metrics"

// SetMetrics serves m at GET MetricsPath; nil, the default, serves none
// (the health check answers there). Set it before the handler serves.
func (h *Handler) SetMetrics(m http.Handler) { h.metrics = m }

// serveMetrics answers GET MetricsPath. Metrics name tables and indexes,
// so with access control on, where every API call must be signed, only a
// client on this machine may read them, as with the design report.
func (h *Handler) serveMetrics(w http.ResponseWriter, r *http.Request) {
	if h.guard != nil && !loopback(r.RemoteAddr) {
		writeNotFound(w)
		return
	}
	h.metrics.ServeHTTP(w, r)
}
