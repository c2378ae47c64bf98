package iampolicy

import "testing"

// opCase: the condition block, the request context (key/value pairs, "|"
// separating values), and whether the statement should apply.
type opCase struct {
	name string
	cond string
	ctx  []string
	want bool
}

func runOpCases(t *testing.T, cases []opCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := mustParse(t, conditionPolicy(Version2012, c.cond), Identity)
			got := decision(t, p, request(c.ctx...)) == Allow
			if got != c.want {
				t.Errorf("condition %s with context %q: applies = %v, want %v", c.cond, c.ctx, got, c.want)
			}
		})
	}
}

func TestStringOperators(t *testing.T) {
	runOpCases(t, []opCase{
		{"StringEquals match", `{"StringEquals":{"t:k":"abc"}}`, []string{"t:k", "abc"}, true},
		{"StringEquals case differs", `{"StringEquals":{"t:k":"abc"}}`, []string{"t:k", "ABC"}, false},
		{"StringEquals one of list", `{"StringEquals":{"t:k":["x","abc"]}}`, []string{"t:k", "abc"}, true},
		{"StringEquals star is literal", `{"StringEquals":{"t:k":"a*"}}`, []string{"t:k", "abc"}, false},
		{"StringEquals missing key", `{"StringEquals":{"t:k":"abc"}}`, nil, false},
		{"StringEquals key name case-insensitive", `{"StringEquals":{"T:K":"abc"}}`, []string{"t:k", "abc"}, true},
		{"StringNotEquals differs", `{"StringNotEquals":{"t:k":"abc"}}`, []string{"t:k", "xyz"}, true},
		{"StringNotEquals equal", `{"StringNotEquals":{"t:k":"abc"}}`, []string{"t:k", "abc"}, false},
		{"StringNotEquals list is NOR", `{"StringNotEquals":{"t:k":["a","b"]}}`, []string{"t:k", "b"}, false},
		{"StringNotEquals list none", `{"StringNotEquals":{"t:k":["a","b"]}}`, []string{"t:k", "c"}, true},
		{"StringNotEquals missing key", `{"StringNotEquals":{"t:k":"abc"}}`, nil, true},
		{"StringEqualsIgnoreCase", `{"StringEqualsIgnoreCase":{"t:k":"AbC"}}`, []string{"t:k", "aBc"}, true},
		{"StringEqualsIgnoreCase differs", `{"StringEqualsIgnoreCase":{"t:k":"abc"}}`, []string{"t:k", "abd"}, false},
		{"StringEqualsIgnoreCase non-ASCII", `{"StringEqualsIgnoreCase":{"t:k":"ÀÉ"}}`, []string{"t:k", "àé"}, true},
		{"StringNotEqualsIgnoreCase same", `{"StringNotEqualsIgnoreCase":{"t:k":"ABC"}}`, []string{"t:k", "abc"}, false},
		{"StringNotEqualsIgnoreCase differs", `{"StringNotEqualsIgnoreCase":{"t:k":"ABC"}}`, []string{"t:k", "abd"}, true},
		{"StringNotEqualsIgnoreCase missing", `{"StringNotEqualsIgnoreCase":{"t:k":"ABC"}}`, nil, true},
		{"StringLike star", `{"StringLike":{"t:k":"home/*"}}`, []string{"t:k", "home/a/b"}, true},
		{"StringLike question", `{"StringLike":{"t:k":"a?c"}}`, []string{"t:k", "abc"}, true},
		{"StringLike question needs one", `{"StringLike":{"t:k":"a?c"}}`, []string{"t:k", "ac"}, false},
		{"StringLike case-sensitive", `{"StringLike":{"t:k":"A*"}}`, []string{"t:k", "abc"}, false},
		{"StringLike no match", `{"StringLike":{"t:k":"x*"}}`, []string{"t:k", "abc"}, false},
		{"StringLike missing", `{"StringLike":{"t:k":"*"}}`, nil, false},
		{"StringNotLike no match", `{"StringNotLike":{"t:k":"x*"}}`, []string{"t:k", "abc"}, true},
		{"StringNotLike match", `{"StringNotLike":{"t:k":"a*"}}`, []string{"t:k", "abc"}, false},
		{"StringNotLike missing", `{"StringNotLike":{"t:k":"a*"}}`, nil, true},
		{"IfExists missing", `{"StringEqualsIfExists":{"t:k":"abc"}}`, nil, true},
		{"IfExists present mismatch", `{"StringEqualsIfExists":{"t:k":"abc"}}`, []string{"t:k", "x"}, false},
		{"IfExists present match", `{"StringLikeIfExists":{"t:k":"a*"}}`, []string{"t:k", "abc"}, true},
		{"NotEqualsIfExists present equal", `{"StringNotEqualsIfExists":{"t:k":"a"}}`, []string{"t:k", "a"}, false},
		{"operator name case-insensitive", `{"stringequals":{"t:k":"abc"}}`, []string{"t:k", "abc"}, true},
		{"two keys are AND", `{"StringEquals":{"t:a":"1","t:b":"2"}}`, []string{"t:a", "1", "t:b", "3"}, false},
		{"two keys both hold", `{"StringEquals":{"t:a":"1","t:b":"2"}}`, []string{"t:a", "1", "t:b", "2"}, true},
		{"two operators are AND", `{"StringEquals":{"t:a":"1"},"StringLike":{"t:b":"x*"}}`, []string{"t:a", "1", "t:b", "y"}, false},
		{"single operator multivalued key any", `{"StringEquals":{"t:k":"b"}}`, []string{"t:k", "a|b"}, true},
		{"negated single operator multivalued key", `{"StringNotEquals":{"t:k":"b"}}`, []string{"t:k", "a|b"}, false},
		{"present but empty key", `{"StringEquals":{"t:k":"a"}}`, []string{"t:k", ""}, false},
	})
}

func TestSetOperators(t *testing.T) {
	runOpCases(t, []opCase{
		{"ForAllValues all in list", `{"ForAllValues:StringEquals":{"t:k":["a","b","c"]}}`, []string{"t:k", "a|b"}, true},
		{"ForAllValues one outside", `{"ForAllValues:StringEquals":{"t:k":["a","b"]}}`, []string{"t:k", "a|z"}, false},
		{"ForAllValues missing key", `{"ForAllValues:StringEquals":{"t:k":"a"}}`, nil, true},
		{"ForAllValues empty key", `{"ForAllValues:StringEquals":{"t:k":"a"}}`, []string{"t:k", ""}, true},
		{"ForAllValues StringLike", `{"ForAllValues:StringLike":{"t:k":["pre*"]}}`, []string{"t:k", "pre1|pre2"}, true},
		{"ForAllValues StringNotEquals none listed", `{"ForAllValues:StringNotEquals":{"t:k":["a","b"]}}`, []string{"t:k", "x|y"}, true},
		{"ForAllValues StringNotEquals one listed", `{"ForAllValues:StringNotEquals":{"t:k":["a","b"]}}`, []string{"t:k", "x|a"}, false},
		{"ForAllValues StringNotLike missing", `{"ForAllValues:StringNotLike":{"t:k":"a*"}}`, nil, true},
		{"ForAnyValue one in list", `{"ForAnyValue:StringEquals":{"t:k":["a"]}}`, []string{"t:k", "z|a"}, true},
		{"ForAnyValue none in list", `{"ForAnyValue:StringEquals":{"t:k":["a"]}}`, []string{"t:k", "y|z"}, false},
		{"ForAnyValue missing key", `{"ForAnyValue:StringEquals":{"t:k":"a"}}`, nil, false},
		{"ForAnyValue negated missing key", `{"ForAnyValue:StringNotEquals":{"t:k":"a"}}`, nil, false},
		{"ForAnyValue StringNotEquals some other", `{"ForAnyValue:StringNotEquals":{"t:k":"a"}}`, []string{"t:k", "a|b"}, true},
		{"ForAnyValue StringNotEquals all listed", `{"ForAnyValue:StringNotEquals":{"t:k":"a"}}`, []string{"t:k", "a|a"}, false},
		{"ForAnyValue IfExists missing", `{"ForAnyValue:StringEqualsIfExists":{"t:k":"a"}}`, nil, true},
		{"ForAllValues IfExists present", `{"ForAllValues:StringEqualsIfExists":{"t:k":"a"}}`, []string{"t:k", "a|b"}, false},
		{"prefix case-insensitive", `{"forallvalues:stringequals":{"t:k":"a"}}`, []string{"t:k", "a"}, true},
	})
}

func TestNumericOperators(t *testing.T) {
	runOpCases(t, []opCase{
		{"NumericEquals", `{"NumericEquals":{"t:n":"10"}}`, []string{"t:n", "10.0"}, true},
		{"NumericEquals differs", `{"NumericEquals":{"t:n":"10"}}`, []string{"t:n", "11"}, false},
		{"NumericEquals JSON number", `{"NumericEquals":{"t:n":10}}`, []string{"t:n", "10"}, true},
		{"NumericEquals not a number", `{"NumericEquals":{"t:n":"10"}}`, []string{"t:n", "ten"}, false},
		{"NumericEquals missing", `{"NumericEquals":{"t:n":"10"}}`, nil, false},
		{"NumericNotEquals", `{"NumericNotEquals":{"t:n":"10"}}`, []string{"t:n", "9"}, true},
		{"NumericNotEquals equal", `{"NumericNotEquals":{"t:n":["9","10"]}}`, []string{"t:n", "10"}, false},
		{"NumericNotEquals missing", `{"NumericNotEquals":{"t:n":"10"}}`, nil, true},
		{"NumericLessThan", `{"NumericLessThan":{"t:n":"10"}}`, []string{"t:n", "9.5"}, true},
		{"NumericLessThan equal", `{"NumericLessThan":{"t:n":"10"}}`, []string{"t:n", "10"}, false},
		{"NumericLessThanEquals", `{"NumericLessThanEquals":{"t:n":"10"}}`, []string{"t:n", "10"}, true},
		{"NumericLessThanEquals above", `{"NumericLessThanEquals":{"t:n":"10"}}`, []string{"t:n", "11"}, false},
		{"NumericGreaterThan", `{"NumericGreaterThan":{"t:n":"-1"}}`, []string{"t:n", "0"}, true},
		{"NumericGreaterThan equal", `{"NumericGreaterThan":{"t:n":"0"}}`, []string{"t:n", "0"}, false},
		{"NumericGreaterThanEquals", `{"NumericGreaterThanEquals":{"t:n":"5"}}`, []string{"t:n", "5"}, true},
		{"NumericGreaterThanEquals below", `{"NumericGreaterThanEquals":{"t:n":"5"}}`, []string{"t:n", "4"}, false},
		{"NumericLessThanIfExists missing", `{"NumericLessThanIfExists":{"t:n":"5"}}`, nil, true},
		{"ForAnyValue NumericGreaterThan", `{"ForAnyValue:NumericGreaterThan":{"t:n":"5"}}`, []string{"t:n", "1|9"}, true},
		{"ForAllValues NumericGreaterThan", `{"ForAllValues:NumericGreaterThan":{"t:n":"5"}}`, []string{"t:n", "1|9"}, false},
	})
}

func TestDateOperators(t *testing.T) {
	runOpCases(t, []opCase{
		{"DateEquals ISO", `{"DateEquals":{"aws:CurrentTime":"2024-01-02T03:04:05Z"}}`, []string{"aws:CurrentTime", "2024-01-02T03:04:05Z"}, true},
		{"DateEquals ISO vs epoch", `{"DateEquals":{"aws:EpochTime":"2024-01-02T03:04:05Z"}}`, []string{"aws:EpochTime", "1704164645"}, true},
		{"DateEquals offset", `{"DateEquals":{"aws:CurrentTime":"2024-01-02T05:04:05+02:00"}}`, []string{"aws:CurrentTime", "2024-01-02T03:04:05Z"}, true},
		{"DateEquals differs", `{"DateEquals":{"aws:CurrentTime":"2024-01-02"}}`, []string{"aws:CurrentTime", "2024-01-03T00:00:00Z"}, false},
		{"DateNotEquals", `{"DateNotEquals":{"aws:CurrentTime":"2024-01-02"}}`, []string{"aws:CurrentTime", "2024-01-03T00:00:00Z"}, true},
		{"DateNotEquals equal", `{"DateNotEquals":{"aws:CurrentTime":"2024-01-02"}}`, []string{"aws:CurrentTime", "2024-01-02T00:00:00Z"}, false},
		{"DateNotEquals missing", `{"DateNotEquals":{"aws:CurrentTime":"2024-01-02"}}`, nil, true},
		{"DateLessThan", `{"DateLessThan":{"aws:CurrentTime":"2030-01-01T00:00:00Z"}}`, []string{"aws:CurrentTime", "2026-11-25T12:00:00Z"}, true},
		{"DateLessThan after", `{"DateLessThan":{"aws:CurrentTime":"2020-01-01T00:00:00Z"}}`, []string{"aws:CurrentTime", "2026-11-25T12:00:00Z"}, false},
		{"DateLessThanEquals equal", `{"DateLessThanEquals":{"aws:EpochTime":"100"}}`, []string{"aws:EpochTime", "100"}, true},
		{"DateGreaterThan", `{"DateGreaterThan":{"aws:EpochTime":1000}}`, []string{"aws:EpochTime", "1001"}, true},
		{"DateGreaterThan before", `{"DateGreaterThan":{"aws:EpochTime":1000}}`, []string{"aws:EpochTime", "999"}, false},
		{"DateGreaterThanEquals", `{"DateGreaterThanEquals":{"aws:CurrentTime":"2024-01-02T03:04:05.5Z"}}`, []string{"aws:CurrentTime", "2024-01-02T03:04:05.500Z"}, true},
		{"DateGreaterThan not a date", `{"DateGreaterThan":{"aws:CurrentTime":"2024-01-02"}}`, []string{"aws:CurrentTime", "soon"}, false},
		{"DateLessThan missing", `{"DateLessThan":{"aws:CurrentTime":"2030-01-01"}}`, nil, false},
		{"DateLessThanIfExists missing", `{"DateLessThanIfExists":{"aws:CurrentTime":"2030-01-01"}}`, nil, true},
	})
}

func TestOtherOperators(t *testing.T) {
	runOpCases(t, []opCase{
		{"Bool true", `{"Bool":{"aws:SecureTransport":"true"}}`, []string{"aws:SecureTransport", "true"}, true},
		{"Bool JSON boolean", `{"Bool":{"aws:SecureTransport":false}}`, []string{"aws:SecureTransport", "false"}, true},
		{"Bool differs", `{"Bool":{"aws:SecureTransport":"true"}}`, []string{"aws:SecureTransport", "false"}, false},
		{"Bool case-insensitive", `{"Bool":{"aws:SecureTransport":"TRUE"}}`, []string{"aws:SecureTransport", "true"}, true},
		{"Bool missing", `{"Bool":{"aws:SecureTransport":"false"}}`, nil, false},
		{"BoolIfExists missing", `{"BoolIfExists":{"aws:MultiFactorAuthPresent":"false"}}`, nil, true},
		{"BinaryEquals", `{"BinaryEquals":{"t:b":"QmluYXJ5VmFsdWU="}}`, []string{"t:b", "QmluYXJ5VmFsdWU="}, true},
		{"BinaryEquals differs", `{"BinaryEquals":{"t:b":"QmluYXJ5VmFsdWU="}}`, []string{"t:b", "QmluYXJ5"}, false},
		{"BinaryEquals missing", `{"BinaryEquals":{"t:b":"QQ=="}}`, nil, false},
		{"BinaryEqualsIfExists missing", `{"BinaryEqualsIfExists":{"t:b":"QQ=="}}`, nil, true},
		{"IpAddress v4 in CIDR", `{"IpAddress":{"aws:SourceIp":"203.0.113.0/24"}}`, []string{"aws:SourceIp", "203.0.113.77"}, true},
		{"IpAddress v4 outside", `{"IpAddress":{"aws:SourceIp":"203.0.113.0/24"}}`, []string{"aws:SourceIp", "203.0.114.1"}, false},
		{"IpAddress bare address", `{"IpAddress":{"aws:SourceIp":"127.0.0.1"}}`, []string{"aws:SourceIp", "127.0.0.1"}, true},
		{"IpAddress unmasked CIDR", `{"IpAddress":{"aws:SourceIp":"10.1.2.3/8"}}`, []string{"aws:SourceIp", "10.200.0.1"}, true},
		{"IpAddress v6", `{"IpAddress":{"aws:SourceIp":"2001:db8::/32"}}`, []string{"aws:SourceIp", "2001:db8:1::5"}, true},
		{"IpAddress v6 outside", `{"IpAddress":{"aws:SourceIp":"2001:db8::/32"}}`, []string{"aws:SourceIp", "2001:db9::1"}, false},
		{"IpAddress v4 not in v6", `{"IpAddress":{"aws:SourceIp":"2001:db8::/32"}}`, []string{"aws:SourceIp", "10.0.0.1"}, false},
		{"IpAddress list", `{"IpAddress":{"aws:SourceIp":["192.0.2.0/24","203.0.113.0/24"]}}`, []string{"aws:SourceIp", "203.0.113.9"}, true},
		{"IpAddress missing", `{"IpAddress":{"aws:SourceIp":"0.0.0.0/0"}}`, nil, false},
		{"NotIpAddress outside", `{"NotIpAddress":{"aws:SourceIp":"192.0.2.0/24"}}`, []string{"aws:SourceIp", "203.0.113.9"}, true},
		{"NotIpAddress inside", `{"NotIpAddress":{"aws:SourceIp":["192.0.2.0/24","203.0.113.0/24"]}}`, []string{"aws:SourceIp", "203.0.113.9"}, false},
		{"NotIpAddress missing", `{"NotIpAddress":{"aws:SourceIp":"192.0.2.0/24"}}`, nil, true},
		{"ArnEquals", `{"ArnEquals":{"aws:SourceArn":"arn:aws:sns:us-east-1:123456789012:topic"}}`, []string{"aws:SourceArn", "arn:aws:sns:us-east-1:123456789012:topic"}, true},
		{"ArnEquals wildcard", `{"ArnEquals":{"aws:SourceArn":"arn:aws:sns:*:123456789012:*"}}`, []string{"aws:SourceArn", "arn:aws:sns:eu-west-1:123456789012:topic"}, true},
		{"ArnLike wildcard per component", `{"ArnLike":{"aws:PrincipalArn":"arn:aws:iam::*:role/admin-*"}}`, []string{"aws:PrincipalArn", "arn:aws:iam::123456789012:role/admin-ops"}, true},
		{"ArnLike star stays in its component", `{"ArnLike":{"aws:SourceArn":"arn:aws:sns:us-*:123456789012:x"}}`, []string{"aws:SourceArn", "arn:aws:sns:us-east-1:999:123456789012:x"}, false},
		{"ArnLike short pattern matched whole", `{"ArnLike":{"aws:SourceArn":"arn:aws:sns:*"}}`, []string{"aws:SourceArn", "arn:aws:sns:us-east-1:123456789012:x"}, true},
		{"ArnLike not an ARN", `{"ArnLike":{"aws:SourceArn":"arn:aws:sns:*:*:*"}}`, []string{"aws:SourceArn", "topic"}, false},
		{"ArnLike missing", `{"ArnLike":{"aws:SourceArn":"arn:*:*:*:*:*"}}`, nil, false},
		{"ArnNotEquals differs", `{"ArnNotEquals":{"aws:SourceArn":"arn:aws:sns:us-east-1:123456789012:a"}}`, []string{"aws:SourceArn", "arn:aws:sns:us-east-1:123456789012:b"}, true},
		{"ArnNotLike matches", `{"ArnNotLike":{"aws:SourceArn":"arn:aws:sns:*:*:*"}}`, []string{"aws:SourceArn", "arn:aws:sns:us-east-1:123456789012:b"}, false},
		{"ArnNotLike missing", `{"ArnNotLike":{"aws:SourceArn":"arn:aws:sns:*:*:*"}}`, nil, true},
		{"ArnLikeIfExists missing", `{"ArnLikeIfExists":{"aws:SourceArn":"arn:aws:sns:*:*:*"}}`, nil, true},
		{"Null true key absent", `{"Null":{"aws:TokenIssueTime":"true"}}`, nil, true},
		{"Null true key present", `{"Null":{"aws:TokenIssueTime":"true"}}`, []string{"aws:TokenIssueTime", "x"}, false},
		{"Null false key present", `{"Null":{"aws:TokenIssueTime":"false"}}`, []string{"aws:TokenIssueTime", "x"}, true},
		{"Null false key absent", `{"Null":{"aws:TokenIssueTime":false}}`, nil, false},
	})
}
