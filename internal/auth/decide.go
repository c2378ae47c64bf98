package auth

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/sortkeydb/sortkey/internal/auth/access"
	"github.com/sortkeydb/sortkey/internal/iampolicy"
)

// Decision is the outcome of one check and what made it, for
// AccessDeniedException and for the policy simulator.
type Decision struct {
	Check   access.Check
	Allowed bool
	// Policy names the policy whose statement decided: an identity
	// policy as principals[i].policies[j], or a resource-based policy by
	// its resource's ARN; "" when nothing applied (implicit deny).
	Policy    string
	Statement *iampolicy.Statement
	// Message is AccessDeniedException's text when denied.
	Message string
}

// Decide evaluates one check for c as IAM combines policies: an explicit
// Deny in any policy wins; within the account an Allow in the identity
// or the resource-based policy suffices; across accounts both must allow.
func (a *Authorizer) Decide(c *Caller, ch access.Check) Decision {
	req := c.request(ch)
	id := c.identity(req)
	res := a.resourcePolicy(ch, req)
	d := Decision{Check: ch}
	switch {
	case id.Decision == iampolicy.Deny:
		return d.deny(id, fmt.Sprintf(msgIdentityDeny, c.Arn, ch.Action, ch.Resource))
	case res.Decision == iampolicy.Deny:
		return d.deny(res, fmt.Sprintf(msgResourceDeny, c.Arn, ch.Action, ch.Resource))
	case c.Account == a.Config().account && (id.Decision == iampolicy.Allow || res.Decision == iampolicy.Allow):
		return d.allow(id, res)
	case id.Decision != iampolicy.Allow:
		return d.deny(decided{}, fmt.Sprintf(msgNoIdentityAllow, c.Arn, ch.Action, ch.Resource, ch.Action))
	case res.Decision != iampolicy.Allow:
		return d.deny(decided{}, fmt.Sprintf(msgNoResourceAllow, c.Arn, ch.Action, ch.Resource, ch.Action))
	}
	return d.allow(id, res)
}

// decided is a policy's result with the name of the policy.
type decided struct {
	iampolicy.Result
	policy string
}

func (d Decision) deny(by decided, message string) Decision {
	d.Policy, d.Statement, d.Message = by.policy, by.Statement, message
	return d
}

func (d Decision) allow(id, res decided) Decision {
	by := id
	if by.Decision != iampolicy.Allow {
		by = res
	}
	d.Allowed, d.Policy, d.Statement = true, by.policy, by.Statement
	return d
}

// identity evaluates the caller's identity policies: the first explicit
// Deny decides, else the first Allow.
func (c *Caller) identity(req *iampolicy.Request) decided {
	var out decided
	for j, p := range c.Policies {
		r := p.Evaluate(req)
		switch {
		case r.Decision == iampolicy.Deny:
			return decided{r, c.policyName(j)}
		case r.Decision == iampolicy.Allow && out.Decision == iampolicy.NotApplicable:
			out = decided{r, c.policyName(j)}
		}
	}
	return out
}

func (p *Principal) policyName(j int) string { return p.policyNames[j] }

// resourcePolicy evaluates the resource-based policy that governs ch: a
// stream's own, or its table's for the table and its indexes.
func (a *Authorizer) resourcePolicy(ch access.Check, req *iampolicy.Request) decided {
	arn := ch.Resource
	switch {
	case strings.Contains(arn, "/stream/"):
	case ch.Table == "":
		return decided{}
	case strings.Contains(arn, "/index/"):
		arn, _, _ = strings.Cut(arn, "/index/")
	case !strings.HasSuffix(arn, ":table/"+ch.Table):
		arn = a.tables.TableArn(ch.Table)
	}
	p := a.resources.get(a.tables, arn)
	if p == nil {
		return decided{}
	}
	return decided{p.Evaluate(req), "resource-based policy of " + arn}
}

// resourcePolicies caches parsed resource-based policies by ARN, each
// with the revision it was parsed from, so a changed policy is parsed
// once and an unchanged one never again.
type resourcePolicies struct{ m sync.Map }

type parsedPolicy struct {
	revision string
	policy   *iampolicy.Policy
}

func (r *resourcePolicies) get(t Tables, arn string) *iampolicy.Policy {
	doc, rev, ok := t.ResourcePolicy(arn)
	if !ok {
		return nil
	}
	if v, ok := r.m.Load(arn); ok && v.(*parsedPolicy).revision == rev {
		return v.(*parsedPolicy).policy
	}
	p, err := iampolicy.Parse(doc, iampolicy.Resource)
	if err != nil {
		// The engine checked the document when it was put; a parser that
		// has since become stricter must not open the table to everyone,
		// and a policy that cannot be read grants nothing.
		return nil
	}
	r.m.Store(arn, &parsedPolicy{revision: rev, policy: p})
	return p
}

// Explain decides every check of request in of operation op for
// principal p, calling from sourceIP at t, and returns all decisions,
// the denied ones too: the policy simulator's answer.
func (a *Authorizer) Explain(p *Principal, sourceIP string, t time.Time, op string, in any) ([]Decision, error) {
	checks, err := access.Describe(op, in, a.tables)
	if err != nil {
		return nil, err
	}
	c := a.caller(p, sourceIP, false, t)
	out := make([]Decision, len(checks))
	for i, ch := range checks {
		out[i] = a.Decide(c, ch)
	}
	return out, nil
}
