package auth

import (
	"github.com/sortkeydb/sortkey/internal/auth/sigv4"
	"github.com/sortkeydb/sortkey/internal/iampolicy"
)

// Principal is one caller of the auth file: who it is, the key it signs
// with, and its identity policies.
type Principal struct {
	Arn         string
	Account     string
	UserID      string
	AccessKeyID string
	Tags        map[string]string
	Policies    []*iampolicy.Policy
	policyNames []string // principals[i].policies[j], for decisions

	key          sigv4.Key
	kind         string // user, role or assumed-role
	name         string // user name, role name or session name
	principalArn string // aws:PrincipalArn: a session's role
	position     int    // index in the file, for messages
	base         iampolicy.Context
}

// Secret is the principal's secret access key and session token, for
// clients that act as it (sortkeytest).
func (p *Principal) Secret() (secretAccessKey, sessionToken string) {
	return p.key.Secret, p.key.SessionToken
}

// baseContext is the part of every request's context that depends only on
// the principal: the global condition keys IAM sets from the caller.
func (p *Principal) baseContext() iampolicy.Context {
	c := iampolicy.Context{}
	c.Set("aws:PrincipalArn", p.principalArn)
	c.Set("aws:PrincipalAccount", p.Account)
	c.Set("aws:userid", p.UserID)
	c.Set("aws:PrincipalType", principalType[p.kind])
	if p.kind == "user" {
		c.Set("aws:username", p.name)
	}
	for k, v := range p.Tags {
		c.Set("aws:PrincipalTag/"+k, v)
	}
	return c
}

// principalType is aws:PrincipalType by the kind of ARN.
var principalType = map[string]string{"user": "User", "role": "AssumedRole", "assumed-role": "AssumedRole"}
