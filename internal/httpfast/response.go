package httpfast

import (
	"bufio"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"runtime"
	"slices"
	"strconv"
	"sync/atomic"
	"time"
)

// headroom is the room kept before a response's body for its status line
// and headers, so that the whole answer goes out in one write without
// copying the body.
const headroom = 1024

// maxKeptResponse bounds the response buffer a connection keeps between
// requests; a larger one (a big Query page) is left to the collector.
const maxKeptResponse = 64 << 10

// response is the http.ResponseWriter of a fast-path request. It buffers
// the whole answer; finish writes it.
type response struct {
	c        *conn
	header   http.Header
	code     int
	out      []byte // headroom, then the body
	keys     []string
	head     []byte // scratch for the status line and headers
	hijacked bool
}

func (w *response) reset() {
	if w.header == nil {
		w.header = make(http.Header, 8)
	}
	clear(w.header)
	if cap(w.out) > maxKeptResponse || w.out == nil {
		w.out = make([]byte, headroom, 4<<10)
	}
	w.out, w.code, w.hijacked = w.out[:headroom], 0, false
}

func (w *response) Header() http.Header { return w.header }

func (w *response) WriteHeader(code int) {
	if code < 100 || code > 999 {
		panic(fmt.Sprintf("invalid WriteHeader code %v", code))
	}
	if w.code == 0 && code >= 200 {
		w.code = code
	}
}

func (w *response) Write(p []byte) (int, error) {
	if w.hijacked {
		return 0, http.ErrHijacked
	}
	w.WriteHeader(http.StatusOK)
	if !bodyAllowed(w.code) {
		return 0, http.ErrBodyNotAllowed
	}
	w.out = append(w.out, p...)
	return len(p), nil
}

func (w *response) WriteString(s string) (int, error) {
	return w.Write([]byte(s))
}

func bodyAllowed(code int) bool {
	return code != http.StatusNoContent && code != http.StatusNotModified
}

// Hijack hands the connection to the handler; the bytes read past this
// request, if any, come first from it.
func (w *response) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	if w.hijacked {
		return nil, nil, http.ErrHijacked
	}
	w.hijacked = true
	c := w.c
	var rw net.Conn = c.rw
	if c.r < c.w {
		rw = &replayConn{Conn: c.rw, pending: slices.Clone(c.buf[c.r:c.w])}
	}
	return rw, bufio.NewReadWriter(bufio.NewReader(rw), bufio.NewWriter(rw)), nil
}

// finish writes the buffered answer and reports whether the connection
// may serve another request.
func (w *response) finish(req *http.Request, keep bool, now time.Time) bool {
	w.WriteHeader(http.StatusOK)
	body := w.out[headroom:]
	declared, lengthSet := w.declaredLength()
	keep = keep && !req.Close && !hasToken(w.header.Get("Connection"), "close")
	if lengthSet && declared != int64(len(body)) {
		// net/http refuses writes past the length declared and cannot
		// keep a connection whose body fell short.
		body, keep = body[:min(int64(len(body)), max(declared, 0))], false
	}
	head := w.appendHead(w.head[:0], body, lengthSet, keep, now)
	w.head = head
	var out []byte
	if len(head) <= headroom {
		out = w.out[headroom-len(head) : headroom+len(body)]
		copy(out, head)
	} else {
		out = append(head, body...)
	}
	_, err := w.c.rw.Write(out)
	return keep && err == nil
}

func (w *response) declaredLength() (int64, bool) {
	v := w.header.Get("Content-Length")
	if v == "" {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	return n, err == nil
}

// appendHead appends the status line and headers: the handler's sorted,
// then those net/http adds (Date, Content-Length, Content-Type,
// Connection) when the handler did not set them.
func (w *response) appendHead(b, body []byte, lengthSet, keep bool, now time.Time) []byte {
	b = append(b, statusLine(w.code)...)
	w.keys = w.keys[:0]
	for k := range w.header {
		w.keys = append(w.keys, k)
	}
	slices.Sort(w.keys)
	for _, k := range w.keys {
		b = appendField(b, k, w.header[k])
	}
	if _, ok := w.header["Date"]; !ok {
		b = append(b, dateLine(now)...)
	}
	if !lengthSet && bodyAllowed(w.code) {
		b = strconv.AppendInt(append(b, "Content-Length: "...), int64(len(body)), 10)
		b = append(b, "\r\n"...)
	}
	if _, ok := w.header["Content-Type"]; !ok && len(body) > 0 {
		b = append(append(append(b, "Content-Type: "...), http.DetectContentType(body)...), "\r\n"...)
	}
	if !keep && !hasToken(w.header.Get("Connection"), "close") {
		b = append(b, "Connection: close\r\n"...)
	}
	return append(b, "\r\n"...)
}

// appendField appends k's values as net/http writes them: a key that is
// not a token is left out, a CR or LF in a value becomes a space.
func appendField(b []byte, k string, vv []string) []byte {
	for i := 0; i < len(k); i++ {
		if !tokenByte[k[i]] {
			return b
		}
	}
	for _, v := range vv {
		b = append(append(b, k...), ": "...)
		start := len(b)
		b = append(b, trimSpace(v)...)
		for i := start; i < len(b); i++ {
			if b[i] == '\r' || b[i] == '\n' {
				b[i] = ' '
			}
		}
		b = append(b, "\r\n"...)
	}
	return b
}

// statusLines holds the status lines of the codes net/http names.
var statusLines = func() (t [600]string) {
	for code := range t {
		if text := http.StatusText(code); text != "" {
			t[code] = fmt.Sprintf("HTTP/1.1 %03d %s\r\n", code, text)
		}
	}
	return t
}()

func statusLine(code int) string {
	if code < len(statusLines) && statusLines[code] != "" {
		return statusLines[code]
	}
	return fmt.Sprintf("HTTP/1.1 %03d status code %d\r\n", code, code)
}

// date is a Date header line and the second it names.
type date struct {
	sec  int64
	line []byte
}

var cachedDate atomic.Pointer[date]

// dateLine is the Date header line for now, formatted once a second.
func dateLine(now time.Time) []byte {
	sec := now.Unix()
	if d := cachedDate.Load(); d != nil && d.sec == sec {
		return d.line
	}
	line := now.UTC().AppendFormat([]byte("Date: "), http.TimeFormat)
	d := &date{sec: sec, line: append(line, "\r\n"...)}
	cachedDate.Store(d)
	return d.line
}

// serveRequest runs the handler on h's request and answers it. It reports
// whether the connection may serve another.
func (c *conn) serveRequest(h head) (keep bool) {
	fr := c.request(h)
	c.res.reset()
	if d := c.srv.Fallback.WriteTimeout; d > 0 {
		c.rw.SetWriteDeadline(time.Now().Add(d))
	}
	if !c.runHandler(&fr.req) {
		return false
	}
	now := time.Now()
	keep = c.res.finish(&fr.req, fr.body.complete() && !c.srv.closing.Load(), now)
	c.idleFrom(now)
	return keep
}

// runHandler calls the handler and reports whether it returned without
// panicking or hijacking the connection. A panic is logged, except
// http.ErrAbortHandler, and the connection is closed without an answer,
// as net/http does.
func (c *conn) runHandler(r *http.Request) (ok bool) {
	defer func() {
		if c.res.hijacked {
			c.hijacked, ok = true, false
		}
		if p := recover(); p != nil {
			ok = false
			if p != http.ErrAbortHandler {
				c.logPanic(p)
			}
		}
	}()
	c.srv.Handler.ServeHTTP(&c.res, r)
	return true
}

func (c *conn) logPanic(p any) {
	const size = 64 << 10
	buf := make([]byte, size)
	buf = buf[:runtime.Stack(buf, false)]
	logf := log.Printf
	if l := c.srv.Fallback.ErrorLog; l != nil {
		logf = l.Printf
	}
	logf("http: panic serving %v: %v\n%s", c.tmpl.RemoteAddr, p, buf)
}

var _ io.StringWriter = (*response)(nil)
