package iampolicy

import "testing"

// benchPolicy is the common case: a handful of statements, one with a
// LeadingKeys condition on the caller's tenant tag.
const benchPolicy = `{"Version":"2012-10-17","Statement":[
 {"Sid":"Describe","Effect":"Allow","Action":["dynamodb:DescribeTable","dynamodb:ListTables"],"Resource":"*"},
 {"Sid":"NoDrop","Effect":"Deny","Action":["dynamodb:DeleteTable","dynamodb:UpdateTable"],"Resource":"*"},
 {"Sid":"TenantItems","Effect":"Allow",
  "Action":["dynamodb:GetItem","dynamodb:Query","dynamodb:PutItem","dynamodb:UpdateItem","dynamodb:DeleteItem"],
  "Resource":["arn:aws:dynamodb:us-east-1:123456789012:table/Orders","arn:aws:dynamodb:us-east-1:123456789012:table/Orders/index/*"],
  "Condition":{"ForAllValues:StringEquals":{"dynamodb:LeadingKeys":["${aws:PrincipalTag/tenant}"]},
               "StringEqualsIfExists":{"dynamodb:ReturnValues":["NONE","ALL_NEW"]}}}]}`

func benchRequest() *Request {
	r := request("aws:PrincipalTag/tenant", "acme", "dynamodb:LeadingKeys", "acme", "dynamodb:ReturnValues", "NONE")
	r.Action, r.Resource = "dynamodb:Query", testTable+"/index/ByDate"
	return r
}

func TestEvaluateDoesNotAllocate(t *testing.T) {
	p := mustParse(t, benchPolicy, Identity)
	r := benchRequest()
	if got := p.Evaluate(r); got.Decision != Allow || got.Statement.Sid != "TenantItems" {
		t.Fatalf("Evaluate = %v by %+v, want Allow by TenantItems", got.Decision, got.Statement)
	}
	if n := testing.AllocsPerRun(100, func() { p.Evaluate(r) }); n != 0 {
		t.Errorf("Evaluate allocates %v times per call, want 0", n)
	}
}

func BenchmarkEvaluate(b *testing.B) {
	p := mustParse(b, benchPolicy, Identity)
	r := benchRequest()
	b.ReportAllocs()
	for b.Loop() {
		if p.Evaluate(r).Decision != Allow {
			b.Fatal("not allowed")
		}
	}
}

func BenchmarkParse(b *testing.B) {
	doc := []byte(benchPolicy)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(doc, Identity); err != nil {
			b.Fatal(err)
		}
	}
}
