package httpfast

import (
	"bufio"
	"bytes"
	"io"
	"maps"
	"net"
	"net/http"
	"slices"
	"testing"
	"time"
)

const sdkRequest = "POST / HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nUser-Agent: aws-sdk-go-v2/1.0 os/linux\r\n" +
	"Content-Length: 17\r\nAccept-Encoding: identity\r\nAmz-Sdk-Invocation-Id: 0c5b\r\nAmz-Sdk-Request: attempt=1; max=3\r\n" +
	"Authorization: AWS4-HMAC-SHA256 Credential=x/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=ab\r\n" +
	"Content-Type: application/x-amz-json-1.0\r\nX-Amz-Date: 20260101T000000Z\r\nX-Amz-Target: DynamoDB_20120810.PutItem\r\n\r\n" +
	`{"TableName":"t"}`

// FuzzParseRequest checks that whatever the fast path accepts, net/http's
// server parses into the same request: method, path, headers, body.
func FuzzParseRequest(f *testing.F) {
	for _, seed := range []string{sdkRequest,
		"POST / HTTP/1.1\r\nhost: h\r\ncontent-length: 2\r\nconnection: keep-alive, Close\r\n\r\n{}",
		"POST / HTTP/1.1\r\nHost: h\r\nX-A: 1\r\nX-A:  2 \t\r\nContent-Length: 0\r\n\r\n",
		"POST / HTTP/1.1\r\nHost: h\r\nX-A: \x80\xff\r\nContent-Length: 007\r\n\r\n1234567",
		"POST / HTTP/1.1\r\nHost: [::1]:80\r\nx-amz-TARGET: a\r\nContent-Length: 1\r\n\r\nxy"} {
		f.Add([]byte(seed))
	}
	srv := newReferenceServer(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		h, v := parseRequest(data, DefaultMaxBodyBytes)
		if v != accepted || int64(len(data)-h.size) < h.contentLength {
			return
		}
		data = data[:h.size+int(h.contentLength)]
		want, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(data)))
		if err != nil {
			t.Fatalf("accepted %q; http.ReadRequest: %v", data, err)
		}
		wantBody, _ := io.ReadAll(want.Body)
		delete(want.Header, "Host")
		got := h.header
		switch {
		case want.Method != "POST" || want.URL.Path != "/" || want.RequestURI != "/" || want.Proto != "HTTP/1.1":
			t.Fatalf("accepted %q; net/http read %s %s %s", data, want.Method, want.RequestURI, want.Proto)
		case want.Host != h.host || want.ContentLength != h.contentLength || want.Close != h.close:
			t.Fatalf("accepted %q as host %q, length %d, close %v; net/http: %q, %d, %v", data, h.host, h.contentLength, h.close, want.Host, want.ContentLength, want.Close)
		case !maps.EqualFunc(got, want.Header, slices.Equal):
			t.Fatalf("accepted %q with headers %q; net/http read %q", data, got, want.Header)
		case !bytes.Equal(wantBody, data[h.size:]):
			t.Fatalf("accepted %q with body %q; net/http read %q", data, data[h.size:], wantBody)
		}
		if status := srv.serve(data); status != "handled" {
			t.Fatalf("accepted %q; net/http's server answered %s", data, status)
		}
	})
}

// referenceServer is a net/http server, to learn whether it would hand a
// request to its handler (its checks go beyond http.ReadRequest's: Host,
// header names and values).
type referenceServer struct {
	ln      *handoffListener
	handled chan struct{}
}

func newReferenceServer(tb testing.TB) *referenceServer {
	r := &referenceServer{ln: newHandoffListener(), handled: make(chan struct{}, 1)}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		io.Copy(io.Discard, req.Body)
		r.handled <- struct{}{}
	})}
	go srv.Serve(r.ln)
	tb.Cleanup(func() { srv.Close() })
	return r
}

// serve sends raw on a fresh connection: "handled" when the handler got
// the request, else net/http's answer.
func (r *referenceServer) serve(raw []byte) string {
	client, server := net.Pipe()
	defer client.Close()
	r.ln.give(server)
	client.SetDeadline(time.Now().Add(bound))
	go client.Write(raw)
	answer := make(chan string, 1)
	go func() {
		b, _ := bufio.NewReader(client).ReadString('\n')
		answer <- b
	}()
	select {
	case <-r.handled:
		return "handled"
	case a := <-answer:
		select {
		case <-r.handled:
			return "handled"
		default:
			return a
		}
	}
}

func BenchmarkParseRequest(b *testing.B) {
	buf := []byte(sdkRequest)
	b.ReportAllocs()
	for b.Loop() {
		if _, v := parseRequest(buf, DefaultMaxBodyBytes); v != accepted {
			b.Fatal(v)
		}
	}
}
