package bench

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"

	"github.com/sortkeydb/sortkey"
)

// counted serves h and counts the connections clients open to it.
func counted(t *testing.T, h http.HandlerFunc) (*httptest.Server, *atomic.Int32) {
	var conns atomic.Int32
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, &conns
}

// scripted serves every connection with fn, which reads requests and
// writes whatever bytes it likes: a server free to frame its answers as
// the peers under test (Node, Jetty) might.
func scripted(t *testing.T, fn func(c net.Conn, br *bufio.Reader)) (string, *atomic.Int32) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var conns atomic.Int32
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			wg.Go(func() { defer c.Close(); fn(c, bufio.NewReader(c)) })
		}
	})
	return "http://" + ln.Addr().String(), &conns
}

// readRequest reads one request and its body, reporting its operation.
func readRequest(br *bufio.Reader) (string, bool) {
	req, err := http.ReadRequest(br)
	if err != nil {
		return "", false
	}
	io.Copy(io.Discard, req.Body)
	return strings.TrimPrefix(req.Header.Get("X-Amz-Target"), "DynamoDB_20120810."), true
}

// answerAll answers every request on the connection with resp.
func answerAll(resp string) func(net.Conn, *bufio.Reader) {
	return func(c net.Conn, br *bufio.Reader) {
		for {
			if _, ok := readRequest(br); !ok {
				return
			}
			if _, err := io.WriteString(c, resp); err != nil {
				return
			}
		}
	}
}

func rawTarget(t *testing.T, endpoint string, timeout time.Duration) *Target {
	target := &Target{Endpoint: endpoint, Region: "us-east-1", Client: &http.Client{Timeout: timeout}}
	if _, ok := target.rawEndpoint(); !ok {
		t.Fatalf("%s is not loaded over raw HTTP", endpoint)
	}
	return target
}

// sendN sends one prepared request n times on one session, returning the
// last body.
func sendN(t *testing.T, target *Target, n int) string {
	t.Helper()
	s := target.open(context.Background())
	defer s.close()
	p := target.prepare([]Request{{"GetItem", []byte(`{"TableName":"t"}`)}})[0]
	var body []byte
	for i := range n {
		var err error
		if body, err = s.call(&p, true); err != nil {
			t.Fatalf("send %d: %v", i, err)
		}
	}
	return string(body)
}

func TestWireIsTheRequestNetHTTPWouldRead(t *testing.T) {
	e, _ := parseRaw("http://localhost:8000")
	wire, body := e.wire(Request{"PutItem", []byte(`{"TableName":"t"}`)})
	req, err := http.ReadRequest(bufio.NewReader(strings.NewReader(string(wire))))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(req.Body)
	if req.Method != "POST" || req.URL.Path != "/" || req.Host != "localhost:8000" || string(got) != `{"TableName":"t"}` ||
		req.Header.Get("X-Amz-Target") != "DynamoDB_20120810.PutItem" || req.Header.Get("Content-Type") != "application/x-amz-json-1.0" {
		t.Fatalf("%+v %s", req, got)
	}
	if string(body) != string(got) {
		t.Fatalf("body %q", body)
	}
}

// TestTLSTargetsUseNetHTTP: TLS stays with net/http.
func TestTLSTargetsUseNetHTTP(t *testing.T) {
	target := &Target{Endpoint: "https://dynamodb.us-east-1.amazonaws.com"}
	if _, ok := target.rawEndpoint(); ok {
		t.Errorf("%s over raw HTTP", target.Endpoint)
	}
	if p := target.prepare([]Request{{"GetItem", []byte(`{}`)}})[0]; p.wire != nil {
		t.Errorf("%s: wire bytes prepared", target.Endpoint)
	}
}

// TestSignedRawRequestsVerify: a signed target's raw requests carry a
// SigV4 signature that signing the received request again reproduces.
func TestSignedRawRequestsVerify(t *testing.T) {
	creds := aws.Credentials{AccessKeyID: "bench", SecretAccessKey: "secret"}
	var got atomic.Pointer[http.Request]
	var body atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got.Store(r)
		body.Store(b)
		w.Write([]byte(`{}`))
	}))
	t.Cleanup(srv.Close)
	target := &Target{Endpoint: srv.URL, Region: "us-east-1", Credentials: &creds, Client: srv.Client()}
	if _, ok := target.rawEndpoint(); !ok {
		t.Fatal("a signed http:// target does not use raw HTTP")
	}
	sendN(t, target, 3)
	r, b := got.Load(), body.Load().([]byte)
	auth := r.Header.Get("Authorization")
	if !strings.HasPrefix(auth, "AWS4-HMAC-SHA256 Credential=bench/") {
		t.Fatalf("Authorization %q", auth)
	}
	if want := resign(t, r, b, creds); auth != want {
		t.Fatalf("Authorization\n%s\nwant\n%s", auth, want)
	}
}

// resign signs a copy of the request the server received, at the time
// its X-Amz-Date names, as net/http's path would have.
func resign(t *testing.T, r *http.Request, body []byte, creds aws.Credentials) string {
	t.Helper()
	when, err := time.Parse("20060102T150405Z", r.Header.Get("X-Amz-Date"))
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodPost, "http://"+r.Host+r.URL.RequestURI(), bytes.NewReader(body))
	req.Header.Set("Content-Type", r.Header.Get("Content-Type"))
	req.Header.Set("X-Amz-Target", r.Header.Get("X-Amz-Target"))
	sum := sha256.Sum256(body)
	if err := v4.NewSigner().SignHTTP(context.Background(), creds, req, hex.EncodeToString(sum[:]), "dynamodb", "us-east-1", when); err != nil {
		t.Fatal(err)
	}
	return req.Header.Get("Authorization")
}

// TestOneConnectionPerSession: a session keeps its connection alive.
func TestOneConnectionPerSession(t *testing.T) {
	srv, conns := counted(t, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"n":1}`)) })
	if body := sendN(t, rawTarget(t, srv.URL, 5*time.Second), 50); body != `{"n":1}` {
		t.Fatalf("body %q", body)
	}
	if n := conns.Load(); n != 1 {
		t.Fatalf("%d connections for one session", n)
	}
}

// TestChunkedAnswers: net/http's server chunks a body flushed in parts.
func TestChunkedAnswers(t *testing.T) {
	srv, conns := counted(t, func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"Item":`))
		w.(http.Flusher).Flush()
		w.Write([]byte(`{"pk":{"S":"a"}}}`))
	})
	if body := sendN(t, rawTarget(t, srv.URL, 5*time.Second), 5); body != `{"Item":{"pk":{"S":"a"}}}` {
		t.Fatalf("body %q", body)
	}
	if n := conns.Load(); n != 1 {
		t.Fatalf("%d connections", n)
	}
}

// TestChunkedExtensionsAndTrailers: the rarer parts of chunked framing.
func TestChunkedExtensionsAndTrailers(t *testing.T) {
	url, conns := scripted(t, answerAll("HTTP/1.1 200 OK\r\ntransfer-encoding: Chunked\r\n\r\n"+
		"3;ext=1\r\n{\"a\r\n6\r\n\":\"b\"}\r\n0\r\nX-Trailer: 1\r\n\r\n"))
	if body := sendN(t, rawTarget(t, url, 5*time.Second), 3); body != `{"a":"b"}` {
		t.Fatalf("body %q", body)
	}
	if n := conns.Load(); n != 1 {
		t.Fatalf("%d connections", n)
	}
}

// TestConnectionClose: each answer says Connection: close, so each send
// dials anew.
func TestConnectionClose(t *testing.T) {
	srv, conns := counted(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Connection", "close")
		w.Write([]byte(`{}`))
	})
	sendN(t, rawTarget(t, srv.URL, 5*time.Second), 3)
	if n := conns.Load(); n != 3 {
		t.Fatalf("%d connections for 3 answers with Connection: close", n)
	}
}

// TestOtherFraming: HTTP/1.0 closes unless told keep-alive, a 100
// Continue comes before the answer, and a body without a length ends
// when the server closes.
func TestOtherFraming(t *testing.T) {
	for _, tc := range []struct {
		resp  string
		conns int32
	}{
		{"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\n{}", 3},
		{"HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 2\r\n\r\n{}", 1},
		{"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}", 1},
		{"HTTP/1.1 200\r\ncontent-length:2\r\n\r\n{}", 1},
	} {
		url, conns := scripted(t, answerAll(tc.resp))
		if body := sendN(t, rawTarget(t, url, 5*time.Second), 3); body != "{}" {
			t.Fatalf("%q: body %q", tc.resp, body)
		}
		if n := conns.Load(); n != tc.conns {
			t.Fatalf("%q: %d connections, want %d", tc.resp, n, tc.conns)
		}
	}
	url, _ := scripted(t, func(c net.Conn, br *bufio.Reader) {
		readRequest(br)
		io.WriteString(c, "HTTP/1.1 200 OK\r\n\r\n{\"until\":\"close\"}")
	})
	if body := sendN(t, rawTarget(t, url, 5*time.Second), 2); body != `{"until":"close"}` {
		t.Fatalf("body %q", body)
	}
}

// TestErrorAnswer: a 400's JSON message is in the error, formatted as
// net/http's path formats it, and the connection stays usable.
func TestErrorAnswer(t *testing.T) {
	srv, conns := counted(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Amz-Target") == "DynamoDB_20120810.GetItem" {
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"__type":"com.amazonaws.dynamodb.v20120810#ValidationException","message":"The key is wrong"}`))
			return
		}
		w.Write([]byte(`{}`))
	})
	target := rawTarget(t, srv.URL, 5*time.Second)
	s := target.open(context.Background())
	defer s.close()
	ps := target.prepare([]Request{{"GetItem", []byte(`{}`)}, {"PutItem", []byte(`{}`)}})
	_, err := s.call(&ps[0], false)
	if err == nil || !strings.HasPrefix(err.Error(), "GetItem: HTTP 400: {") || !strings.Contains(err.Error(), "The key is wrong") {
		t.Fatalf("error %v", err)
	}
	if _, err := s.call(&ps[1], false); err != nil {
		t.Fatal(err)
	}
	if n := conns.Load(); n != 1 {
		t.Fatalf("%d connections", n)
	}
}

// TestServerClosesIdleConnection: a server may close a keep-alive
// connection between requests; the next send goes on a new one.
func TestServerClosesIdleConnection(t *testing.T) {
	url, conns := scripted(t, func(c net.Conn, br *bufio.Reader) {
		readRequest(br)
		io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}")
		// and close, without saying so
	})
	target := rawTarget(t, url, 5*time.Second)
	s := target.open(context.Background())
	defer s.close()
	p := target.prepare([]Request{{"GetItem", []byte(`{}`)}})[0]
	for i := range 3 {
		if _, err := s.call(&p, false); err != nil {
			t.Fatalf("send %d: %v", i, err)
		}
		time.Sleep(20 * time.Millisecond) // the close reaches the client
	}
	if n := conns.Load(); n != 3 {
		t.Fatalf("%d connections", n)
	}
	srv, conns := counted(t, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{}`)) })
	target = rawTarget(t, srv.URL, 5*time.Second)
	s2 := target.open(context.Background())
	defer s2.close()
	for i := range 3 {
		if _, err := s2.call(&p, false); err != nil {
			t.Fatalf("send %d after the server closed idle connections: %v", i, err)
		}
		srv.CloseClientConnections()
	}
	if n := conns.Load(); n != 3 {
		t.Fatalf("%d connections", n)
	}
}

// TestSlowServerTimesOut: the client's timeout bounds each request, and
// the session recovers on a new connection.
func TestSlowServerTimesOut(t *testing.T) {
	var slow atomic.Bool
	slow.Store(true)
	srv, conns := counted(t, func(w http.ResponseWriter, r *http.Request) {
		if slow.Load() {
			select {
			case <-time.After(5 * time.Second):
			case <-r.Context().Done():
			}
		}
		w.Write([]byte(`{}`))
	})
	target := rawTarget(t, srv.URL, 100*time.Millisecond)
	s := target.open(context.Background())
	defer s.close()
	p := target.prepare([]Request{{"GetItem", []byte(`{}`)}})[0]
	start := time.Now()
	_, err := s.call(&p, false)
	if !errors.Is(err, os.ErrDeadlineExceeded) || time.Since(start) > 2*time.Second {
		t.Fatalf("after %s: %v", time.Since(start), err)
	}
	slow.Store(false)
	if _, err := s.call(&p, false); err != nil {
		t.Fatal(err)
	}
	if n := conns.Load(); n != 2 {
		t.Fatalf("%d connections", n)
	}
}

// TestCancelAbortsARequest: with no timeout, the context's end still
// stops a request the server never answers.
func TestCancelAbortsARequest(t *testing.T) {
	url, _ := scripted(t, func(c net.Conn, br *bufio.Reader) {
		readRequest(br)
		io.Copy(io.Discard, br) // never answer
	})
	target := rawTarget(t, url, 0)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	p := target.prepare([]Request{{"GetItem", []byte(`{}`)}})[0]
	start := time.Now()
	if _, err := target.call(ctx, &p); err == nil || time.Since(start) > 2*time.Second {
		t.Fatalf("after %s: %v", time.Since(start), err)
	}
}

// TestMalformedAnswers fail the request and drop the connection.
func TestMalformedAnswers(t *testing.T) {
	for _, resp := range []string{
		"SPDY/3 200 OK\r\n\r\n",
		"HTTP/1.1 2x0 OK\r\nContent-Length: 0\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
		"HTTP/1.1 200 OK\r\nno colon\r\n\r\n",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n{}",
	} {
		url, _ := scripted(t, func(c net.Conn, br *bufio.Reader) {
			readRequest(br)
			io.WriteString(c, resp)
		})
		target := rawTarget(t, url, time.Second)
		p := target.prepare([]Request{{"GetItem", []byte(`{}`)}})[0]
		if _, err := target.call(context.Background(), &p); err == nil {
			t.Errorf("%q accepted", resp)
		}
	}
}

// TestRawAgainstSortkey loads an embedded sortkey over raw HTTP: Setup,
// Ping, a run, and DynamoDB's own error for a missing table.
func TestRawAgainstSortkey(t *testing.T) {
	db, err := sortkey.Open("", &sortkey.Options{InMemory: true, TTLInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	srv := httptest.NewServer(db.Handler())
	defer srv.Close()
	target := rawTarget(t, srv.URL, 5*time.Second)
	ctx := context.Background()
	if _, err := target.Setup(ctx, Shape{Keys: 200, ItemSize: 100}, nil); err != nil {
		t.Fatal(err)
	}
	if err := target.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	get := target.prepare([]Request{{"GetItem", []byte(`{"TableName":"` + Table + `","Key":{"pk":{"S":"` + partition(7) + `"},"sk":{"S":"` + sortKey(7) + `"}}}`)}})[0]
	body, err := target.call(ctx, &get)
	if err != nil || !strings.Contains(string(body), `"Item"`) {
		t.Fatalf("GetItem: %s, %v", body, err)
	}
	missing := target.prepare([]Request{{"GetItem", []byte(`{"TableName":"nope","Key":{"pk":{"S":"a"}}}`)}})[0]
	if _, err := target.call(ctx, &missing); err == nil || !strings.Contains(err.Error(), "GetItem: HTTP 400:") || !strings.Contains(err.Error(), "ResourceNotFoundException") {
		t.Fatalf("missing table: %v", err)
	}
	reqs, err := Build("mix", Shape{Keys: 200, ItemSize: 100}, 64, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range Summarize("mix", 4, target.Run(ctx, reqs, 4, 300*time.Millisecond, func(int64, int64) {}), time.Second) {
		if r.Ops == 0 || r.Errors != 0 {
			t.Fatalf("%s: %d ops, %d errors (%s)", r.Op, r.Ops, r.Errors, r.FirstError)
		}
	}
}
