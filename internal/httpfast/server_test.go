package httpfast

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// bound only keeps a broken server from hanging a test; no test measures time.
const bound = 10 * time.Second

// echo answers with what it read of the request, so that a test sees the
// request the handler got.
func echo(w http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, "body: %v", errors.Is(err, errDeadline))
		return
	}
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	w.Header().Set("X-Request", fmt.Sprintf("%s %s %s host=%s len=%d close=%v target=%q",
		r.Method, r.URL.Path, r.Proto, r.Host, r.ContentLength, r.Close, r.Header.Get("X-Amz-Target")))
	w.Write(b)
}

var errDeadline = errors.New("i/o timeout")

type served struct {
	addr string
	fast *Server
	std  *http.Server
	done chan error
}

// serveFast serves h through a Server on loopback, configured by cfg.
func serveFast(t *testing.T, h http.Handler, cfg func(*http.Server)) *served {
	t.Helper()
	std := &http.Server{Handler: h, ReadHeaderTimeout: bound, ReadTimeout: bound, IdleTimeout: bound, ErrorLog: log.New(io.Discard, "", 0)}
	if cfg != nil {
		cfg(std)
	}
	s := &served{fast: &Server{Handler: h, Fallback: std}, std: std, done: make(chan error, 1)}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.addr = ln.Addr().String()
	go func() { s.done <- s.fast.Serve(ln) }()
	t.Cleanup(func() { s.fast.Close() })
	return s
}

// serveStd serves h through a plain net/http server, for comparison.
func serveStd(t *testing.T, h http.Handler, cfg func(*http.Server)) string {
	t.Helper()
	std := &http.Server{Handler: h, ReadHeaderTimeout: bound, ReadTimeout: bound, IdleTimeout: bound, ErrorLog: log.New(io.Discard, "", 0)}
	if cfg != nil {
		cfg(std)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go std.Serve(ln)
	t.Cleanup(func() { std.Close() })
	return ln.Addr().String()
}

// exchange sends raw on a new connection and returns everything the server
// sent until it closed the connection.
func exchange(t *testing.T, addr, raw string, halfClose bool) string {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(bound))
	if _, err := io.WriteString(c, raw); err != nil {
		t.Fatal(err)
	}
	if halfClose {
		c.(*net.TCPConn).CloseWrite()
	}
	b, err := io.ReadAll(c)
	if err != nil && !isReset(err) {
		t.Fatalf("reading the answer: %v (got %.200q)", err, b)
	}
	return describe(b)
}

// describe is the answers in b as a client reads them: status, headers but
// Date and the framing (net/http chunks a long answer whose length the
// handler did not set; httpfast sends its length), body.
func describe(b []byte) string {
	var out strings.Builder
	br := bufio.NewReader(bytes.NewReader(b))
	for {
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			if rest, _ := io.ReadAll(br); len(rest) > 0 || err != io.EOF && err != io.ErrUnexpectedEOF {
				fmt.Fprintf(&out, "unreadable (%v): %.200q", err, rest)
			}
			return out.String()
		}
		body, err := io.ReadAll(res.Body)
		res.Header.Del("Date")
		res.Header.Del("Content-Length")
		fmt.Fprintf(&out, "%s close=%v %v %d bytes %.100q %v\n", res.Status, res.Close, res.Header, len(body), body, err)
	}
}

func isReset(err error) bool { return strings.Contains(err.Error(), "connection reset") }

func post(body string, extra ...string) string {
	return "POST / HTTP/1.1\r\nHost: localhost\r\nX-Amz-Target: DynamoDB_20120810.PutItem\r\n" +
		strings.Join(extra, "") + fmt.Sprintf("Content-Length: %d\r\n\r\n", len(body)) + body
}

const closing = "Connection: close\r\n"

// Every request is answered byte for byte as net/http answers it, and only
// the fast path's shape stays off net/http.
func TestAnswersMatchNetHTTP(t *testing.T) {
	huge := "X-Big: " + strings.Repeat("a", 4000) + "\r\n"
	cases := []struct {
		name, raw         string
		handed, halfClose bool
	}{
		{"fast path", post(`{"TableName":"t"}`, closing), false, false},
		{"empty body", post("", closing), false, false},
		{"lower-case names", "POST / HTTP/1.1\r\nhost: h\r\nx-amz-target: T\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}", false, false},
		{"body larger than the buffer", post(strings.Repeat("b", 3*bufSize), closing), false, false},
		{"pipelined, then close", post("1") + post("22") + post("333", closing), false, false},
		{"GET", "GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n", true, false},
		{"other path", "POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nConnection: close\r\n\r\nx", true, false},
		{"HTTP/1.0", "POST / HTTP/1.0\r\nHost: h\r\nContent-Length: 1\r\n\r\nx", true, false},
		{"chunked", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n1\r\nx\r\n0\r\n\r\n", true, false},
		{"expect 100-continue", "POST / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 1\r\nConnection: close\r\n\r\nx", true, false},
		{"headers over MaxHeaderBytes", post("x", huge, huge, huge, closing), true, false},
		{"malformed header line", "POST / HTTP/1.1\r\nHost: h\r\nBad Header\r\nContent-Length: 1\r\n\r\nx", true, false},
		{"malformed request line", "POST  / HTTP/1.1\r\nHost: h\r\n\r\n", true, false},
		{"no Host", "POST / HTTP/1.1\r\nContent-Length: 1\r\n\r\nx", true, false},
		{"two Content-Lengths", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nxx", true, false},
		{"bad Content-Length", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: +1\r\n\r\nx", true, false},
		{"continuation line", "POST / HTTP/1.1\r\nHost: h\r\nX-A: 1\r\n 2\r\nContent-Length: 1\r\nConnection: close\r\n\r\nx", true, false},
		{"fast, then GET", post("1") + "GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n", true, false},
		{"client closes mid-head", "POST / HTTP/1.1\r\nHost: h\r\nContent-Le", true, true},
	}
	limit := func(s *http.Server) { s.MaxHeaderBytes = 4096 }
	fast := serveFast(t, http.HandlerFunc(echo), limit)
	std := serveStd(t, http.HandlerFunc(echo), limit)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := fast.fast.handoffs.Load()
			got, want := exchange(t, fast.addr, tc.raw, tc.halfClose), exchange(t, std, tc.raw, tc.halfClose)
			if got != want {
				t.Errorf("httpfast answered\n%q\nnet/http answered\n%q", got, want)
			}
			if handed := fast.fast.handoffs.Load() > before; handed != tc.handed {
				t.Errorf("handed to net/http: %v, want %v (answer %q)", handed, tc.handed, got)
			}
		})
	}
}

// A keep-alive connection serves request after request on the fast path.
func TestKeepAlive(t *testing.T) {
	s := serveFast(t, http.HandlerFunc(echo), nil)
	c, err := net.Dial("tcp", s.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	br := bufio.NewReader(c)
	for i := range 5 {
		body := strings.Repeat("x", i*100)
		io.WriteString(c, post(body))
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(res.Body)
		if res.StatusCode != 200 || string(got) != body || res.Close || res.Header.Get("Date") == "" {
			t.Fatalf("request %d: %d close=%v %q %v", i, res.StatusCode, res.Close, got, res.Header)
		}
	}
	if n := s.fast.handoffs.Load(); n != 0 {
		t.Fatalf("%d connections handed over", n)
	}
}

// A handler that hijacks the connection and closes it leaves the client
// with no answer, as the fault rule that drops connections expects.
func TestHijackDropsConnection(t *testing.T) {
	s := serveFast(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		conn.Close()
	}), nil)
	if got := exchange(t, s.addr, post("{}"), false); got != "" {
		t.Fatalf("answered %q", got)
	}
}

// A panic closes the connection without an answer; only one other than
// http.ErrAbortHandler is logged.
func TestPanics(t *testing.T) {
	for _, p := range []any{http.ErrAbortHandler, "boom"} {
		var logs syncBuffer
		s := serveFast(t, http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic(p) }),
			func(s *http.Server) { s.ErrorLog = log.New(&logs, "", 0) })
		if got := exchange(t, s.addr, post("{}"), false); got != "" {
			t.Fatalf("panic %v: answered %q", p, got)
		}
		logged := strings.Contains(logs.String(), "http: panic serving")
		if logged != (p != http.ErrAbortHandler) {
			t.Fatalf("panic %v: logged %q", p, logs.String())
		}
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// Shutdown lets a request in flight finish, answered with Connection:
// close, closes idle connections, and Serve then returns
// http.ErrServerClosed.
func TestShutdownWaitsForRequestInFlight(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	s := serveFast(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		<-release
		echo(w, r)
	}), nil)
	idle, err := net.Dial("tcp", s.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	busy, err := net.Dial("tcp", s.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	io.WriteString(busy, post("inflight"))
	<-entered
	stopped := make(chan error, 1)
	go func() { stopped <- s.fast.Shutdown(context.Background()) }()
	idle.SetReadDeadline(time.Now().Add(bound))
	if n, err := idle.Read(make([]byte, 1)); err == nil {
		t.Fatalf("idle connection read %d bytes during shutdown", n)
	}
	select {
	case err := <-stopped:
		t.Fatalf("Shutdown returned %v with a request in flight", err)
	default:
	}
	close(release)
	busy.SetReadDeadline(time.Now().Add(bound))
	res, err := http.ReadResponse(bufio.NewReader(busy), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := io.ReadAll(res.Body); string(got) != "inflight" || !res.Close {
		t.Fatalf("in-flight request answered %q, close=%v", got, res.Close)
	}
	if err := <-stopped; err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	if err := <-s.done; !errors.Is(err, http.ErrServerClosed) {
		t.Fatalf("Serve returned %v", err)
	}
}

// A keep-alive connection left idle is closed after IdleTimeout, although
// its read deadline was never reset per request.
func TestIdleTimeout(t *testing.T) {
	s := serveFast(t, http.HandlerFunc(echo), func(s *http.Server) { s.IdleTimeout = 200 * time.Millisecond })
	c, err := net.Dial("tcp", s.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	br := bufio.NewReader(c)
	io.WriteString(c, post("a"))
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.ReadAll(res.Body)
	c.SetReadDeadline(time.Now().Add(bound))
	if _, err := br.ReadByte(); err != io.EOF {
		t.Fatalf("idle connection: %v, want EOF", err)
	}
}

// A body sent too slowly is cut off at ReadTimeout: the handler sees the
// timeout, answers, and the connection closes.
func TestSlowBodyCutOff(t *testing.T) {
	s := serveFast(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, err := io.ReadAll(r.Body)
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, "timeout=%v", isTimeout(err))
	}), func(s *http.Server) { s.ReadTimeout = 300 * time.Millisecond })
	c, err := net.Dial("tcp", s.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 100\r\n\r\nx")
	go func() {
		for range 50 {
			time.Sleep(50 * time.Millisecond)
			if _, err := c.Write([]byte("x")); err != nil {
				return
			}
		}
	}()
	c.SetReadDeadline(time.Now().Add(bound))
	b, _ := io.ReadAll(c)
	if !strings.Contains(string(b), "400 Bad Request") || !strings.HasSuffix(string(b), "timeout=true") || !strings.Contains(string(b), "Connection: close") {
		t.Fatalf("slow body answered %q", b)
	}
	if n := s.fast.handoffs.Load(); n != 0 {
		t.Fatalf("slow body handed over")
	}
}
