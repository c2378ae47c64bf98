package agent

import (
	"crypto/subtle"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const msgNeedToken = "sortkey mcp: this server needs its bearer token (Authorization: Bearer TOKEN; sortkey mcp printed it at start, or --http-token set it)"

// HTTPHandler serves the tools over MCP's Streamable HTTP transport to
// clients that send token as a bearer token; any other request is
// answered 401 before the MCP layer sees it.
func HTTPHandler(h http.Handler, opts Options, token string) http.Handler {
	srv := New(h, opts)
	return bearer(token, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
}

// bearer lets through the requests whose Authorization header is the
// token's, compared in constant time.
func bearer(token string, next http.Handler) http.Handler {
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) != 1 || token == "" {
			w.Header().Set("WWW-Authenticate", `Bearer realm="sortkey mcp"`)
			http.Error(w, msgNeedToken, http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}
