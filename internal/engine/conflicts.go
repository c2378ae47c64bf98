package engine

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// Transaction conflicts, as the Developer Guide describes them. A
// TransactWriteItems holds its items from the moment it is admitted
// (validated and planned) until it has committed or been cancelled: that
// is its whole run in the engine, and nothing longer. While it holds
// them, another TransactWriteItems or a TransactGetItems naming one of
// them is cancelled with TransactionConflict for that member, a
// PutItem, UpdateItem or DeleteItem of one is refused with
// TransactionConflictException, and a BatchWriteItem returns the
// requests for them unprocessed. GetItem, Query and Scan are never
// refused: they see the items before the transaction or after it.
//
// A single-item write or a batch never holds items against transactions:
// it runs under its items' lock stripes, and a transaction naming one of
// its items waits for it, as before. Without concurrent requests on one
// item nothing here changes any answer.

// The conflicts' answers.
const (
	// MsgTxConflict is a TransactionConflict cancellation reason's text,
	// and TransactionConflictException's.
	MsgTxConflict = "Transaction is ongoing for the item"
	// MsgTxInProgress is TransactionInProgressException's text.
	MsgTxInProgress = "Transaction with the given request token is already in progress."
)

// holds records the items in-flight transactions hold and the client
// request tokens in flight. n lets the writes that find it 0, which is
// every write without a concurrent transaction, skip the lock.
type holds struct {
	n      atomic.Int64 // items held
	mu     sync.Mutex   // guards the maps
	items  map[string]struct{}
	tokens map[string]struct{}
}

// take holds every key for one transaction, or none: when another
// transaction holds any of them, it returns the cancellation, with
// TransactionConflict for each member already held.
func (h *holds) take(keys [][]byte) (release func(), err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if reasons := h.conflicts(keys); reasons != nil {
		return nil, canceled(reasons)
	}
	if h.items == nil {
		h.items = map[string]struct{}{}
	}
	for _, k := range keys {
		h.items[string(k)] = struct{}{}
	}
	h.n.Add(int64(len(keys)))
	return func() { h.release(keys) }, nil
}

func (h *holds) release(keys [][]byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, k := range keys {
		delete(h.items, string(k))
	}
	h.n.Add(-int64(len(keys)))
}

// conflicts is one reason per key, TransactionConflict for those held
// and None for the others, or nil when none is held. The caller holds mu.
func (h *holds) conflicts(keys [][]byte) []protocol.CancellationReason {
	var reasons []protocol.CancellationReason
	for i, k := range keys {
		if _, held := h.items[string(k)]; !held {
			continue
		}
		if reasons == nil {
			reasons = noReasons(len(keys))
		}
		reasons[i] = protocol.CancellationReason{Code: "TransactionConflict", Message: MsgTxConflict}
	}
	return reasons
}

func noReasons(n int) []protocol.CancellationReason {
	reasons := make([]protocol.CancellationReason, n)
	for i := range reasons {
		reasons[i].Code = "None"
	}
	return reasons
}

// held reports whether a transaction holds the item.
func (h *holds) held(key []byte) bool {
	if h.n.Load() == 0 {
		return false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	_, ok := h.items[string(key)]
	return ok
}

// cancelHeld is the cancellation of a transaction that would read keys,
// when a transaction holds any of them; else nil.
func (h *holds) cancelHeld(keys [][]byte) error {
	if h.n.Load() == 0 {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if reasons := h.conflicts(keys); reasons != nil {
		return canceled(reasons)
	}
	return nil
}

// refuseHeld is a single-item write's answer when a transaction holds its
// item; else nil.
func (h *holds) refuseHeld(key []byte) error {
	if h.held(key) {
		return apierr.New(apierr.TransactionConflict, "%s", MsgTxConflict)
	}
	return nil
}

// takeToken marks a client request token in flight until release, or
// refuses it when a request with it already is.
func (h *holds) takeToken(token string) (release func(), err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, busy := h.tokens[token]; busy {
		return nil, apierr.New(apierr.TransactionInProgress, "%s", MsgTxInProgress)
	}
	if h.tokens == nil {
		h.tokens = map[string]struct{}{}
	}
	h.tokens[token] = struct{}{}
	return func() {
		h.mu.Lock()
		delete(h.tokens, token)
		h.mu.Unlock()
	}, nil
}

// pauseKey carries a transaction's pause in a request's context.
type pauseKey struct{}

// WithPause returns ctx carrying pause, which a TransactWriteItems run
// with it calls once it holds its items and before it reads them: a
// test's way (fault rules' hold) to keep a transaction in flight while
// it sends a conflicting request. Nothing else calls it.
func WithPause(ctx context.Context, pause func(context.Context)) context.Context {
	return context.WithValue(ctx, pauseKey{}, pause)
}

// pauseHere calls the pause ctx carries, if any.
func pauseHere(ctx context.Context) {
	if p, ok := ctx.Value(pauseKey{}).(func(context.Context)); ok && p != nil {
		p(ctx)
	}
}
