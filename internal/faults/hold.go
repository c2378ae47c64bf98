package faults

import (
	"context"
	"sync"
	"time"

	"github.com/sortkeydb/sortkey/internal/engine"
	"github.com/sortkeydb/sortkey/internal/server"
)

// holdOps are the operations a hold applies to: those that run a
// TransactWriteItems.
var holdOps = []string{"TransactWriteItems", "ExecuteTransaction"}

// maxHold bounds a hold, as maxLatency bounds a delay.
const maxHold = maxLatency

// holding keeps track of the transactions rules hold: how many are held
// now, and the channel whose closing releases them. A test waits for a
// transaction to be held (AwaitHeld), sends what should conflict with
// it, and releases it (Release): no timing is guessed.
type holding struct {
	mu      sync.Mutex
	n       int
	release chan struct{} // closed by Release, then replaced
	changed chan struct{} // closed whenever n changes, then replaced
}

func newHolding() *holding {
	return &holding{release: make(chan struct{}), changed: make(chan struct{})}
}

// fault is a hold of d: the transaction, once it holds its items, waits
// d, a release, or its client's going away, then runs on.
func (h *holding) fault(d time.Duration) *server.Fault {
	pause := func(ctx context.Context) { h.wait(ctx, d) }
	return &server.Fault{Context: func(ctx context.Context) context.Context {
		return engine.WithPause(ctx, pause)
	}}
}

func (h *holding) wait(ctx context.Context, d time.Duration) {
	release := h.add(1)
	defer h.add(-1)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-release:
	case <-ctx.Done():
	}
}

// add counts a transaction held (1) or let go (-1), wakes whoever awaits
// a count, and returns the release channel in force.
func (h *holding) add(delta int) <-chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.n += delta
	close(h.changed)
	h.changed = make(chan struct{})
	return h.release
}

// Release lets every transaction held now run on, and returns how many
// there were.
func (h *holding) Release() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	close(h.release)
	h.release = make(chan struct{})
	return h.n
}

// Held is how many transactions are held now.
func (h *holding) Held() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.n
}

// AwaitHeld waits until at least n transactions are held, or ctx ends.
func (h *holding) AwaitHeld(ctx context.Context, n int) error {
	for {
		h.mu.Lock()
		held, changed := h.n, h.changed
		h.mu.Unlock()
		if held >= n {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
