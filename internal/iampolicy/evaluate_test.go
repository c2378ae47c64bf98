package iampolicy

import "testing"

func identity(t *testing.T, stmts string) *Policy {
	t.Helper()
	return mustParse(t, `{"Version":"2012-10-17","Statement":[`+stmts+`]}`, Identity)
}

func TestActionMatching(t *testing.T) {
	cases := []struct {
		elem   string // Action or NotAction element
		action string
		want   Decision
	}{
		{`"Action":"dynamodb:GetItem"`, "dynamodb:GetItem", Allow},
		{`"Action":"dynamodb:GetItem"`, "DynamoDB:getitem", Allow},
		{`"Action":"DYNAMODB:GETITEM"`, "dynamodb:GetItem", Allow},
		{`"Action":"dynamodb:GetItem"`, "dynamodb:GetItems", NotApplicable},
		{`"Action":"dynamodb:Get*"`, "dynamodb:GetRecords", Allow},
		{`"Action":"dynamodb:Get*"`, "dynamodb:BatchGetItem", NotApplicable},
		{`"Action":"dynamodb:*Item"`, "dynamodb:ConditionCheckItem", Allow},
		{`"Action":"dynamodb:?etItem"`, "dynamodb:GetItem", Allow},
		{`"Action":"dynamodb:?etItem"`, "dynamodb:PutItems", NotApplicable},
		{`"Action":"dynamodb:*"`, "dynamodb:PartiQLSelect", Allow},
		{`"Action":"dynamodb:*"`, "s3:GetObject", NotApplicable},
		{`"Action":"*"`, "s3:GetObject", Allow},
		{`"Action":["s3:*","dynamodb:Query"]`, "dynamodb:Query", Allow},
		{`"NotAction":"dynamodb:DeleteTable"`, "dynamodb:GetItem", Allow},
		{`"NotAction":"dynamodb:DeleteTable"`, "dynamodb:deletetable", NotApplicable},
		{`"NotAction":["dynamodb:Delete*","dynamodb:Update*"]`, "dynamodb:UpdateItem", NotApplicable},
		{`"NotAction":"dynamodb:Delete*"`, "dynamodb:PutItem", Allow},
	}
	for _, c := range cases {
		p := identity(t, `{"Effect":"Allow",`+c.elem+`,"Resource":"*"}`)
		r := request()
		r.Action = c.action
		if got := decision(t, p, r); got != c.want {
			t.Errorf("%s vs %s = %v, want %v", c.elem, c.action, got, c.want)
		}
	}
}

func TestResourceMatching(t *testing.T) {
	const idx = "arn:aws:dynamodb:us-east-1:123456789012:table/Orders/index/GSI1"
	cases := []struct {
		elem     string
		resource string
		want     Decision
	}{
		{`"Resource":"*"`, idx, Allow},
		{`"Resource":"arn:aws:dynamodb:us-east-1:123456789012:table/Orders"`, testTable, Allow},
		{`"Resource":"arn:aws:dynamodb:us-east-1:123456789012:table/Orders"`, idx, NotApplicable},
		{`"Resource":"arn:aws:dynamodb:us-east-1:123456789012:table/orders"`, testTable, NotApplicable},
		{`"Resource":"arn:aws:dynamodb:us-east-1:123456789012:table/Orders/index/*"`, idx, Allow},
		{`"Resource":"arn:aws:dynamodb:us-east-1:123456789012:table/Orders*"`, idx, Allow},
		{`"Resource":"arn:aws:dynamodb:us-east-1:123456789012:table/*"`, idx, Allow},
		{`"Resource":"arn:aws:dynamodb:*:*:table/Orders"`, "arn:aws:dynamodb:eu-west-1:999999999999:table/Orders", Allow},
		{`"Resource":"arn:aws:dynamodb:us-east-?:123456789012:table/Orders"`, testTable, Allow},
		{`"Resource":"arn:aws:dynamodb:us-*:123456789012:table/Orders"`, "arn:aws:dynamodb:us-east-1:555:123456789012:table/Orders", NotApplicable},
		{`"Resource":"arn:aws:dynamodb:us-east-1:123456789012:table/Ord?rs"`, testTable, Allow},
		{`"Resource":"arn:aws:dynamodb:us-east-1:123456789012:table/Orders/stream/*"`, testTable + "/stream/2024-01-01T00:00:00.000", Allow},
		{`"Resource":"arn:aws:dynamodb:*"`, testTable, Allow},
		{`"Resource":["arn:aws:s3:::b","arn:aws:dynamodb:us-east-1:123456789012:table/Orders"]`, testTable, Allow},
		{`"Resource":"arn:aws:dynamodb:us-east-1:123456789012:table/Orders"`, "not-an-arn", NotApplicable},
		{`"NotResource":"arn:aws:dynamodb:us-east-1:123456789012:table/Secrets"`, testTable, Allow},
		{`"NotResource":"arn:aws:dynamodb:us-east-1:123456789012:table/Orders*"`, idx, NotApplicable},
		{`"NotResource":["arn:aws:s3:::*","arn:aws:dynamodb:*:*:table/Orders"]`, testTable, NotApplicable},
	}
	for _, c := range cases {
		p := identity(t, `{"Effect":"Allow","Action":"dynamodb:*",`+c.elem+`}`)
		r := request()
		r.Resource = c.resource
		if got := decision(t, p, r); got != c.want {
			t.Errorf("%s vs %s = %v, want %v", c.elem, c.resource, got, c.want)
		}
	}
}

func TestDenyOverridesAllow(t *testing.T) {
	p := identity(t, `{"Sid":"All","Effect":"Allow","Action":"dynamodb:*","Resource":"*"},
		{"Sid":"NoDelete","Effect":"Deny","Action":"dynamodb:Delete*","Resource":"*"},
		{"Sid":"Again","Effect":"Allow","Action":"dynamodb:DeleteItem","Resource":"*"}`)
	r := request()
	r.Action = "dynamodb:DeleteItem"
	res := p.Evaluate(r)
	if res.Decision != Deny || res.Statement.Sid != "NoDelete" {
		t.Errorf("DeleteItem = %v by %+v, want Deny by NoDelete", res.Decision, res.Statement)
	}
	r.Action = "dynamodb:GetItem"
	res = p.Evaluate(r)
	if res.Decision != Allow || res.Statement.Sid != "All" {
		t.Errorf("GetItem = %v by %+v, want Allow by All", res.Decision, res.Statement)
	}
	r.Action = "s3:GetObject"
	if res = p.Evaluate(r); res.Decision != NotApplicable || res.Statement != nil {
		t.Errorf("s3:GetObject = %+v, want NotApplicable with no statement", res)
	}
	if res := (*Policy)(nil).Evaluate(r); res.Decision != NotApplicable {
		t.Errorf("nil policy = %v", res.Decision)
	}
	if Deny.String() != "Deny" || Allow.String() != "Allow" || NotApplicable.String() != "NotApplicable" {
		t.Error("Decision.String names")
	}
}

func TestPrincipals(t *testing.T) {
	const (
		bob     = "arn:aws:iam::123456789012:user/bob"
		role    = "arn:aws:iam::123456789012:role/path/Reader"
		session = "arn:aws:sts::123456789012:assumed-role/Reader/s1"
		other   = "arn:aws:iam::210987654321:user/eve"
	)
	cases := []struct {
		elem      string
		principal string
		account   string
		want      Decision
	}{
		{`"Principal":"*"`, other, "210987654321", Allow},
		{`"Principal":{"AWS":"*"}`, other, "210987654321", Allow},
		{`"Principal":{"AWS":"123456789012"}`, bob, testAccount, Allow},
		{`"Principal":{"AWS":"123456789012"}`, other, "210987654321", NotApplicable},
		{`"Principal":{"AWS":"arn:aws:iam::123456789012:root"}`, session, testAccount, Allow},
		{`"Principal":{"AWS":"arn:aws:iam::123456789012:root"}`, bob, "", Allow},
		{`"Principal":{"AWS":"arn:aws:iam::123456789012:user/bob"}`, bob, testAccount, Allow},
		{`"Principal":{"AWS":"arn:aws:iam::123456789012:user/bob"}`, testUser, testAccount, NotApplicable},
		{`"Principal":{"AWS":["arn:aws:iam::123456789012:user/carol","arn:aws:iam::123456789012:user/bob"]}`, bob, testAccount, Allow},
		{`"Principal":{"AWS":"` + role + `"}`, role, testAccount, Allow},
		{`"Principal":{"AWS":"` + role + `"}`, session, testAccount, Allow},
		{`"Principal":{"AWS":"` + role + `"}`, "arn:aws:sts::123456789012:assumed-role/Writer/s1", testAccount, NotApplicable},
		{`"Principal":{"Service":"lambda.amazonaws.com"}`, bob, testAccount, NotApplicable},
		{`"Principal":{"Federated":"cognito-identity.amazonaws.com","CanonicalUser":"abc"}`, bob, testAccount, NotApplicable},
		{`"NotPrincipal":{"AWS":"arn:aws:iam::123456789012:user/bob"}`, bob, testAccount, NotApplicable},
		{`"NotPrincipal":{"AWS":"arn:aws:iam::123456789012:user/bob"}`, testUser, testAccount, Allow},
		{`"NotPrincipal":{"AWS":"123456789012"}`, other, "210987654321", Allow},
	}
	for _, c := range cases {
		doc := `{"Version":"2012-10-17","Statement":{` + c.elem + `,"Effect":"Allow","Action":"dynamodb:*","Resource":"*"}}`
		p := mustParse(t, doc, Resource)
		r := request()
		r.Principal, r.Account = c.principal, c.account
		if got := decision(t, p, r); got != c.want {
			t.Errorf("%s vs %s (%s) = %v, want %v", c.elem, c.principal, c.account, got, c.want)
		}
	}
}

// The DynamoDB Developer Guide's fine-grained access examples.
func TestDynamoDBDocExamples(t *testing.T) {
	t.Run("LeadingKeys with web identity user id", func(t *testing.T) {
		p := identity(t, `{"Sid":"AllowAccessToOnlyItemsMatchingUserID","Effect":"Allow",
			"Action":["dynamodb:GetItem","dynamodb:BatchGetItem","dynamodb:Query","dynamodb:PutItem","dynamodb:UpdateItem","dynamodb:DeleteItem","dynamodb:BatchWriteItem"],
			"Resource":["arn:aws:dynamodb:us-west-2:123456789012:table/GameScores"],
			"Condition":{"ForAllValues:StringEquals":{"dynamodb:LeadingKeys":["${www.amazon.com:user_id}"]}}}`)
		r := request("www.amazon.com:user_id", "amzn1.account.X", "dynamodb:LeadingKeys", "amzn1.account.X")
		r.Resource, r.Action = "arn:aws:dynamodb:us-west-2:123456789012:table/GameScores", "dynamodb:Query"
		if got := decision(t, p, r); got != Allow {
			t.Errorf("own partition = %v", got)
		}
		r.Context.Set("dynamodb:LeadingKeys", "amzn1.account.X", "amzn1.account.Y")
		if got := decision(t, p, r); got != NotApplicable {
			t.Errorf("another user's partition in the batch = %v", got)
		}
		r.Context.Set("dynamodb:LeadingKeys", "amzn1.account.X")
		delete(r.Context, "www.amazon.com:user_id")
		if got := decision(t, p, r); got != NotApplicable {
			t.Errorf("no web identity = %v", got)
		}
		r.Action = "dynamodb:Scan"
		r.Context.Set("www.amazon.com:user_id", "amzn1.account.X")
		if got := decision(t, p, r); got != NotApplicable {
			t.Errorf("Scan = %v, want not granted", got)
		}
	})
	t.Run("Attributes with Select", func(t *testing.T) {
		p := identity(t, `{"Sid":"LimitAccessToSpecificAttributes","Effect":"Allow",
			"Action":["dynamodb:GetItem","dynamodb:Query","dynamodb:BatchGetItem","dynamodb:Scan"],
			"Resource":["arn:aws:dynamodb:us-west-2:123456789012:table/GameScores"],
			"Condition":{"ForAllValues:StringEquals":{"dynamodb:Attributes":["UserId","TopScore"]},
			             "StringEqualsIfExists":{"dynamodb:Select":"SPECIFIC_ATTRIBUTES"}}}`)
		r := request("dynamodb:Attributes", "UserId|TopScore", "dynamodb:Select", "SPECIFIC_ATTRIBUTES")
		r.Resource, r.Action = "arn:aws:dynamodb:us-west-2:123456789012:table/GameScores", "dynamodb:Query"
		if got := decision(t, p, r); got != Allow {
			t.Errorf("listed attributes = %v", got)
		}
		r.Context.Set("dynamodb:Select", "ALL_ATTRIBUTES")
		if got := decision(t, p, r); got != NotApplicable {
			t.Errorf("Select ALL_ATTRIBUTES = %v", got)
		}
		delete(r.Context, "dynamodb:select")
		if got := decision(t, p, r); got != Allow {
			t.Errorf("GetItem without Select = %v", got)
		}
		r.Context.Set("dynamodb:Attributes", "UserId", "Password")
		if got := decision(t, p, r); got != NotApplicable {
			t.Errorf("unlisted attribute = %v", got)
		}
	})
	t.Run("resource policy granting a role", func(t *testing.T) {
		doc := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow",
			"Principal":{"AWS":"arn:aws:iam::123456789012:role/DynamoDBReader"},
			"Action":["dynamodb:GetItem","dynamodb:Query"],
			"Resource":["arn:aws:dynamodb:us-east-1:123456789012:table/Orders","arn:aws:dynamodb:us-east-1:123456789012:table/Orders/index/*"]}]}`
		p := mustParse(t, doc, Resource)
		r := request()
		r.Principal = "arn:aws:sts::123456789012:assumed-role/DynamoDBReader/app"
		r.Resource = testTable + "/index/ByDate"
		if got := decision(t, p, r); got != Allow {
			t.Errorf("role session querying index = %v", got)
		}
		r.Action = "dynamodb:PutItem"
		if got := decision(t, p, r); got != NotApplicable {
			t.Errorf("role PutItem = %v", got)
		}
		r.Action, r.Principal = "dynamodb:GetItem", testUser
		if got := decision(t, p, r); got != NotApplicable {
			t.Errorf("another user = %v", got)
		}
	})
}
