package server

import (
	"context"
	"net"
	"net/http"
	"time"

	"github.com/sortkeydb/sortkey/internal/protocol"
)

// DesignReportPath is where an Observer's report is served (GET), ahead
// of the 404 page that answers GET on every other path but /.
const DesignReportPath = "/sortkey/design/report"

// Observer watches the API calls the server answers, for design coverage
// (internal/design/coverage). It is called once per call the engine ran,
// after it answered, from the request's goroutine: it must be safe for
// concurrent use and quick, since the client waits for it.
type Observer interface {
	CallObserver
	// ServeReport answers GET DesignReportPath.
	ServeReport(w http.ResponseWriter, r *http.Request)
}

// serveReport answers GET DesignReportPath. The report holds key values
// of the requests it counts, so with access control on, where every API
// call must be signed, only a client on this machine may read it.
func (h *Handler) serveReport(w http.ResponseWriter, r *http.Request) {
	if h.guard != nil && !loopback(r.RemoteAddr) {
		writeNotFound(w)
		return
	}
	h.observer.ServeReport(w, r)
}

// loopback reports whether addr, a RemoteAddr, is on this machine.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

type unobservedKey struct{}

// Unobserved marks the API calls made with ctx as sortkey's own (the
// console reading tables to show them): an Observer does not see them, so
// that design coverage counts only the application's requests.
func Unobserved(ctx context.Context) context.Context {
	return context.WithValue(ctx, unobservedKey{}, true)
}

func unobserved(ctx context.Context) bool { return ctx.Value(unobservedKey{}) != nil }

// SetObserver makes o watch every call and serve its report; nil, the
// default, serves none. Set it before the handler serves.
func (h *Handler) SetObserver(o Observer) {
	h.observer = o
	if o != nil {
		h.AddObserver(o)
	}
}

// observing is one call being observed: by whom, of which operation.
type observing struct {
	os []CallObserver
	op string
}

// answer is an engine method's result with a nil output as a nil
// interface, not an interface holding a nil pointer.
func answer[O any](out *O, err error) (any, error) {
	if out == nil {
		return nil, err
	}
	return out, err
}

// run runs the engine's part of a call and shows it to the observer.
// The capacity the observer needs is asked of the engine on the client's
// behalf when the client did not ask, and taken out of the answer again,
// so the client receives exactly what it would without an observer: the
// engine computes capacity in one place per operation already, and asking
// for it is the one hook that needs no change there.
func (ob *observing) run(in any, run func() (any, error)) (any, error) {
	member, sent := askCapacity(in)
	start := time.Now()
	out, err := run()
	took := time.Since(start)
	if member != nil {
		*member = sent
	}
	for _, o := range ob.os {
		o.Observe(ob.op, in, out, err, took)
	}
	if member != nil && out != nil {
		giveBackCapacity(out, sent)
	}
	return out, err
}

var capacityIndexes = "INDEXES"

// askCapacity sets in's ReturnConsumedCapacity to INDEXES, the table's
// and each index's share (metrics count by index), when the client asked
// less, and returns the member and what the client sent, to be put back;
// a nil member when it asked INDEXES itself, or something that is not a
// ReturnConsumedCapacity at all, which validation must still see and
// refuse.
func askCapacity(in any) (member **string, sent *string) {
	p := capacityMember(in)
	if p == nil || (*p != nil && !asksLess(**p)) {
		return nil, nil
	}
	sent, *p = *p, &capacityIndexes
	return p, sent
}

// asksLess reports whether v is a ReturnConsumedCapacity below INDEXES.
func asksLess(v string) bool { return v == "NONE" || v == "TOTAL" }

func capacityMember(in any) **string {
	switch in := in.(type) {
	case *protocol.GetItemInput:
		return &in.ReturnConsumedCapacity
	case *protocol.QueryInput:
		return &in.ReturnConsumedCapacity
	case *protocol.ScanInput:
		return &in.ReturnConsumedCapacity
	case *protocol.PutItemInput:
		return &in.ReturnConsumedCapacity
	case *protocol.UpdateItemInput:
		return &in.ReturnConsumedCapacity
	case *protocol.DeleteItemInput:
		return &in.ReturnConsumedCapacity
	case *protocol.BatchGetItemInput:
		return &in.ReturnConsumedCapacity
	case *protocol.BatchWriteItemInput:
		return &in.ReturnConsumedCapacity
	case *protocol.TransactGetItemsInput:
		return &in.ReturnConsumedCapacity
	case *protocol.TransactWriteItemsInput:
		return &in.ReturnConsumedCapacity
	case *protocol.ExecuteStatementInput:
		return &in.ReturnConsumedCapacity
	case *protocol.BatchExecuteStatementInput:
		return &in.ReturnConsumedCapacity
	case *protocol.ExecuteTransactionInput:
		return &in.ReturnConsumedCapacity
	}
	return nil
}

// unaskCapacity removes the capacity the client did not ask for from the
// answer.
func unaskCapacity(out any) {
	switch out := out.(type) {
	case *protocol.GetItemOutput:
		out.ConsumedCapacity = nil
	case *protocol.ReadOutput:
		out.ConsumedCapacity = nil
	case *protocol.PutItemOutput:
		out.ConsumedCapacity = nil
	case *protocol.UpdateItemOutput:
		out.ConsumedCapacity = nil
	case *protocol.DeleteItemOutput:
		out.ConsumedCapacity = nil
	case *protocol.BatchGetItemOutput:
		out.ConsumedCapacity = nil
	case *protocol.BatchWriteItemOutput:
		out.ConsumedCapacity = nil
	case *protocol.TransactGetItemsOutput:
		out.ConsumedCapacity = nil
	case *protocol.TransactWriteItemsOutput:
		out.ConsumedCapacity = nil
	case *protocol.ExecuteStatementOutput:
		out.ConsumedCapacity = nil
	case *protocol.BatchExecuteStatementOutput:
		out.ConsumedCapacity = nil
	case *protocol.ExecuteTransactionOutput:
		out.ConsumedCapacity = nil
	}
}
