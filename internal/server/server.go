package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"log/slog"
	"net/http"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/engine"
	"github.com/sortkeydb/sortkey/internal/exports"
	"github.com/sortkeydb/sortkey/internal/imports"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// MaxBodyBytes is the largest request body accepted. DynamoDB's largest
// requests (BatchWriteItem, up to 16 MB of items) fit in it.
const MaxBodyBytes = 16 << 20

const (
	targetPrefix        = "DynamoDB_20120810."
	streamsTargetPrefix = "DynamoDBStreams_20120810."
	contentType         = "application/x-amz-json-1.0"
)

// Handler serves the DynamoDB API for one engine.
type Handler struct {
	ops       map[string]operation // DynamoDB_20120810.*
	streamOps map[string]operation // DynamoDBStreams_20120810.*
	guard     Guard
	observer  Observer // nil: none; serves the design report
	observers []CallObserver
	metrics   http.Handler // nil: none (metrics.go)
	console   http.Handler // nil: none
	watchers  []Watcher
	admin     admin
	injector  Injector     // nil: no faults
	probe     func() error // nil: no HealthPath (health.go)
	imports   *imports.Manager
	exports   *exports.Manager
	regions   *regional // nil: every region shares the engine's tables
	// warned holds the unsupported operations already logged: an
	// application calling one in a loop gets one line, not one per call.
	warned sync.Map
}

// New returns a Handler for e. With a Guard, every API call is
// authenticated and authorised by it; with nil, none is.
func New(e *engine.Engine, g Guard) *Handler {
	im, ex := imports.New(e), exports.New(e)
	return &Handler{ops: operations(e, im, ex), streamOps: streamOperations(e), guard: g, imports: im, exports: ex}
}

// Imports is the handler's ImportTable: Configure maps its S3 buckets,
// and Close (before the engine's) stops the imports still running.
func (h *Handler) Imports() *imports.Manager { return h.imports }

// Exports is the handler's ExportTableToPointInTime: Configure maps its S3
// buckets, and Close (before the engine's) stops the exports still
// running.
func (h *Handler) Exports() *exports.Manager { return h.exports }

// ServeHTTP answers one request. Panics are caught here and answered as
// InternalServerError, so one bad request cannot take the server down.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hv := new(headerValues)
	rid := hv.requestID()
	hdr := w.Header()
	hdr[requestIDHeader], hdr[VersionHeader], hdr[serverHeader] = hv.vals[0:1:1], versionValue, serverValue
	// The console comes before CORS: its pages are for its own origin only.
	if h.console != nil && consolePath(r.URL.Path) {
		h.serveConsole(w, r)
		return
	}
	if h.isHealthCheck(r) {
		h.serveHealth(w)
		return
	}
	if h.serveAdmin(w, r) {
		return
	}
	if _, ok := r.Header[originHeader]; ok {
		allowOrigin(w.Header())
	}
	rp := reply{w: w, contentType: contentType, hv: hv}
	defer func() {
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler { // a fault rule's dropped connection
				panic(p)
			}
			slog.Error("panic serving request", "requestId", rid, "panic", p, "stack", string(debug.Stack()))
			writeError(rp, apierr.Wrap(fmt.Errorf("panic: %v", p)))
		}
	}()
	if h.observer != nil && r.Method == http.MethodGet && r.URL.Path == DesignReportPath {
		h.serveReport(w, r)
		return
	}
	if h.metrics != nil && r.Method == http.MethodGet && r.URL.Path == MetricsPath {
		h.serveMetrics(w, r)
		return
	}
	if headTooLarge(r) {
		writeHeadTooLarge(w)
		return
	}
	if answered(w, r) {
		return
	}
	rp = replyTo(w, r)
	rp.hv = hv
	var start time.Time
	if len(h.watchers) > 0 {
		start = time.Now()
	}
	name, out, err := h.serve(w, r)
	if err == errDropped {
		return
	}
	var e *apierr.Error
	if err != nil {
		e = apierr.Wrap(err)
		writeError(rp, e)
	} else {
		writeJSON(rp, http.StatusOK, out)
	}
	if len(h.watchers) > 0 {
		h.watched(r, rid, name, start, e)
	}
}

func (h *Handler) serve(w http.ResponseWriter, r *http.Request) (string, any, error) {
	name, fn, err := h.operation(r)
	if err != nil {
		return "", nil, err
	}
	out, err := h.run(w, r, name, fn)
	return name, out, err
}

// run reads, authenticates and decodes the call r to operation name and
// runs it.
func (h *Handler) run(w http.ResponseWriter, r *http.Request, name string, fn opFunc) (any, error) {
	body, err := readBody(r)
	if err != nil {
		// The body was not read to its end, so the bytes still to come
		// cannot be told from a next request: the connection is closed
		// after this answer rather than reused.
		w.Header()["Connection"] = []string{"close"}
		return nil, err
	}
	ctx, err := h.authenticate(r, name, body)
	if err != nil {
		return nil, err
	}
	if body, err = decodeContent(r.Header, body); err != nil {
		return nil, err
	}
	var ob *observing
	if len(h.observers) > 0 && !unobserved(ctx) {
		ob = &observing{h.observers, name}
	}
	var inj *injecting
	if h.injector != nil && h.injector.Active() {
		inj = &injecting{h.injector, name, w}
	}
	if name == describeEndpointsOp { // the one operation that needs the host
		ctx = context.WithValue(ctx, hostKey{}, r.Host)
	}
	return fn(ctx, body, ob, inj)
}

// operation finds the handler an X-Amz-Target names, and its name.
func (h *Handler) operation(r *http.Request) (string, opFunc, error) {
	ops, streamOps := h.ops, h.streamOps
	if h.regions != nil {
		var err error
		if ops, streamOps, err = h.tablesFor(r.Header.Get("Authorization")); err != nil {
			return "", nil, err
		}
	}
	target := r.Header.Get("X-Amz-Target")
	name, dynamo := strings.CutPrefix(target, targetPrefix)
	if o, ok := ops[name]; ok && dynamo {
		return name, o.run, nil
	}
	if name, ok := strings.CutPrefix(target, streamsTargetPrefix); ok {
		if o, ok := streamOps[name]; ok {
			return name, o.run, nil
		}
	}
	return "", nil, h.unknownOperation(name, dynamo)
}

// readBody reads at most MaxBodyBytes. A larger body is refused from its
// Content-Length, before it is read, or as soon as the limit is passed.
func readBody(r *http.Request) ([]byte, error) {
	if r.ContentLength > MaxBodyBytes {
		return nil, tooLarge()
	}
	body, err := readAll(r)
	if err != nil {
		return nil, unreadable(err)
	}
	if len(body) > MaxBodyBytes {
		return nil, tooLarge()
	}
	return body, nil
}

// readAll reads a body whose Content-Length is known into one slice of
// that size; net/http stops the body there. Others (chunked) read up to
// one byte past the limit, so that a larger body is seen.
func readAll(r *http.Request) ([]byte, error) {
	if r.ContentLength < 0 {
		return io.ReadAll(io.LimitReader(r.Body, MaxBodyBytes+1))
	}
	body := make([]byte, r.ContentLength)
	_, err := io.ReadFull(r.Body, body)
	return body, err
}

// unreadable answers a body that could not be read. A body cut off by the
// server's read timeout (a client sending it too slowly, or stalled) says
// so, as the one case a client can act on; DynamoDB documents no answer
// for it, and a 400 SerializationException is what it gives for a body it
// cannot use.
func unreadable(err error) error {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return apierr.New(apierr.Serialization, "Could not read the request body: it did not arrive within the server's read timeout")
	}
	return apierr.New(apierr.Serialization, "Could not read the request body")
}

func tooLarge() error {
	return apierr.New(apierr.RequestEntityTooLarge, "Request entity too large: the request body exceeds %d bytes", MaxBodyBytes)
}

// reply is how this request's response is written: with the Content-Type
// the request used, compressed when large and the client takes gzip or
// deflate.
type reply struct {
	w           http.ResponseWriter
	contentType string
	// accept is the request's first Accept-Encoding line, read only for
	// a body large enough to compress.
	accept string
	hv     *headerValues // where header values are kept; nil allocates
}

// writeJSON writes a JSON body with DynamoDB's headers. The CRC32 lets SDKs
// check the body arrived whole; they verify it when present. An output
// with no members (TagResource's, UntagResource's) is no body at all, not
// {}, as DynamoDB sends it (observed on AWS).
func writeJSON(rp reply, status int, v any) {
	if _, ok := v.(*protocol.Empty); ok {
		writeBody(rp, status, nil)
		return
	}
	var body []byte
	var err error
	buf := bodies.Get().(*[]byte)
	defer recycle(buf)
	if a, ok := v.(protocol.Appender); ok {
		body, err = a.AppendJSON((*buf)[:0])
		*buf = body[:0]
	} else {
		body, err = json.Marshal(v)
	}
	if err != nil {
		e := apierr.Wrap(err)
		status, body = e.Status(), errorBody(e)
	}
	writeBody(rp, status, body)
}

// bodies recycles response buffers: Write copies the body out before the
// buffer goes back. A buffer grown past maxPooledBody by one large answer
// is dropped rather than kept for every small one.
var bodies = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

const maxPooledBody = 64 << 10

func recycle(buf *[]byte) {
	if cap(*buf) <= maxPooledBody {
		bodies.Put(buf)
	}
}

// Header names, written in canonical form so that setting them skips
// http.CanonicalHeaderKey.
const (
	requestIDHeader     = "X-Amzn-Requestid"
	contentTypeHeader   = "Content-Type"
	contentLengthHeader = "Content-Length"
	crc32Header         = "X-Amz-Crc32"
)

// writeBody writes body, compressed if it is large enough to gain from
// it and the client takes gzip or deflate.
func writeBody(rp reply, status int, body []byte) {
	if len(body) > compressMinBytes && rp.accept != "" {
		if c := responseCoding(rp.accept); c != identity {
			writeCompressedBody(rp, status, body, c)
			return
		}
	}
	h := rp.w.Header()
	vals := rp.hv.bodyValues()
	vals[0], vals[1] = rp.contentType, rp.hv.number(uint64(len(body)))
	vals[2] = rp.hv.number(uint64(crc32.ChecksumIEEE(body)))
	h[contentTypeHeader], h[contentLengthHeader], h[crc32Header] = vals[0:1:1], vals[1:2:2], vals[2:3:3]
	rp.w.WriteHeader(status)
	_, _ = rp.w.Write(body)
}

// writeError is the one place an error reaches a client.
func writeError(rp reply, e *apierr.Error) {
	if e.Code == apierr.InternalServerError {
		slog.Warn("request failed", "requestId", rp.w.Header().Get(requestIDHeader))
	}
	writeBody(rp, e.Status(), errorBody(e))
}

// errorJSON is an error body. Its text goes under "message" or, for the
// errors DynamoDB's framework words so, under "Message".
type errorJSON struct {
	Type       string `json:"__type"`
	Message    string `json:"message,omitempty"`
	CapMessage string `json:"Message,omitempty"`
	Item       any    `json:"Item,omitempty"`
	// CancellationReasons is a list; it is present only when non-nil.
	CancellationReasons any `json:"CancellationReasons,omitempty"`
	// ThrottlingReasons is a list; it is present only when non-nil.
	// DynamoDB's model spells the member throttlingReasons in
	// ThrottlingException alone.
	ThrottlingReasons      any `json:"ThrottlingReasons,omitempty"`
	ThrottlingReasonsLower any `json:"throttlingReasons,omitempty"`
}

func errorBody(e *apierr.Error) []byte {
	ej := errorJSON{Type: e.Type(), Item: e.Item, CancellationReasons: e.CancellationReasons, ThrottlingReasons: e.ThrottlingReasons}
	if e.Code == apierr.Throttling {
		ej.ThrottlingReasons, ej.ThrottlingReasonsLower = nil, e.ThrottlingReasons
	}
	if e.MessageKey() == "Message" {
		ej.CapMessage = e.Message
	} else {
		ej.Message = e.Message
	}
	b, err := json.Marshal(ej)
	if err != nil {
		ej.Item, ej.CancellationReasons, ej.ThrottlingReasons, ej.ThrottlingReasonsLower = nil, nil, nil, nil
		b, _ = json.Marshal(ej)
	}
	return b
}

type hostKey struct{}
