package server

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey/internal/apierr"
)

// askedCaller is a Caller that allows or denies every request and keeps
// the operations it was asked about.
type askedCaller struct {
	allow bool
	ops   []string
}

func (c *askedCaller) Authorize(op string, in any) error {
	c.ops = append(c.ops, op)
	if !c.allow {
		return apierr.New(apierr.AccessDenied, "denied by the test caller")
	}
	return nil
}

// unsigned is a Guard that finds every request unsigned.
type unsigned struct{}

func (unsigned) Authenticate(*http.Request, []byte) (Caller, error) {
	return nil, apierr.New(apierr.MissingAuthenticationToken, "Request is missing Authentication Token")
}

func doAs(h http.Handler, ctx context.Context, op string, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/", bytes.NewReader([]byte(body)))
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("X-Amz-Target", targetPrefix+op)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// A call made in process with AsCaller is authorised as that caller, in
// place of a signature; without it the Guard still authenticates.
func TestAsCallerActsAsTheCallerInsteadOfASignature(t *testing.T) {
	h := observedHandler(t)
	h.guard = unsigned{}
	get := `{"TableName":"Bench","Key":{"pk":{"S":"user#1"},"sk":{"N":"1"}}}`
	if rec := doAs(h, context.Background(), "GetItem", get); !strings.Contains(rec.Body.String(), "MissingAuthenticationToken") {
		t.Fatalf("an unsigned call passed the guard: %s", rec.Body)
	}
	allow := &askedCaller{allow: true}
	if rec := doAs(h, AsCaller(context.Background(), allow), "GetItem", get); rec.Code != http.StatusOK {
		t.Fatalf("as an allowing caller: %d %s", rec.Code, rec.Body)
	}
	deny := &askedCaller{}
	rec := doAs(h, AsCaller(context.Background(), deny), "PutItem", `{"TableName":"Bench","Item":{"pk":{"S":"u"},"sk":{"N":"2"}}}`)
	if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "AccessDeniedException") {
		t.Fatalf("as a denying caller: %d %s", rec.Code, rec.Body)
	}
	if len(allow.ops) != 1 || allow.ops[0] != "GetItem" || len(deny.ops) != 1 || deny.ops[0] != "PutItem" {
		t.Errorf("callers were asked %q and %q", allow.ops, deny.ops)
	}
	if rec := doAs(h, AsCaller(context.Background(), allow), "GetItem", `{"TableName":"Bench","Key":{"pk":{"S":"u"},"sk":{"N":"2"}}}`); rec.Body.String() != "{}" {
		t.Errorf("the denied PutItem wrote: %s", rec.Body)
	}
}
