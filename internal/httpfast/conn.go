package httpfast

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"
)

// A connection's state, for Shutdown: only an idle one (waiting for a
// request, nothing buffered) is closed under it.
const (
	stateActive int32 = iota
	stateIdle
	stateClosed
)

// bufSize is a connection's read buffer: an AWS SDK request's head (about
// 1 KiB) and a small item's body fit in it; a head that does not is handed
// over, a body that does not is read from the connection as the handler
// reads it.
const bufSize = 8 << 10

var bufPool = sync.Pool{New: func() any { b := make([]byte, bufSize); return &b }}

// conn is one connection served on the fast path, by one goroutine.
type conn struct {
	srv    *Server
	rw     net.Conn
	state  atomic.Int32
	buf    []byte
	r, w   int // the bytes read and not yet used are buf[r:w]
	cancel context.CancelFunc
	tmpl   http.Request // each request starts as a copy (context, address)

	hdrTimeout, readTimeout, idleTimeout time.Duration
	// idleUntil is when a connection waiting for a request may be closed:
	// its read deadline, when it fires before, is moved there.
	idleUntil time.Time
	// readDeadline is the read deadline set on rw.
	readDeadline time.Time
	// start is when the request being read began, once it needed more than
	// one read (zero until then).
	start time.Time

	res      response
	hijacked bool
}

func newConn(s *Server, rw net.Conn) *conn {
	f := s.Fallback
	c := &conn{srv: s, rw: rw, readTimeout: f.ReadTimeout,
		hdrTimeout: cmp0(f.ReadHeaderTimeout, f.ReadTimeout), idleTimeout: cmp0(f.IdleTimeout, f.ReadTimeout)}
	ctx := context.WithValue(context.Background(), http.ServerContextKey, f)
	ctx = context.WithValue(ctx, http.LocalAddrContextKey, rw.LocalAddr())
	ctx, c.cancel = context.WithCancel(ctx)
	tmpl := (&http.Request{Method: http.MethodPost, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		RequestURI: "/", RemoteAddr: rw.RemoteAddr().String()}).WithContext(ctx)
	c.tmpl = *tmpl
	c.res.c = c
	return c
}

// cmp0 is d, or else when d is 0, fallback: net/http's reading of its
// timeouts.
func cmp0(d, fallback time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return fallback
}

func (c *conn) serve() {
	c.buf = *bufPool.Get().(*[]byte)
	keep := false // the connection went to net/http or to a hijacker
	defer func() {
		c.cancel()
		if !keep {
			c.rw.Close()
		}
		c.srv.forget(c)
		bufPool.Put(&c.buf)
	}()
	// Until its first request a connection has net/http's header timeout.
	c.setReadDeadline(deadline(time.Now(), c.hdrTimeout))
	c.idleUntil = c.readDeadline
	for {
		if c.r == c.w && !c.awaitRequest() {
			return
		}
		h, v := c.readHead()
		switch {
		case v == handOver:
			c.handOver()
			keep = true
			return
		case v != accepted:
			return
		}
		if !c.serveRequest(h) {
			keep = c.hijacked
			return
		}
	}
}

// deadline is now+d, or no deadline when d is 0.
func deadline(now time.Time, d time.Duration) time.Time {
	if d <= 0 {
		return time.Time{}
	}
	return now.Add(d)
}

// awaitRequest waits for the first bytes of the next request, with
// nothing buffered, and reports whether they came.
func (c *conn) awaitRequest() bool {
	c.r, c.w = 0, 0
	c.state.Store(stateIdle)
	if c.srv.closing.Load() {
		return false
	}
	for {
		n, err := c.rw.Read(c.buf)
		if n > 0 {
			c.w = n
			return c.state.CompareAndSwap(stateIdle, stateActive)
		}
		if err != nil && !(isTimeout(err) && c.extendIdle()) {
			return false
		}
	}
}

// extendIdle moves a read deadline that fired before idleUntil (one left
// from an earlier request) to idleUntil, and reports whether it did.
func (c *conn) extendIdle() bool {
	if !c.idleUntil.IsZero() && !time.Now().Before(c.idleUntil) {
		return false
	}
	c.setReadDeadline(c.idleUntil)
	return true
}

func (c *conn) setReadDeadline(t time.Time) {
	c.readDeadline = t
	c.rw.SetReadDeadline(t)
}

// idleFrom starts the wait for the next request at now. The read deadline
// is moved only when it is later than the idle limit (or there is none);
// one that is earlier is moved when it fires (extendIdle).
func (c *conn) idleFrom(now time.Time) {
	c.idleUntil = deadline(now, c.idleTimeout)
	if c.readDeadline.IsZero() != c.idleUntil.IsZero() || c.readDeadline.After(c.idleUntil) {
		c.setReadDeadline(c.idleUntil)
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// closeConn is readHead's verdict for a request that ran out of time.
const closeConn verdict = -1

// readHead reads until the head of the buffered request is complete, or
// the request is seen to be net/http's. A head that takes more than one
// read must arrive within the header timeout of its start, as in
// net/http; one that does not is dropped without an answer, as net/http
// drops it.
func (c *conn) readHead() (head, verdict) {
	c.start = time.Time{}
	for {
		h, v := parseRequest(c.buf[c.r:c.w], c.srv.maxBody())
		if v == accepted && h.size > c.maxHeaderBytes() || v == needMore && c.w-c.r >= c.maxHeaderBytes() {
			return h, handOver
		}
		if v != needMore {
			return h, v
		}
		if v = c.readMore(); v != needMore {
			return h, v
		}
	}
}

// readMore reads more of a request into the buffer.
func (c *conn) readMore() verdict {
	if c.r > 0 {
		c.w = copy(c.buf, c.buf[c.r:c.w])
		c.r = 0
	}
	if c.w == len(c.buf) {
		return handOver // a head too large for the fast path
	}
	if c.start.IsZero() {
		c.start = time.Now()
		c.setReadDeadline(deadline(c.start, c.hdrTimeout))
	}
	n, err := c.rw.Read(c.buf[c.w:])
	c.w += n
	switch {
	case n > 0:
		return needMore
	case isTimeout(err):
		return closeConn
	case err != nil:
		return handOver // net/http sees the end itself and answers as it does
	}
	return needMore
}

func (c *conn) maxHeaderBytes() int {
	if n := c.srv.Fallback.MaxHeaderBytes; n > 0 {
		return n
	}
	return http.DefaultMaxHeaderBytes
}

// handOver gives the connection to net/http, the bytes already read first.
func (c *conn) handOver() {
	rc := &replayConn{Conn: c.rw, pending: bytes.Clone(c.buf[c.r:c.w])}
	c.rw.SetReadDeadline(time.Time{})
	c.srv.handOver(c, rc)
}

// replayConn is a connection whose first bytes were already read from it.
type replayConn struct {
	net.Conn
	pending []byte
}

func (rc *replayConn) Read(p []byte) (int, error) {
	if len(rc.pending) > 0 {
		n := copy(p, rc.pending)
		rc.pending = rc.pending[n:]
		return n, nil
	}
	return rc.Conn.Read(p)
}

// body is a fast-path request's body: the bytes buffered, then, for one
// that did not arrive with its head, the rest read from the connection.
type body struct {
	buf       []byte
	c         *conn
	remaining int64 // bytes still to read from the connection
	err       error
}

func (b *body) Read(p []byte) (int, error) {
	if len(b.buf) > 0 {
		n := copy(p, b.buf)
		b.buf = b.buf[n:]
		return n, nil
	}
	if b.err != nil {
		return 0, b.err
	}
	if b.remaining == 0 {
		return 0, io.EOF
	}
	return b.readConn(p)
}

func (b *body) readConn(p []byte) (int, error) {
	if int64(len(p)) > b.remaining {
		p = p[:b.remaining]
	}
	n, err := b.c.rw.Read(p)
	b.remaining -= int64(n)
	if err == io.EOF && b.remaining > 0 {
		err = io.ErrUnexpectedEOF
	}
	b.err = err
	return n, err
}

func (b *body) Close() error { return nil }

// complete reports whether the body was read to its end without error,
// so that the connection is at the next request.
func (b *body) complete() bool { return b.remaining == 0 && (b.err == nil || b.err == io.EOF) }

// fastRequest is a request's allocations besides its header, made as one.
type fastRequest struct {
	req  http.Request
	url  url.URL
	body body
}

// request builds h's request, its body taken from the buffer and, when it
// did not all arrive with the head, from the connection.
func (c *conn) request(h head) *fastRequest {
	fr := &fastRequest{req: c.tmpl}
	r := &fr.req
	fr.url.Path = "/"
	r.URL = &fr.url
	r.Header, r.Host, r.ContentLength, r.Close, r.Body = h.header, h.host, h.contentLength, h.close, &fr.body
	start := c.r + h.size
	if avail := int64(c.w - start); avail >= h.contentLength {
		fr.body.buf = c.buf[start : start+int(h.contentLength)]
		c.r = start + int(h.contentLength)
		return fr
	}
	fr.body = body{buf: c.buf[start:c.w], c: c, remaining: h.contentLength - int64(c.w-start)}
	c.r, c.w = 0, 0
	if c.start.IsZero() {
		c.start = time.Now()
	}
	c.setReadDeadline(deadline(c.start, c.readTimeout))
	return fr
}
