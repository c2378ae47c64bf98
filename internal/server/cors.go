package server

import "net/http"

// DynamoDB answers browsers as every JSON service behind AWS's front end
// does (observed on AWS): any origin may call it, a preflight is allowed
// the method and headers it asks for and may be cached for two days, and
// a page may read the request id and error headers of a response.
const (
	originHeader        = "Origin"
	allowOriginHeader   = "Access-Control-Allow-Origin"
	exposeHeadersHeader = "Access-Control-Expose-Headers"
	allowMethodsHeader  = "Access-Control-Allow-Methods"
	allowHeadersHeader  = "Access-Control-Allow-Headers"
	maxAgeHeader        = "Access-Control-Max-Age"
	requestMethodHeader = "Access-Control-Request-Method"
	requestHeadersHdr   = "Access-Control-Request-Headers"

	anyOrigin      = "*"
	exposedHeaders = "x-amzn-RequestId,x-amzn-ErrorType,x-amzn-ErrorMessage,Date"
	preflightAge   = "172800"
)

// The header values every cross-origin response shares, so that adding
// them allocates nothing; with a capacity of one, an append copies them.
var (
	anyOriginValue      = []string{anyOrigin}
	exposedHeadersValue = []string{exposedHeaders}
)

// allowOrigin adds the headers that let a page from any origin read the
// response. Only requests with an Origin get them: browsers send it on
// every cross-origin request, and other clients need no CORS headers.
func allowOrigin(h http.Header) {
	h[allowOriginHeader] = anyOriginValue
	h[exposeHeadersHeader] = exposedHeadersValue
}

// writePreflight answers a CORS preflight (OPTIONS): 200 with no body,
// allowing the method and the headers the browser asks to send. An
// OPTIONS without an Origin is no preflight: DynamoDB answers it with no
// CORS header (observed on AWS).
func writePreflight(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set(contentLengthHeader, "0")
	if _, ok := r.Header[originHeader]; !ok {
		w.WriteHeader(http.StatusOK)
		return
	}
	allowOrigin(h)
	if m := r.Header.Get(requestMethodHeader); m != "" {
		h.Set(allowMethodsHeader, m)
	}
	if hs := r.Header.Values(requestHeadersHdr); len(hs) > 0 {
		h[allowHeadersHeader] = hs
	}
	h.Set(maxAgeHeader, preflightAge)
	w.WriteHeader(http.StatusOK)
}
