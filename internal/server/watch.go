package server

import (
	"net/http"
	"time"

	"github.com/sortkeydb/sortkey/internal/apierr"
)

// Answer is one API call as the server answered it: what metrics count and
// request logs record. A Watcher must not keep it past Answered.
type Answer struct {
	RequestID string
	// Op is the operation the X-Amz-Target named, "" when it named none
	// that sortkey serves (then Target holds what the client sent).
	Op     string
	Target string
	Status int
	// Error is the code the client received, "" on success.
	Error apierr.Code
	// Took runs from the call's first byte read to its answer written.
	Took time.Duration
}

// Watcher sees every API call once it is answered, from the request's
// goroutine: it must be safe for concurrent use and quick, since the
// connection waits for it. The console's own calls (Unobserved) are not
// shown, so that the numbers are the application's.
type Watcher interface {
	Answered(r *http.Request, a *Answer)
}

// Watch adds w to the watchers of every call. Call it before the handler
// serves.
func (h *Handler) Watch(w Watcher) { h.watchers = append(h.watchers, w) }

// watched tells every watcher about the call r, answered with err (nil on
// success).
func (h *Handler) watched(r *http.Request, rid, op string, start time.Time, err *apierr.Error) {
	if unobserved(r.Context()) {
		return
	}
	a := Answer{RequestID: rid, Op: op, Status: http.StatusOK, Took: time.Since(start)}
	if op == "" {
		a.Target = r.Header.Get("X-Amz-Target")
	}
	if err != nil {
		a.Status, a.Error = err.Status(), err.Code
	}
	for _, w := range h.watchers {
		w.Answered(r, &a)
	}
}
