package iampolicy

import (
	"strings"
	"testing"
)

const (
	testAccount = "123456789012"
	testTable   = "arn:aws:dynamodb:us-east-1:123456789012:table/Orders"
	testUser    = "arn:aws:iam::123456789012:user/alice"
)

func mustParse(t testing.TB, doc string, kind Kind) *Policy {
	t.Helper()
	p, err := Parse([]byte(doc), kind)
	if err != nil {
		t.Fatalf("Parse(%s): %v", doc, err)
	}
	return p
}

// request builds a GetItem on the Orders table by alice; kv are context
// key/value pairs, a value with "|" standing for several values.
func request(kv ...string) *Request {
	r := &Request{Action: "dynamodb:GetItem", Resource: testTable, Principal: testUser, Account: testAccount, Context: Context{}}
	for i := 0; i+1 < len(kv); i += 2 {
		r.Context.Set(kv[i], splitValues(kv[i+1])...)
	}
	return r
}

func splitValues(v string) []string {
	if v == "" {
		return nil
	}
	return strings.Split(v, "|")
}

// conditionPolicy is one Allow statement on everything guarded by cond.
func conditionPolicy(version, cond string) string {
	v := ""
	if version != "" {
		v = `"Version":"` + version + `",`
	}
	return `{` + v + `"Statement":{"Effect":"Allow","Action":"dynamodb:*","Resource":"*","Condition":` + cond + `}}`
}

func decision(t testing.TB, p *Policy, r *Request) Decision {
	t.Helper()
	return p.Evaluate(r).Decision
}
