package server

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/sortkeydb/sortkey/internal/storage"
	"github.com/sortkeydb/sortkey/internal/version"
)

// HealthPath is sortkey's own health check (GET or HEAD), beside
// DynamoDB's "healthy: <host>" on /: it answers 200 only
// when the storage takes a write and serves a read, and 503 otherwise, so
// that a readiness probe takes a server whose disk failed out of service.
const HealthPath = AdminPrefix + "health"

// The texts a failing check reports. A client sees no error detail (file
// names, Pebble's words); the server's log has it.
const (
	msgStorageClosed = "storage is closed"
	msgStorageFailed = "storage failed its write and read probe: see the server log"
)

// health is the health check's answer.
type health struct {
	Status  string                 `json:"status"` // "ok" or "unavailable"
	Version string                 `json:"version"`
	Checks  map[string]healthCheck `json:"checks"`
}

type healthCheck struct {
	Status string  `json:"status"` // "ok" or "failing"
	Error  string  `json:"error,omitempty"`
	TookMs float64 `json:"tookMs"`
}

// SetHealth serves HealthPath, with probe as its storage check; nil, the
// default, leaves that path to the 404 page. Set it before the
// handler serves.
func (h *Handler) SetHealth(probe func() error) { h.probe = probe }

// serveHealth answers GET or HEAD HealthPath, to any client: it tells no
// more than whether the server can serve, which a failing call would too.
func (h *Handler) serveHealth(w http.ResponseWriter) {
	c := storageCheck(h.probe)
	body := health{Status: "ok", Version: version.Get().Version, Checks: map[string]healthCheck{"storage": c}}
	status := http.StatusOK
	if c.Status != "ok" {
		body.Status, status = "unavailable", http.StatusServiceUnavailable
	}
	b, _ := json.Marshal(body)
	w.Header().Set(contentTypeHeader, "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// storageCheck runs probe once and words its outcome.
func storageCheck(probe func() error) healthCheck {
	start := time.Now()
	err := probe()
	c := healthCheck{Status: "ok", TookMs: float64(time.Since(start).Microseconds()) / 1000}
	switch {
	case errors.Is(err, storage.ErrClosed):
		c.Status, c.Error = "failing", msgStorageClosed
	case err != nil:
		slog.Error("health check: storage probe failed", "err", err)
		c.Status, c.Error = "failing", msgStorageFailed
	}
	return c
}

// isHealthCheck reports whether r is for sortkey's own health check.
func (h *Handler) isHealthCheck(r *http.Request) bool {
	return h.probe != nil && r.URL.Path == HealthPath && (r.Method == http.MethodGet || r.Method == http.MethodHead)
}
