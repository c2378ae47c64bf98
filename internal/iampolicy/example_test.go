package iampolicy_test

import (
	"fmt"

	"github.com/sortkeydb/sortkey/internal/iampolicy"
)

func Example() {
	doc := `{"Version":"2012-10-17","Statement":[{"Sid":"OwnItems","Effect":"Allow",
	  "Action":["dynamodb:GetItem","dynamodb:Query"],
	  "Resource":"arn:aws:dynamodb:us-east-1:123456789012:table/Orders",
	  "Condition":{"ForAllValues:StringEquals":{"dynamodb:LeadingKeys":"${aws:PrincipalTag/tenant}"}}}]}`
	p, err := iampolicy.Parse([]byte(doc), iampolicy.Identity)
	if err != nil {
		fmt.Println("Invalid policy document:", err)
		return
	}
	ctx := iampolicy.Context{}
	ctx.Set("aws:PrincipalTag/tenant", "acme")
	ctx.Set("dynamodb:LeadingKeys", "acme")
	r := &iampolicy.Request{
		Action:    "dynamodb:GetItem",
		Resource:  "arn:aws:dynamodb:us-east-1:123456789012:table/Orders",
		Principal: "arn:aws:iam::123456789012:user/alice",
		Account:   "123456789012",
		Context:   ctx,
	}
	res := p.Evaluate(r)
	fmt.Println(res.Decision, res.Statement.Sid)

	ctx.Set("dynamodb:LeadingKeys", "other-tenant")
	fmt.Println(p.Evaluate(r).Decision)

	_, err = iampolicy.Parse([]byte(`{"Statement":[]}`), iampolicy.Identity)
	fmt.Println("Invalid policy document:", err)
	// Output:
	// Allow OwnItems
	// NotApplicable
	// Invalid policy document: Could not parse the policy: Statement is empty!
}
