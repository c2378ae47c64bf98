package iampolicy

import "testing"

func TestPolicyVariablesInConditions(t *testing.T) {
	cases := []struct {
		name    string
		version string
		cond    string
		ctx     []string
		want    bool
	}{
		{"aws:username", Version2012, `{"StringEquals":{"t:owner":"${aws:username}"}}`, []string{"aws:username", "alice", "t:owner", "alice"}, true},
		{"aws:username differs", Version2012, `{"StringEquals":{"t:owner":"${aws:username}"}}`, []string{"aws:username", "alice", "t:owner", "bob"}, false},
		{"aws:userid", Version2012, `{"StringLike":{"t:owner":"${aws:userid}:*"}}`, []string{"aws:userid", "AIDAEXAMPLE", "t:owner", "AIDAEXAMPLE:x"}, true},
		{"aws:PrincipalTag", Version2012, `{"ForAllValues:StringEquals":{"dynamodb:LeadingKeys":"${aws:PrincipalTag/tenant}"}}`, []string{"aws:PrincipalTag/tenant", "acme", "dynamodb:LeadingKeys", "acme"}, true},
		{"aws:PrincipalTag other tenant", Version2012, `{"ForAllValues:StringEquals":{"dynamodb:LeadingKeys":"${aws:PrincipalTag/tenant}"}}`, []string{"aws:PrincipalTag/tenant", "acme", "dynamodb:LeadingKeys", "evil"}, false},
		{"variable key case-insensitive", Version2012, `{"StringEquals":{"t:k":"${AWS:PRINCIPALTAG/Tenant}"}}`, []string{"aws:principaltag/tenant", "acme", "t:k", "acme"}, true},
		{"aws:SourceIp as value", Version2012, `{"StringEquals":{"t:ip":"${aws:SourceIp}"}}`, []string{"aws:SourceIp", "192.0.2.1", "t:ip", "192.0.2.1"}, true},
		{"aws:PrincipalArn from request", Version2012, `{"StringEquals":{"t:who":"${aws:PrincipalArn}"}}`, []string{"t:who", testUser}, true},
		{"aws:PrincipalAccount from request", Version2012, `{"StringLike":{"t:who":"${aws:PrincipalAccount}-*"}}`, []string{"t:who", testAccount + "-x"}, true},
		{"aws:CurrentTime", Version2012, `{"StringLike":{"t:day":"${aws:CurrentTime}"}}`, []string{"aws:CurrentTime", "2026-11-25T00:00:00Z", "t:day", "2026-11-25T00:00:00Z"}, true},
		{"aws:EpochTime", Version2012, `{"StringEquals":{"t:e":"${aws:EpochTime}"}}`, []string{"aws:EpochTime", "1764028800", "t:e", "1764028800"}, true},
		{"any other context key", Version2012, `{"StringEquals":{"t:k":"x-${cognito-identity.amazonaws.com:sub}"}}`, []string{"cognito-identity.amazonaws.com:sub", "us-east-1:abc", "t:k", "x-us-east-1:abc"}, true},
		{"variable with wildcard around", Version2012, `{"StringLike":{"t:k":"home/${aws:username}/*"}}`, []string{"aws:username", "alice", "t:k", "home/alice/docs"}, true},
		{"variable value stays literal", Version2012, `{"StringLike":{"t:k":"${aws:username}"}}`, []string{"aws:username", "a*", "t:k", "abc"}, false},
		{"${*} is a literal star", Version2012, `{"StringLike":{"t:k":"a${*}"}}`, []string{"t:k", "a*"}, true},
		{"${*} does not match others", Version2012, `{"StringLike":{"t:k":"a${*}"}}`, []string{"t:k", "abc"}, false},
		{"${?} is a literal question mark", Version2012, `{"StringLike":{"t:k":"what${?}"}}`, []string{"t:k", "what?"}, true},
		{"${?} does not match others", Version2012, `{"StringLike":{"t:k":"what${?}"}}`, []string{"t:k", "whatX"}, false},
		{"${$} is a literal dollar", Version2012, `{"StringEquals":{"t:k":"${$}{aws:username}"}}`, []string{"aws:username", "alice", "t:k", "${aws:username}"}, true},
		{"default used when missing", Version2012, `{"StringEquals":{"t:k":"${aws:username, 'guest'}"}}`, []string{"t:k", "guest"}, true},
		{"default not used when present", Version2012, `{"StringEquals":{"t:k":"${aws:username, 'guest'}"}}`, []string{"aws:username", "alice", "t:k", "guest"}, false},
		{"default with quote", Version2012, `{"StringEquals":{"t:k":"${aws:username,'it''s'}"}}`, []string{"t:k", "it's"}, true},
		{"missing variable: positive false", Version2012, `{"StringEquals":{"t:k":"${aws:username}"}}`, []string{"t:k", ""}, false},
		{"missing variable: negated also false", Version2012, `{"StringNotEquals":{"t:k":"${aws:username}"}}`, []string{"t:k", "bob"}, false},
		{"missing variable: ForAllValues false", Version2012, `{"ForAllValues:StringEquals":{"t:k":"${aws:username}"}}`, []string{"t:k", "bob"}, false},
		{"multivalued key is not a variable", Version2012, `{"StringEquals":{"t:k":"${t:many}"}}`, []string{"t:many", "a|b", "t:k", "a"}, false},
		{"Bool with variable", Version2012, `{"Bool":{"t:flag":"${t:want}"}}`, []string{"t:want", "true", "t:flag", "TRUE"}, true},
		{"ArnLike with variable", Version2012, `{"ArnLike":{"aws:SourceArn":"arn:aws:sns:*:${aws:PrincipalAccount}:*"}}`, []string{"aws:SourceArn", "arn:aws:sns:us-east-1:123456789012:t"}, true},
		{"2008-10-17 keeps ${} literal", Version2008, `{"StringEquals":{"t:k":"${aws:username}"}}`, []string{"aws:username", "alice", "t:k", "${aws:username}"}, true},
		{"2008-10-17 does not substitute", Version2008, `{"StringEquals":{"t:k":"${aws:username}"}}`, []string{"aws:username", "alice", "t:k", "alice"}, false},
		{"no Version behaves as 2008-10-17", "", `{"StringEquals":{"t:k":"${aws:username}"}}`, []string{"aws:username", "alice", "t:k", "alice"}, false},
		{"unterminated variable is literal", Version2012, `{"StringEquals":{"t:k":"${aws:username"}}`, []string{"aws:username", "alice", "t:k", "${aws:username"}, true},
		{"unquoted default is literal", Version2012, `{"StringEquals":{"t:k":"${aws:username, guest}"}}`, []string{"aws:username", "alice", "t:k", "${aws:username, guest}"}, true},
		{"stray quote in default is literal", Version2012, `{"StringEquals":{"t:k":"${a:b, 'x'y'}"}}`, []string{"t:k", "${a:b, 'x'y'}"}, true},
		{"empty default", Version2012, `{"StringEquals":{"t:k":"v${a:b, ''}"}}`, []string{"t:k", "v"}, true},
		{"empty variable is literal", Version2012, `{"StringEquals":{"t:k":"${}"}}`, []string{"t:k", "${}"}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := mustParse(t, conditionPolicy(c.version, c.cond), Identity)
			if got := decision(t, p, request(c.ctx...)) == Allow; got != c.want {
				t.Errorf("%s with %q: applies = %v, want %v", c.cond, c.ctx, got, c.want)
			}
		})
	}
}

func TestPolicyVariablesInResource(t *testing.T) {
	cases := []struct {
		name     string
		version  string
		elem     string
		ctx      []string
		resource string
		want     Decision
	}{
		{"own table", Version2012, `"Resource":"arn:aws:dynamodb:*:*:table/${aws:username}-*"`, []string{"aws:username", "alice"}, "arn:aws:dynamodb:us-east-1:1:table/alice-data", Allow},
		{"someone else's table", Version2012, `"Resource":"arn:aws:dynamodb:*:*:table/${aws:username}-*"`, []string{"aws:username", "alice"}, "arn:aws:dynamodb:us-east-1:1:table/bob-data", NotApplicable},
		{"variable in account component", Version2012, `"Resource":"arn:aws:dynamodb:*:${aws:PrincipalAccount}:table/*"`, nil, testTable, Allow},
		{"tag variable", Version2012, `"Resource":"arn:aws:dynamodb:*:*:table/${aws:PrincipalTag/team}"`, []string{"aws:PrincipalTag/team", "Orders"}, testTable, Allow},
		{"missing variable does not match", Version2012, `"Resource":"arn:aws:dynamodb:*:*:table/${aws:username}"`, nil, testTable, NotApplicable},
		{"missing variable, other entry matches", Version2012, `"Resource":["arn:aws:dynamodb:*:*:table/${aws:username}","*"]`, nil, testTable, Allow},
		{"default in resource", Version2012, `"Resource":"arn:aws:dynamodb:*:*:table/${aws:username, 'Orders'}"`, nil, testTable, Allow},
		{"missing variable in NotResource", Version2012, `"NotResource":"arn:aws:dynamodb:*:*:table/${aws:username}"`, nil, testTable, NotApplicable},
		{"NotResource with variable", Version2012, `"NotResource":"arn:aws:dynamodb:*:*:table/${aws:username}"`, []string{"aws:username", "alice"}, testTable, Allow},
		{"2008 literal resource", Version2008, `"Resource":"arn:aws:dynamodb:*:*:table/${aws:username}"`, []string{"aws:username", "Orders"}, testTable, NotApplicable},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := `{"Version":"` + c.version + `","Statement":{"Effect":"Allow","Action":"dynamodb:*",` + c.elem + `}}`
			p := mustParse(t, doc, Identity)
			r := request(c.ctx...)
			r.Resource = c.resource
			if got := decision(t, p, r); got != c.want {
				t.Errorf("%s vs %s: %v, want %v", c.elem, c.resource, got, c.want)
			}
		})
	}
}

func TestContextKeysAreCaseInsensitive(t *testing.T) {
	c := Context{}
	c.Set("AWS:UserName", "Alice")
	if v, ok := c.Get("aws:username"); !ok || len(v) != 1 || v[0] != "Alice" {
		t.Errorf("Get = %q, %v", v, ok)
	}
	if _, ok := c.Get("aws:userid"); ok {
		t.Error("Get found an unset key")
	}
}
