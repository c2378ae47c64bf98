package server

import (
	"context"
	"net/http"
)

// Guard is access control as the server sees it. The server asks it to
// authenticate a request once the protocol checks (method, content type,
// target) have passed, as DynamoDB does, and the Caller it returns to
// authorise the decoded request before the engine runs it.
type Guard interface {
	// Authenticate checks r's signature over body, the bytes as received,
	// and returns who sent it or the error to answer.
	Authenticate(r *http.Request, body []byte) (Caller, error)
}

// Caller is an authenticated request's principal.
type Caller interface {
	// Authorize returns AccessDeniedException unless the caller may make
	// request in of operation op. It MUST NOT change anything.
	Authorize(op string, in any) error
}

type callerKey struct{}

// caller is what authorize needs of a request: who sent it, for which
// operation.
type caller struct {
	c  Caller
	op string
}

// authenticate is Guard.Authenticate, when there is a Guard, with the
// caller kept in the context for authorize.
func (h *Handler) authenticate(r *http.Request, op string, body []byte) (context.Context, error) {
	ctx := r.Context()
	if h.guard == nil {
		return ctx, nil
	}
	if c, ok := ctx.Value(asCallerKey{}).(Caller); ok {
		return context.WithValue(ctx, callerKey{}, caller{c, op}), nil
	}
	c, err := h.guard.Authenticate(r, body)
	if err != nil {
		return nil, err
	}
	return context.WithValue(ctx, callerKey{}, caller{c, op}), nil
}

// authorize asks the request's caller, if access control is on, whether it
// may make request in.
func authorize(ctx context.Context, in any) error {
	c, ok := ctx.Value(callerKey{}).(caller)
	if !ok {
		return nil
	}
	return c.c.Authorize(c.op, in)
}

type asCallerKey struct{}

// AsCaller marks the API calls made in process with ctx as c's: with
// access control on, the handler takes c in place of a SigV4 signature
// and authorises each call as it would one c signed. Only code in this
// process can set it (the key is unexported; nothing in an HTTP request
// reaches a context value): the console, acting as its signed-in
// principal. Without access control it changes nothing.
func AsCaller(ctx context.Context, c Caller) context.Context {
	return context.WithValue(ctx, asCallerKey{}, c)
}

// principal is the ARN of the request's caller, for fault rules that name
// one: "" with access control off, or a Caller that does not say.
func principal(ctx context.Context) string {
	c, ok := ctx.Value(callerKey{}).(caller)
	if !ok {
		return ""
	}
	if p, ok := c.c.(interface{ PrincipalARN() string }); ok {
		return p.PrincipalARN()
	}
	return ""
}
