package server

import (
	"io"
	"net/http"
	"strings"
)

// jsonContentType is the other media type DynamoDB takes for its JSON 1.0
// protocol; a response echoes whichever the request used.
const jsonContentType = "application/json"

// notFoundPage is what DynamoDB's endpoint answers, with 404, to a request
// that is not a JSON 1.0 call, such as one sent with Content-Type
// application/x-amz-json-1.1 (observed on AWS).
const notFoundPage = `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">
<head>
 <title>Page Not Found</title>
</head>
<body>Page Not Found</body>
</html>
`

// answered answers every request that is not an API call (a POST in one
// of the JSON media types) and reports whether it did: GET / is the health
// check, OPTIONS a browser's CORS preflight, anything else not found.
func answered(w http.ResponseWriter, r *http.Request) bool {
	switch r.Method {
	case http.MethodPost:
		if _, ok := mediaType(r.Header); ok {
			return false
		}
		writeNotFound(w)
	case http.MethodGet, http.MethodHead:
		writeHealth(w, r)
	case http.MethodOptions:
		writePreflight(w, r)
	default:
		writeNotFound(w)
	}
	return true
}

// replyTo is how the answer to the API call r is written. Only the first
// Accept-Encoding line counts, as on DynamoDB (observed on AWS).
func replyTo(w http.ResponseWriter, r *http.Request) reply {
	ct, _ := mediaType(r.Header)
	rp := reply{w: w, contentType: ct}
	if v := r.Header[acceptEncodingHeader]; len(v) > 0 {
		rp.accept = v[0]
	}
	return rp
}

// mediaType is the JSON media type r's Content-Type names, parameters
// such as charset aside, as the constant a response echoes.
func mediaType(h http.Header) (string, bool) {
	v := h[contentTypeHeader]
	if len(v) == 0 {
		return "", false
	}
	t, _, _ := strings.Cut(v[0], ";")
	switch t = strings.TrimSpace(t); {
	case strings.EqualFold(t, contentType):
		return contentType, true
	case strings.EqualFold(t, jsonContentType):
		return jsonContentType, true
	}
	return "", false
}

func writeNotFound(w http.ResponseWriter) {
	w.Header().Set(contentTypeHeader, "text/html")
	w.WriteHeader(http.StatusNotFound)
	_, _ = io.WriteString(w, notFoundPage)
}

// writeHealth answers GET / as DynamoDB does, so load balancers and
// readiness probes can use it. DynamoDB answers GET on other paths with a
// 4xx (observed on AWS): here, the 404 page of every other path.
func writeHealth(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/" {
		writeNotFound(w)
		return
	}
	w.Header().Set(contentTypeHeader, "text/plain")
	_, _ = io.WriteString(w, "healthy: "+r.Host+" ")
}
