package iampolicy

import (
	"encoding/json"
	"strings"
)

// principals is a compiled Principal or NotPrincipal element.
type principals struct {
	any      bool     // "*" or {"AWS": "*"}
	accounts []string // account IDs; each matches every principal of its account
	arns     []string // exact principal ARNs
	sessions []string // "arn:…:sts::<acct>:assumed-role/<name>/" prefixes of listed roles
}

// principalTypes are the keys of a Principal object. Only AWS principals
// can be sortkey callers; the others are valid but never match.
var principalTypes = map[string]bool{"AWS": true, "Service": true, "Federated": true, "CanonicalUser": true}

func compilePrincipals(raw json.RawMessage) (principals, error) {
	var p principals
	var star string
	if json.Unmarshal(raw, &star) == nil {
		p.any = star == "*"
		return p, errUnless(p.any, msgInvalidPrincipal)
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil || len(obj) == 0 {
		return p, &Error{msgInvalidPrincipal}
	}
	for typ, v := range obj {
		ids, err := stringList(v, "Principal")
		if err != nil || !principalTypes[typ] || len(ids) == 0 {
			return p, &Error{msgInvalidPrincipal}
		}
		if typ != "AWS" {
			continue
		}
		for _, id := range ids {
			if !p.addAWS(id) {
				return p, &Error{msgInvalidPrincipal}
			}
		}
	}
	return p, nil
}

func errUnless(ok bool, msg string) error {
	if ok {
		return nil
	}
	return &Error{msg}
}

// addAWS records one AWS principal: "*", an account ID, an account root
// ARN, or a user/role/assumed-role ARN (no partial wildcards, as IAM).
func (p *principals) addAWS(id string) bool {
	switch {
	case id == "*":
		p.any = true
		return true
	case isAccountID(id):
		p.accounts = append(p.accounts, id)
		return true
	}
	parts, ok := splitARN(id)
	if !ok || parts[0] != "arn" || strings.ContainsAny(id, "*?") || !isAccountID(parts[4]) {
		return false
	}
	if parts[5] == "root" {
		p.accounts = append(p.accounts, parts[4])
		return true
	}
	p.arns = append(p.arns, id)
	if parts[2] == "iam" && strings.HasPrefix(parts[5], "role/") {
		name := parts[5][strings.LastIndexByte(parts[5], '/')+1:]
		p.sessions = append(p.sessions, "arn:"+parts[1]+":sts::"+parts[4]+":assumed-role/"+name+"/")
	}
	return true
}

func isAccountID(s string) bool {
	return len(s) == 12 && strings.Trim(s, "0123456789") == ""
}

// match reports whether the request's principal is one of these.
func (p *principals) match(r *Request) bool {
	if p.any {
		return true
	}
	acct := r.Account
	if parts, ok := splitARN(r.Principal); ok && acct == "" {
		acct = parts[4]
	}
	for _, a := range p.accounts {
		if a == acct {
			return true
		}
	}
	for _, a := range p.arns {
		if a == r.Principal {
			return true
		}
	}
	for _, s := range p.sessions {
		if strings.HasPrefix(r.Principal, s) {
			return true
		}
	}
	return false
}
