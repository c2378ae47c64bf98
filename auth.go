package sortkey

import (
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/auth"
	"github.com/sortkeydb/sortkey/internal/engine"
	"github.com/sortkeydb/sortkey/internal/iampolicy"
	"github.com/sortkeydb/sortkey/internal/regions"
	"github.com/sortkeydb/sortkey/internal/server"
)

// ErrAuthOff refuses ReloadAuth on a database opened without access
// control: turning it on needs a restart, so that no request is ever
// half checked.
var ErrAuthOff = errors.New("access control is off: open the database with Options.Auth to turn it on")

// ReloadAuth puts a new auth file in force for the requests that arrive
// from now on (`sortkey serve` calls it on SIGHUP). A file that does not
// parse is refused whole, and the one in force stays.
func (db *DB) ReloadAuth(doc []byte) error {
	if db.auth == nil {
		return ErrAuthOff
	}
	cfg, err := auth.Parse(doc)
	if err != nil {
		return err
	}
	if db.regionAuth != nil {
		return db.regionAuth.reload(cfg)
	}
	return db.auth.Reload(cfg)
}

// Credentials are the access key, secret and session token of the auth
// file's principal arn, for a client that acts as it.
func (db *DB) Credentials(arn string) (accessKeyID, secretAccessKey, sessionToken string, err error) {
	if db.auth == nil {
		return "", "", "", ErrAuthOff
	}
	p, err := db.auth.Config().Principal(arn)
	if err != nil {
		return "", "", "", err
	}
	secret, token := p.Secret()
	return p.AccessKeyID, secret, token, nil
}

// ErrAccountMismatch refuses Options whose Account is not the auth
// file's: the tables' ARNs would not be the ones its policies name.
var ErrAccountMismatch = errors.New("Options.Account differs from the auth file's account")

// authConfig parses the auth file, if any, and says which account the
// tables belong to.
func authConfig(doc []byte, account string) (*auth.Config, string, error) {
	if doc == nil {
		return nil, account, nil
	}
	cfg, err := auth.Parse(doc)
	switch {
	case err != nil:
		return nil, "", err
	case account != "" && account != cfg.Account():
		return nil, "", ErrAccountMismatch
	}
	return cfg, cfg.Account(), nil
}

// checkResourcePolicy is how PutResourcePolicy and CreateTable check a
// resource-based policy, whether access control is on or off: as AWS
// does, so that a policy a table takes here deploys there.
func checkResourcePolicy(doc []byte) error {
	_, err := iampolicy.Parse(doc, iampolicy.Resource)
	return err
}

// guard is the server's access control for cfg, or none when cfg is nil.
func (db *DB) guard(cfg *auth.Config, now func() time.Time) server.Guard {
	if cfg == nil {
		return nil
	}
	db.auth = auth.New(cfg, db.eng.Region(), tablesOf(db.eng), now)
	if db.regions == nil {
		return guard{db.auth}
	}
	db.regionAuth = &regionalGuard{def: db.auth, set: db.regions, now: now, by: map[string]*auth.Authorizer{}}
	return db.regionAuth
}

func tablesOf(e *engine.Engine) auth.Tables { return auth.TablesOf(e.AuthCatalog(), e.ResourcePolicy) }

// regionalGuard authenticates and authorises each request with the
// Authorizer of its region (regions kept apart): its signature is of that
// region, and the ARNs its policies are judged on name that region's
// tables. Every region's Authorizer has the same auth file.
type regionalGuard struct {
	def *auth.Authorizer // the default region's, db.auth
	set *regions.Set
	now func() time.Time

	mu sync.Mutex
	by map[string]*auth.Authorizer
}

func (g *regionalGuard) Authenticate(r *http.Request, body []byte) (server.Caller, error) {
	a, err := g.of(server.ScopeRegion(r.Header.Get("Authorization")))
	if err != nil {
		return nil, err
	}
	return guard{a}.Authenticate(r, body)
}

// of is region's Authorizer, made at its first request.
func (g *regionalGuard) of(region string) (*auth.Authorizer, error) {
	e, err := g.set.Engine(region)
	if err != nil || e == g.set.Default() {
		return g.def, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if a := g.by[region]; a != nil {
		return a, nil
	}
	a := auth.New(g.def.Config(), region, tablesOf(e), g.now)
	g.by[region] = a
	return a, nil
}

// reload puts cfg in force in every region.
func (g *regionalGuard) reload(cfg *auth.Config) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if err := g.def.Reload(cfg); err != nil {
		return err
	}
	for _, a := range g.by {
		if err := a.Reload(cfg); err != nil {
			return err
		}
	}
	return nil
}

// guard adapts an Authorizer to the server's Guard.
type guard struct{ a *auth.Authorizer }

func (g guard) Authenticate(r *http.Request, body []byte) (server.Caller, error) {
	c, err := g.a.Authenticate(r, body)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// ErrAccountChanged refuses a reload whose auth file names another
// account: the ARNs of existing tables carry the one the server opened
// with.
var ErrAccountChanged = auth.ErrAccountChanged

// HandlerAs is Handler acting as the auth file's principal arn, for a
// front end in this process that speaks for one principal (sortkey mcp
// --auth --as): every request is decided by that principal's policies,
// as if it had signed it. When a reloaded auth file no longer has the
// principal with the same key, requests are refused as DynamoDB refuses
// an unknown key.
func (db *DB) HandlerAs(arn string) (http.Handler, error) {
	key, secret, token, err := db.Credentials(arn)
	if err != nil {
		return nil, err
	}
	l, err := db.auth.SignIn(key, secret, token)
	if err != nil {
		return nil, err
	}
	return principalHandler{db: db, login: l}, nil
}

// principalHandler is a DB's handler with every request's caller set.
type principalHandler struct {
	db    *DB
	login auth.Login
}

func (h principalHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c, err := h.db.auth.Act(h.login, r)
	if err != nil {
		e := apierr.New(apierr.UnrecognizedClient, "%s", err)
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		w.WriteHeader(e.Status())
		_ = json.NewEncoder(w).Encode(map[string]string{"__type": e.Type(), "message": e.Message})
		return
	}
	h.db.handler.ServeHTTP(w, r.WithContext(server.AsCaller(r.Context(), c)))
}
