package sortkey

import (
	"net/http"
	"sync"
)

// inFlight counts the requests running inside a handler, so that Close
// closes the storage only once the last has returned rather than under
// one that is half way through (a write, a transaction). The zero value
// counts none.
type inFlight struct {
	mu   sync.Mutex
	n    int
	done *sync.Cond // broadcast when n drops to 0
}

// count wraps h so that its requests are counted.
func (q *inFlight) count(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q.add(1)
		defer q.add(-1)
		h.ServeHTTP(w, r)
	})
}

func (q *inFlight) add(delta int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.n += delta
	if q.n == 0 && q.done != nil {
		q.done.Broadcast()
	}
}

// wait returns once no request is running.
func (q *inFlight) wait() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.done == nil {
		q.done = sync.NewCond(&q.mu)
	}
	for q.n > 0 {
		q.done.Wait()
	}
}
