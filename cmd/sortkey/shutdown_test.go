package main

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// await waits for a handler still running, and a request that comes after
// it began is aborted rather than run against storage about to close.
func TestRequestsAwaitHandlersAndRefuseNewOnes(t *testing.T) {
	q := newRequests()
	entered, release := make(chan struct{}), make(chan struct{})
	h := q.wrap(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { close(entered); <-release }))
	go h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/", nil))
	<-entered
	done := make(chan error, 1)
	go func() { done <- q.await() }()
	select {
	case err := <-done:
		t.Fatalf("await returned with a handler running: %v", err)
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	defer func() {
		if p := recover(); p != http.ErrAbortHandler {
			t.Fatalf("request after await: panic %v, want http.ErrAbortHandler", p)
		}
	}()
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/", nil))
}
