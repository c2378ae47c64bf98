package iampolicy

import "strings"

// Request is one action on one resource by one principal, with its
// condition context.
type Request struct {
	Action    string  // "dynamodb:GetItem" (matched case-insensitively, as IAM does)
	Resource  string  // an ARN, e.g. arn:aws:dynamodb:us-east-1:123456789012:table/Orders/index/GSI1
	Principal string  // the caller's ARN, e.g. arn:aws:iam::123456789012:user/alice
	Account   string  // the caller's account ID, 12 digits
	Context   Context // condition keys and policy variables
	// Shared are more contexts, consulted in order for a key Context
	// lacks: what many requests have in common (the principal's keys, the
	// connection's) is built once and not copied into each Context. Their
	// keys MUST be lowercased.
	Shared []Context
}

// Context holds request context keys, each with zero or more string values.
// Key names are case-insensitive (stored lowercased); values are
// case-sensitive.
type Context map[string][]string

// Set replaces key's values.
func (c Context) Set(key string, values ...string) {
	c[strings.ToLower(key)] = values
}

// Get returns key's values and whether the key is present.
func (c Context) Get(key string) ([]string, bool) {
	v, ok := c[strings.ToLower(key)]
	return v, ok
}

// Keys whose value the Request itself carries when the Context lacks them.
const (
	keyPrincipalArn     = "aws:principalarn"
	keyPrincipalAccount = "aws:principalaccount"
)

// ctxValues is a context key's values: a slice from the Context or, for the
// fallback keys, one Request field (kept as a string to avoid allocating).
type ctxValues struct {
	list   []string
	one    string
	single bool
}

func (v ctxValues) len() int {
	if v.single {
		return 1
	}
	return len(v.list)
}

func (v ctxValues) at(i int) string {
	if v.single {
		return v.one
	}
	return v.list[i]
}

// lookup finds an already lowercased key.
func (r *Request) lookup(key string) (ctxValues, bool) {
	if v, ok := r.Context[key]; ok {
		return ctxValues{list: v}, true
	}
	for _, c := range r.Shared {
		if v, ok := c[key]; ok {
			return ctxValues{list: v}, true
		}
	}
	switch {
	case key == keyPrincipalArn && r.Principal != "":
		return ctxValues{one: r.Principal, single: true}, true
	case key == keyPrincipalAccount && r.Account != "":
		return ctxValues{one: r.Account, single: true}, true
	}
	return ctxValues{}, false
}

// variable resolves a policy variable: the key must have exactly one value
// (IAM cannot substitute a multivalued key).
func (r *Request) variable(key string) (string, bool) {
	v, ok := r.lookup(key)
	if !ok || v.len() != 1 {
		return "", false
	}
	return v.at(0), true
}
