package main

// How `sortkey serve` stops. The first SIGINT or SIGTERM stops accepting
// connections and closes idle ones; requests in flight have the drain
// timeout to finish. Then, or at a second signal, the connections left are
// closed: a client that is slow or stuck loses its request, which was never
// acknowledged, and cannot hold the stop up. Storage is closed once every
// handler has returned. Every acknowledged write was synced before it was
// acknowledged, so no path loses one; the process exits 0 whenever the
// storage closed cleanly, the forced path too, since the exit code reports
// the data's state, not the unacknowledged requests'.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"sync"
	"time"
)

var (
	errDrainTimeout = errors.New("drain timeout passed")
	errForced       = errors.New("second signal")
)

// wait serves until the first signal, then stops srv. It returns Serve's
// error when serving failed other than by being stopped.
func wait(sigs <-chan os.Signal, srv httpServer, errc <-chan error, drain time.Duration, log *slog.Logger) error {
	select {
	case err := <-errc:
		srv.Close()
		return err
	case sig := <-sigs:
		log.Info("shutting down: accepting no new connections, letting requests in flight finish", "signal", sig.String(), "drainTimeout", drain)
		stop(srv, sigs, drain, log)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// stop drains srv for up to drain, or until a second signal, and then
// closes the connections left.
func stop(srv httpServer, sigs <-chan os.Signal, drain time.Duration, log *slog.Logger) {
	forced, force := context.WithCancelCause(context.Background())
	ctx, cancel := context.WithTimeoutCause(forced, drain, errDrainTimeout)
	defer cancel()
	defer force(nil)
	go forceOnSignal(ctx, force, sigs, log)
	if err := srv.Shutdown(ctx); err != nil {
		log.Warn("closing the connections left", "reason", context.Cause(ctx).Error())
		srv.Close()
		return
	}
	log.Info("drained: every request in flight finished")
}

func forceOnSignal(ctx context.Context, force context.CancelCauseFunc, sigs <-chan os.Signal, log *slog.Logger) {
	select {
	case sig := <-sigs:
		log.Warn("second signal: stopping now", "signal", sig.String())
		force(errForced)
	case <-ctx.Done():
	}
}

// handlerGrace bounds the wait for handlers once their connections are
// closed. None waits on a client then, so they return within milliseconds;
// one still running after it is a bug, and storage is left as a crash
// leaves it, recovered at the next start, rather than closed under it.
const handlerGrace = 5 * time.Second

// requests counts the requests inside the handler, so that storage closes
// only after the last has returned, even when connections were cut under
// them (srv.Close does not wait for handlers).
type requests struct {
	mu      sync.Mutex
	n       int
	closed  bool
	drained chan struct{} // closed once closed is set and n is 0
}

func newRequests() *requests { return &requests{drained: make(chan struct{})} }

// wrap counts h's requests. One that arrives after await began is aborted,
// its connection cut, as if it had come after the server stopped.
func (q *requests) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !q.enter() {
			panic(http.ErrAbortHandler)
		}
		defer q.leave()
		h.ServeHTTP(w, r)
	})
}

func (q *requests) enter() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return false
	}
	q.n++
	return true
}

func (q *requests) leave() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.n--
	if q.closed && q.n == 0 {
		close(q.drained)
	}
}

// await refuses new requests and waits, up to handlerGrace, for those in
// flight to return.
func (q *requests) await() error {
	q.mu.Lock()
	q.closed = true
	n := q.n
	if n == 0 {
		close(q.drained)
	}
	q.mu.Unlock()
	select {
	case <-q.drained:
		return nil
	case <-time.After(handlerGrace):
		return fmt.Errorf("%d requests still running %v after their connections closed; storage left unclosed, to recover at the next start", n, handlerGrace)
	}
}
