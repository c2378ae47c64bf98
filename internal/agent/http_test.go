package agent_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/internal/agent"
)

// withToken is an HTTP client that sends token as its bearer token.
type withToken struct{ token string }

func (w withToken) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if w.token != "" {
		r.Header.Set("Authorization", "Bearer "+w.token)
	}
	return http.DefaultTransport.RoundTrip(r)
}

func httpSession(url, token string) (*mcp.ClientSession, error) {
	t := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: withToken{token}}, MaxRetries: -1}
	return mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), t, nil)
}

func TestHTTPNeedsTheToken(t *testing.T) {
	db, err := sortkey.Open("", &sortkey.Options{InMemory: true, TTLInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	hs := httptest.NewServer(agent.HTTPHandler(db.Handler(), agent.Options{}, "s3cret-token"))
	defer hs.Close()
	for _, token := range []string{"", "wrong", "s3cret-token-and-more"} {
		if cs, err := httpSession(hs.URL, token); err == nil {
			cs.Close()
			t.Fatalf("a client with token %q connected", token)
		}
	}
	resp, err := http.Post(hs.URL, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
		t.Fatalf("a request without the token answered %d %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	cs, err := httpSession(hs.URL, "s3cret-token")
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "list_tables", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("list_tables with the token: %v %v", err, res)
	}
}
