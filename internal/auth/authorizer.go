package auth

import (
	"errors"
	"net"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/auth/access"
	"github.com/sortkeydb/sortkey/internal/auth/sigv4"
	"github.com/sortkeydb/sortkey/internal/iampolicy"
)

// Tables is what authorisation needs from the engine: the catalog that
// says what a request touches, and the tables' resource-based policies.
type Tables interface {
	access.Catalog
	// ResourcePolicy is the policy document attached to a table or stream
	// ARN and its revision; it MUST be cheap, as every request asks.
	ResourcePolicy(arn string) (doc []byte, revision string, ok bool)
}

// Authorizer authenticates and authorises requests against one auth file
// at a time.
type Authorizer struct {
	state     atomic.Pointer[state]
	region    string
	tables    Tables
	now       func() time.Time
	resources resourcePolicies
	lastEnv   atomic.Pointer[envEntry]
}

// state is one auth file in force with the verifier of its keys; they are
// swapped together so that a request is checked against one file only.
type state struct {
	cfg      *Config
	verifier *sigv4.Verifier
}

// New returns an Authorizer for cfg. The server's tables belong to
// cfg.Account(), in region.
func New(cfg *Config, region string, tables Tables, now func() time.Time) *Authorizer {
	if now == nil {
		now = time.Now
	}
	a := &Authorizer{region: region, tables: tables, now: now}
	a.install(cfg)
	return a
}

// ErrAccountChanged refuses a reload that names another account: the
// ARNs of existing tables and streams carry the one the server started
// with.
var ErrAccountChanged = errors.New("auth file: the account cannot change while the server runs; restart it instead")

// Reload puts cfg in force for requests that arrive from now on.
func (a *Authorizer) Reload(cfg *Config) error {
	if cfg.account != a.Config().account {
		return ErrAccountChanged
	}
	a.install(cfg)
	return nil
}

func (a *Authorizer) install(cfg *Config) {
	v := &sigv4.Verifier{Region: a.region, Service: "dynamodb", Now: a.now, Lookup: cfg.key}
	a.state.Store(&state{cfg: cfg, verifier: v})
}

// Config is the auth file in force.
func (a *Authorizer) Config() *Config { return a.state.Load().cfg }

func (c *Config) key(accessKeyID string) (sigv4.Key, bool) {
	p, ok := c.byKey[accessKeyID]
	if !ok {
		return sigv4.Key{}, false
	}
	return p.key, true
}

// Caller is an authenticated request's principal and what IAM knows of
// the request apart from its body: where it came from, and when.
type Caller struct {
	*Principal
	SourceIP string
	Secure   bool
	Time     time.Time
	a        *Authorizer
	env      iampolicy.Context // the request's global keys, built once
}

// PrincipalARN is the caller's ARN, for fault rules that name a principal.
func (c *Caller) PrincipalARN() string { return c.Arn }

// Authenticate checks r's signature over body and returns its caller, or
// DynamoDB's authentication error.
func (a *Authorizer) Authenticate(r *http.Request, body []byte) (*Caller, error) {
	st := a.state.Load()
	id, err := st.verifier.Verify(r, body)
	if err != nil {
		return nil, err
	}
	p := st.cfg.byKey[id]
	return a.caller(p, sourceIP(r), r.TLS != nil, a.now()), nil
}

func (a *Authorizer) caller(p *Principal, ip string, secure bool, t time.Time) *Caller {
	return &Caller{Principal: p, SourceIP: ip, Secure: secure, Time: t, a: a, env: a.env(ip, secure, t)}
}

// env is the global keys of a request from ip at t. They change only with
// the client and the second, so the last set is kept and shared: most
// requests in a run come from one address.
func (a *Authorizer) env(ip string, secure bool, t time.Time) iampolicy.Context {
	sec := t.Unix()
	if e := a.lastEnv.Load(); e != nil && e.ip == ip && e.secure == secure && e.sec == sec {
		return e.ctx
	}
	ctx := iampolicy.Context{
		"aws:sourceip":        {ip},
		"aws:securetransport": {strconv.FormatBool(secure)},
		"aws:currenttime":     {t.UTC().Format(time.RFC3339)},
		"aws:epochtime":       {strconv.FormatInt(sec, 10)},
		"aws:requestedregion": {a.region},
	}
	a.lastEnv.Store(&envEntry{ip: ip, secure: secure, sec: sec, ctx: ctx})
	return ctx
}

// envEntry is one request's global keys and what they were built from.
type envEntry struct {
	ip     string
	secure bool
	sec    int64
	ctx    iampolicy.Context // read-only once stored
}

// sourceIP is the address the connection comes from. Forwarding headers
// are not trusted: any client can set them.
func sourceIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// Authorize checks every action the request op (decoded into in) asks
// for, and returns AccessDeniedException for the first one denied.
func (c *Caller) Authorize(op string, in any) error {
	checks, err := access.Describe(op, in, c.a.tables)
	if err != nil {
		return err
	}
	for _, ch := range checks {
		if d := c.a.Decide(c, ch); !d.Allowed {
			return apierr.New(apierr.AccessDenied, "%s", d.Message)
		}
	}
	return nil
}

// request is the IAM request of one check: the check's own condition
// keys, then the request's and the principal's, shared by every check.
func (c *Caller) request(ch access.Check) *iampolicy.Request {
	return &iampolicy.Request{Action: ch.Action, Resource: ch.Resource, Principal: c.Arn, Account: c.Account,
		Context: ch.Keys, Shared: []iampolicy.Context{c.env, c.base}}
}

// TablesOf joins a catalog and a lookup of resource-based policies into
// the Tables an Authorizer needs.
func TablesOf(c access.Catalog, policies func(arn string) (doc []byte, revision string, ok bool)) Tables {
	return tables{c, policies}
}

type tables struct {
	access.Catalog
	policies func(string) ([]byte, string, bool)
}

func (t tables) ResourcePolicy(arn string) ([]byte, string, bool) { return t.policies(arn) }
