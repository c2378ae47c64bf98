package server

import (
	"io"
	"net/http"
)

// maxHeadBytes is DynamoDB's limit on a request's headers, all of them
// together, and on its request line: a request over it is refused with
// HTTP 400 before its signature is checked (observed on AWS).
const maxHeadBytes = 16 << 10

// msgHeadTooLarge is that 400's body. It is plain text, as net/http's own
// answers to requests it cannot take are: DynamoDB's front end refuses
// such a request before its JSON API sees it.
const msgHeadTooLarge = "400 Bad Request: the request line or headers exceed 16 KB"

// headTooLarge reports whether r's request line, or its header lines
// together (Host's too), are longer than maxHeadBytes. A request of
// internal/httpfast's fast path never is (its head fits in 8 KiB), but
// one read by net/http may be.
func headTooLarge(r *http.Request) bool {
	if len(r.Method)+len(r.RequestURI)+len(r.Proto)+len("  \r\n") > maxHeadBytes {
		return true
	}
	n := len("Host: \r\n") + len(r.Host)
	for k, vs := range r.Header {
		for _, v := range vs {
			n += len(k) + len(": \r\n") + len(v)
		}
	}
	return n > maxHeadBytes
}

func writeHeadTooLarge(w http.ResponseWriter) {
	w.Header().Set(contentTypeHeader, "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusBadRequest)
	_, _ = io.WriteString(w, msgHeadTooLarge)
}
