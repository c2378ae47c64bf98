package server

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey/internal/engine"
)

// fixedNow is the clock of the handler tests, so that timestamps are stable.
var fixedNow = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// newTestHandler is a handler of a fresh in-memory engine on fixedNow.
func newTestHandler(t testing.TB) *Handler {
	e, err := engine.Open(engine.Options{InMemory: true, Now: func() time.Time { return fixedNow }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return New(e, nil)
}

// do sends body to h as target (a bare name is a DynamoDB operation).
func do(h http.Handler, target string, body []byte) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	if target != "" && !strings.Contains(target, ".") {
		target = targetPrefix + target // a bare name is a DynamoDB operation
	}
	if target != "" {
		req.Header.Set("X-Amz-Target", target)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}
