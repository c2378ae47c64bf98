package inproc

import (
	"errors"
	"net/http"
	"net/http/httptest"
)

// Transport serves each request with Handler.
type Transport struct{ Handler http.Handler }

// RoundTrip is the handler's answer to req, as a client would read it.
func (t Transport) RoundTrip(req *http.Request) (resp *http.Response, err error) {
	if err := req.Context().Err(); err != nil {
		return nil, err
	}
	rec := httptest.NewRecorder()
	defer func() {
		// A fault rule's dropped connection: the client sees the
		// connection error it would over a socket.
		if p := recover(); p == http.ErrAbortHandler {
			resp, err = nil, ErrDropped
		} else if p != nil {
			panic(p)
		}
	}()
	t.Handler.ServeHTTP(rec, serverSide(req))
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

// ErrDropped is what a client of the in-process transport sees of a
// connection a fault rule closed.
var ErrDropped = errors.New("connection closed by the server without an answer (a fault rule's drop)")
