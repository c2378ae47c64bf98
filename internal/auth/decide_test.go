package auth

import (
	"strings"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey/internal/auth/access"
)

// fakeTables is a catalog of one table, T, with the resource policies a test
// attaches.
type fakeTables struct {
	policies map[string]string
	revision string
}

const tableT = "arn:aws:dynamodb:us-east-1:123456789012:table/T"

func (fakeTables) Schema(name string) (access.Schema, bool) {
	return access.Schema{Partition: []string{"pk"}}, name == "T"
}
func (fakeTables) TableArn(name string) string {
	return "arn:aws:dynamodb:us-east-1:123456789012:table/" + name
}
func (fakeTables) TableOfArn(arn string) (string, bool) {
	return strings.CutPrefix(arn, tableT[:len(tableT)-1])
}
func (fakeTables) StreamOfIterator(string) (string, bool) { return "", false }
func (t *fakeTables) ResourcePolicy(arn string) ([]byte, string, bool) {
	p, ok := t.policies[arn]
	return []byte(p), t.revision, ok
}

func newTestAuthorizer(t *testing.T, tb *fakeTables, principals ...string) *Authorizer {
	t.Helper()
	cfg, err := Parse([]byte(fileJSON(principals...)))
	if err != nil {
		t.Fatal(err)
	}
	return New(cfg, "us-east-1", tb, nil)
}

func policyJSON(effect, action, resource string) string {
	return `{"Version": "2012-10-17", "Statement": [{"Sid": "S", "Effect": "` + effect + `", "Action": "` + action + `", "Resource": "` + resource + `"}]}`
}

func resourcePolicyJSON(effect, principal, action string) string {
	return `{"Version": "2012-10-17", "Statement": [{"Effect": "` + effect + `", "Principal": {"AWS": "` + principal + `"}, "Action": "` + action + `", "Resource": ["` + tableT + `", "` + tableT + `/index/*"]}]}`
}

func decide(t *testing.T, a *Authorizer, arn string, ch access.Check) Decision {
	t.Helper()
	p, err := a.Config().Principal(arn)
	if err != nil {
		t.Fatal(err)
	}
	return a.Decide(a.caller(p, "127.0.0.1", false, time.Now()), ch)
}

const (
	userA = "arn:aws:iam::123456789012:user/a"
	userX = "arn:aws:iam::999999999999:user/x"
)

func TestDecideCombinesPolicies(t *testing.T) {
	get := access.Check{Action: "dynamodb:GetItem", Resource: tableT, Table: "T"}
	implicit := "User: " + userA + " is not authorized to perform: dynamodb:GetItem on resource: " + tableT + " because no identity-based policy allows the dynamodb:GetItem action"
	cases := []struct {
		name, identity, resource, who, message string
	}{
		{"identity allows", policyJSON("Allow", "dynamodb:Get*", "*"), "", userA, ""},
		{"nothing allows", "", "", userA, implicit},
		{"other action only", policyJSON("Allow", "dynamodb:PutItem", "*"), "", userA, implicit},
		{"identity denies", policyJSON("Deny", "dynamodb:*", "*") + "," + policyJSON("Allow", "dynamodb:*", "*"), "", userA,
			"User: " + userA + " is not authorized to perform: dynamodb:GetItem on resource: " + tableT + " with an explicit deny in an identity-based policy"},
		{"resource allows", "", resourcePolicyJSON("Allow", userA, "dynamodb:GetItem"), userA, ""},
		{"resource denies", policyJSON("Allow", "dynamodb:*", "*"), resourcePolicyJSON("Deny", "*", "dynamodb:GetItem"), userA,
			"User: " + userA + " is not authorized to perform: dynamodb:GetItem on resource: " + tableT + " with an explicit deny in a resource-based policy"},
		{"cross account, identity only", policyJSON("Allow", "dynamodb:*", "*"), "", userX,
			"User: " + userX + " is not authorized to perform: dynamodb:GetItem on resource: " + tableT + " because no resource-based policy allows the dynamodb:GetItem action"},
		{"cross account, resource only", "", resourcePolicyJSON("Allow", userX, "dynamodb:GetItem"), userX,
			"User: " + userX + " is not authorized to perform: dynamodb:GetItem on resource: " + tableT + " because no identity-based policy allows the dynamodb:GetItem action"},
		{"cross account, both", policyJSON("Allow", "dynamodb:*", "*"), resourcePolicyJSON("Allow", "999999999999", "dynamodb:GetItem"), userX, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			extra := ""
			if c.identity != "" {
				extra = `, "policies": [` + c.identity + `]`
			}
			tb := &fakeTables{policies: map[string]string{}, revision: "1"}
			if c.resource != "" {
				tb.policies[tableT] = c.resource
			}
			a := newTestAuthorizer(t, tb, principalJSON(c.who, "AKID", extra))
			d := decide(t, a, c.who, get)
			if d.Allowed != (c.message == "") || d.Message != c.message {
				t.Fatalf("allowed %v, message %q\nwant message %q", d.Allowed, d.Message, c.message)
			}
		})
	}
}

func TestDecideNamesTheStatement(t *testing.T) {
	a := newTestAuthorizer(t, &fakeTables{}, principalJSON(userA, "AKID", `, "policies": [`+policyJSON("Allow", "dynamodb:PutItem", "*")+","+policyJSON("Allow", "dynamodb:GetItem", tableT)+`]`))
	d := decide(t, a, userA, access.Check{Action: "dynamodb:GetItem", Resource: tableT, Table: "T"})
	if !d.Allowed || d.Policy != "principals[0].policies[1]" || d.Statement == nil || d.Statement.Sid != "S" {
		t.Fatalf("decided by %q %+v", d.Policy, d.Statement)
	}
}

func TestResourcePolicyFollowsRevisions(t *testing.T) {
	tb := &fakeTables{policies: map[string]string{tableT: resourcePolicyJSON("Allow", userA, "dynamodb:GetItem")}, revision: "1"}
	a := newTestAuthorizer(t, tb, principalJSON(userA, "AKID", ""))
	get := access.Check{Action: "dynamodb:GetItem", Resource: tableT + "/index/I", Table: "T"}
	if d := decide(t, a, userA, get); !d.Allowed {
		t.Fatalf("the table's policy did not govern its index: %s", d.Message)
	}
	tb.policies[tableT], tb.revision = resourcePolicyJSON("Allow", userA, "dynamodb:PutItem"), "2"
	if d := decide(t, a, userA, get); d.Allowed {
		t.Fatal("a replaced resource policy still granted")
	}
}

func TestConditionKeysReachPolicies(t *testing.T) {
	leading := `{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "dynamodb:GetItem", "Resource": "*",
	  "Condition": {"ForAllValues:StringEquals": {"dynamodb:LeadingKeys": ["${aws:PrincipalTag/tenant}"]}, "IpAddress": {"aws:SourceIp": "127.0.0.0/8"}}}]}`
	a := newTestAuthorizer(t, &fakeTables{}, principalJSON(userA, "AKID", `, "tags": {"tenant": "t1"}, "policies": [`+leading+`]`))
	check := func(pk string) access.Check {
		return access.Check{Action: "dynamodb:GetItem", Resource: tableT, Table: "T", Keys: map[string][]string{"dynamodb:leadingkeys": {pk}}}
	}
	if d := decide(t, a, userA, check("t1")); !d.Allowed {
		t.Fatalf("own partition: %s", d.Message)
	}
	if d := decide(t, a, userA, check("t2")); d.Allowed {
		t.Fatal("another tenant's partition was allowed")
	}
	p, _ := a.Config().Principal(userA)
	remote := a.caller(p, "203.0.113.9", false, time.Now())
	if d := a.Decide(remote, check("t1")); d.Allowed {
		t.Fatal("a request from outside the allowed network was allowed")
	}
}

func TestReloadKeepsTheAccount(t *testing.T) {
	a := newTestAuthorizer(t, &fakeTables{}, principalJSON(userA, "AKID", ""))
	other, err := Parse([]byte(strings.Replace(fileJSON(principalJSON(userA, "AKID", "")), "123456789012", "210987654321", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Reload(other); err != ErrAccountChanged {
		t.Fatalf("reload to another account: %v", err)
	}
}
