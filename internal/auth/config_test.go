package auth

import (
	"strings"
	"testing"
)

const allowAll = `{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "dynamodb:*", "Resource": "*"}]}`

func principalJSON(arn, key string, extra string) string {
	return `{"arn": "` + arn + `", "accessKeyId": "` + key + `", "secretAccessKey": "s"` + extra + `}`
}

func fileJSON(principals ...string) string {
	return `{"account": "123456789012", "principals": [` + strings.Join(principals, ",") + `]}`
}

func TestParseRefusesBrokenFiles(t *testing.T) {
	alice := principalJSON("arn:aws:iam::123456789012:user/alice", "AKIDALICE", "")
	cases := []struct{ name, doc, want string }{
		{"not JSON", `{"account": `, "auth file: "},
		{"unknown member", `{"account": "123456789012", "principal": []}`, `unknown field "principal"`},
		{"trailing data", fileJSON(alice) + ` {}`, "unexpected data after the JSON object"},
		{"bad account", `{"account": "1234", "principals": [` + alice + `]}`, `account must be 12 digits, not "1234"`},
		{"no principals", `{"account": "123456789012", "principals": []}`, "no principals"},
		{"bad arn", fileJSON(principalJSON("arn:aws:iam::123456789012:group/devs", "AKID", "")), "arn must be an IAM user or role ARN"},
		{"no secret", fileJSON(`{"arn": "arn:aws:iam::123456789012:user/x", "accessKeyId": "AKIDX"}`), "accessKeyId and secretAccessKey are required"},
		{"duplicate key", fileJSON(alice, principalJSON("arn:aws:iam::123456789012:user/bob", "AKIDALICE", "")), "principals[1] (arn:aws:iam::123456789012:user/bob): accessKeyId is also used by principals[0]"},
		{"duplicate arn", fileJSON(alice, principalJSON("arn:aws:iam::123456789012:user/alice", "AKIDB", "")), "arn is also used by principals[0]"},
		{"empty tag key", fileJSON(principalJSON("arn:aws:iam::123456789012:user/x", "AKIDX", `, "tags": {"": "v"}`)), "tags must not have an empty key"},
		{"bad policy", fileJSON(principalJSON("arn:aws:iam::123456789012:user/x", "AKIDX", `, "policies": [{"Statement": []}]`)), "principals[0] (arn:aws:iam::123456789012:user/x): policies[0]: Invalid policy document: "},
		{"resource policy shape", fileJSON(principalJSON("arn:aws:iam::123456789012:user/x", "AKIDX",
			`, "policies": [{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": "*", "Action": "dynamodb:*", "Resource": "*"}]}]`)), "policies[0]: Invalid policy document: "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.doc))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
		})
	}
}

func TestParsePrincipals(t *testing.T) {
	doc := fileJSON(
		principalJSON("arn:aws:iam::123456789012:user/team/alice", "AKIDALICE", `, "tags": {"tenant": "t1"}, "policies": [`+allowAll+`]`),
		principalJSON("arn:aws:sts::123456789012:assumed-role/Reader/session-1", "ASIAREADER", `, "sessionToken": "tok", "userId": "AROAEXAMPLE:session-1", "policies": ["`+strings.ReplaceAll(allowAll, `"`, `\"`)+`"]`),
	)
	cfg, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	alice, err := cfg.Principal("arn:aws:iam::123456789012:user/team/alice")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"aws:username": "alice", "aws:principaltag/tenant": "t1", "aws:principalarn": alice.Arn,
		"aws:principaltype": "User", "aws:principalaccount": "123456789012"}
	for k, v := range want {
		if got, _ := alice.base.Get(k); len(got) != 1 || got[0] != v {
			t.Errorf("alice's %s = %q, want %q", k, got, v)
		}
	}
	if !strings.HasPrefix(alice.UserID, "AIDA") || len(alice.UserID) != 21 {
		t.Errorf("alice's made-up unique ID %q is not IAM's shape", alice.UserID)
	}
	reader, err := cfg.Principal("arn:aws:sts::123456789012:assumed-role/Reader/session-1")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := reader.base.Get("aws:PrincipalArn"); got[0] != "arn:aws:iam::123456789012:role/Reader" {
		t.Errorf("a session's aws:PrincipalArn is %q, want its role's ARN", got)
	}
	if _, has := reader.base.Get("aws:username"); has {
		t.Error("a role session has aws:username")
	}
	if got, _ := reader.base.Get("aws:userid"); got[0] != "AROAEXAMPLE:session-1" {
		t.Errorf("the file's userId was not used: %q", got)
	}
	if _, token := reader.Secret(); token != "tok" || len(reader.Policies) != 1 {
		t.Errorf("session token %q, %d policies", token, len(reader.Policies))
	}
	if _, err := cfg.Principal("arn:aws:iam::123456789012:user/nobody"); err == nil {
		t.Error("an unknown principal was found")
	}
}
