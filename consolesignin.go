package sortkey

import (
	"net/http"

	"github.com/sortkeydb/sortkey/internal/auth"
	"github.com/sortkeydb/sortkey/internal/console"
	"github.com/sortkeydb/sortkey/internal/server"
)

// consolePrincipals adapts the auth file's Authorizer to the console's
// sign-in, so that the console knows nothing of the auth file but this.
type consolePrincipals struct{ a *auth.Authorizer }

func (p consolePrincipals) SignIn(accessKeyID, secret, sessionToken string) (console.Principal, error) {
	l, err := p.a.SignIn(accessKeyID, secret, sessionToken)
	if err != nil {
		return nil, err
	}
	return consolePrincipal{p.a, l}, nil
}

// consolePrincipal is a signed-in session's principal, looked up again
// (Authorizer.Act) for every console request.
type consolePrincipal struct {
	a *auth.Authorizer
	l auth.Login
}

func (p consolePrincipal) ARN() string { return p.l.Arn }

func (p consolePrincipal) Caller(r *http.Request) (server.Caller, error) {
	c, err := p.a.Act(p.l, r)
	if err != nil {
		return nil, err
	}
	return c, nil
}
