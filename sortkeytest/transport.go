package sortkeytest

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
)

// inProcess is an http.RoundTripper that hands each request straight to
// the server's handler: the SDK still builds, signs and sends a real HTTP
// request and parses a real HTTP response, but no socket, kernel or
// connection pool is involved.
type inProcess struct{ h http.Handler }

func (t inProcess) RoundTrip(req *http.Request) (resp *http.Response, err error) {
	if err := req.Context().Err(); err != nil {
		return nil, err
	}
	rec := httptest.NewRecorder()
	defer func() {
		// A fault rule's dropped connection: the client sees the
		// connection error it would over a socket.
		if p := recover(); p == http.ErrAbortHandler {
			resp, err = nil, errDropped
		} else if p != nil {
			panic(p)
		}
	}()
	t.h.ServeHTTP(rec, serverSide(req))
	resp = rec.Result()
	resp.Request = req
	return resp, nil
}

// serverSide gives the handler the request as a server would see it: a
// Host and a RequestURI, and a body it may read to the end.
func serverSide(req *http.Request) *http.Request {
	r := req.Clone(req.Context())
	r.RequestURI = req.URL.RequestURI()
	if r.Host == "" {
		r.Host = req.URL.Host
	}
	if r.Body == nil {
		r.Body = http.NoBody
	}
	if r.RemoteAddr == "" {
		// The client is this process: its address is the loopback's, as
		// aws:SourceIp conditions see it.
		r.RemoteAddr = "127.0.0.1:0"
	}
	return r
}

// errDropped is what a client of the in-process transport sees of a
// connection a fault rule closed.
var errDropped = errors.New("sortkeytest: connection closed by the server without an answer (a fault rule's drop)")

// shieldedBodies is the HTTP client of NetworkAWSConfig: the SDK's
// default, with each request body stripped of its WriteTo method.
//
// The SDK closes a request's body as soon as the response's head arrives.
// net/http, having sent ContentLength bytes, then reads the body once more
// to check it has no extra bytes; through WriteTo, a body the SDK has
// already closed answers io.EOF as an error, and net/http closes the
// connection under the response still being read ("use of closed network
// connection"). Against a local server that answers within microseconds
// the race is lost often enough to fail a test that turns retries off;
// Read after Close answers a plain io.EOF, which net/http expects.
type shieldedBodies struct{ next aws.HTTPClient }

func networkClient() aws.HTTPClient {
	return shieldedBodies{next: awshttp.NewBuildableClient()}
}

func (c shieldedBodies) Do(req *http.Request) (*http.Response, error) {
	if req.Body != nil && req.Body != http.NoBody {
		req.Body = readOnly{req.Body}
	}
	return c.next.Do(req)
}

// readOnly hides every method of a body but Read and Close.
type readOnly struct{ io.ReadCloser }
