package server

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"time"
)

// Injector decides the faults of API calls: sortkey's fault rules
// (internal/faults). A Handler without one pays a nil check per call.
type Injector interface {
	// Active reports whether any fault may happen: when it is false,
	// Inject is not asked and the call costs nothing more.
	Active() bool
	// Inject is asked once per call, after it is decoded and authorised
	// and before the engine runs it: op is the operation, in its decoded
	// input, principal the caller's ARN ("" with access control off). It
	// returns nil for no fault. It MUST be safe for concurrent use. It
	// MUST NOT change in, except to take items out of a BatchWriteItem or
	// BatchGetItem input; it MUST then return a Fault whose Restore gives
	// them back in the output.
	Inject(ctx context.Context, op string, in any, principal string) *Fault
}

// Fault is what happens to one call instead of, or besides, its answer.
type Fault struct {
	// Delay is waited before anything else.
	Delay time.Duration
	// Drop closes the connection without an answer.
	Drop bool
	// Err is answered without running the engine: nothing is written.
	Err error
	// Restore, when set, is called with the engine's output of a call
	// that succeeded, to add what Inject held back as unprocessed.
	Restore func(out any)
	// Context, when set, gives the context the engine runs the call with
	// (a held transaction's pause point, engine.WithPause).
	Context func(context.Context) context.Context
}

// SetInjector makes i decide the faults of every call; nil, the default,
// injects none. Set it before the handler serves.
func (h *Handler) SetInjector(i Injector) { h.injector = i }

// Operations lists the names of the operations served, sorted: what a
// fault rule may name.
func (h *Handler) Operations() []string {
	names := make([]string, 0, len(h.ops)+len(h.streamOps))
	for name := range h.ops {
		names = append(names, name)
	}
	for name := range h.streamOps {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// errDropped ends a call whose connection a fault closed: nothing more is
// written to it.
var errDropped = errors.New("connection dropped by a fault rule")

// injecting is one call an Injector is asked about.
type injecting struct {
	i  Injector
	op string
	w  http.ResponseWriter
}

// run asks the injector about the call in and applies its fault around
// call, the engine's run of it (observed when ob is set).
func (inj *injecting) run(ctx context.Context, in any, ob *observing, run func(context.Context) (any, error)) (any, error) {
	f := inj.i.Inject(ctx, inj.op, in, principal(ctx))
	call := func() (any, error) { return run(ctx) }
	if f == nil {
		return observed(ob, in, call)
	}
	if f.Context != nil {
		held := f.Context(ctx)
		call = func() (any, error) { return run(held) }
	}
	if err := wait(ctx, f.Delay); err != nil {
		return nil, err
	}
	switch {
	case f.Drop:
		return nil, drop(inj.w)
	case f.Err != nil:
		return nil, f.Err
	}
	out, err := observed(ob, in, call)
	if err == nil && f.Restore != nil {
		f.Restore(out)
	}
	return out, err
}

func observed(ob *observing, in any, call func() (any, error)) (any, error) {
	if ob != nil {
		return ob.run(in, call)
	}
	return call()
}

// wait sleeps d, or until the client goes away.
func wait(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// drop closes the connection under w without an answer. A writer that
// cannot be hijacked (HTTP/2, an in-process transport) is aborted
// instead, which net/http turns into a reset and ServeHTTP lets through.
func drop(w http.ResponseWriter) error {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic(http.ErrAbortHandler)
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	_ = conn.Close()
	return errDropped
}
