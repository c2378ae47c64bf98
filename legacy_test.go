package sortkey_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// TestLegacyExpectedRules checks the Expected combinations the service
// refuses and the one it accepts (Value beside a ComparisonOperator).
func TestLegacyExpectedRules(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "exp")
	if err := put(c, "exp", avMap{"pk": s("a"), "v": n("5")}); err != nil {
		t.Fatal(err)
	}
	putIf := func(e types.ExpectedAttributeValue) error {
		_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("exp"), Item: avMap{"pk": s("a"), "v": n("5")},
			Expected: map[string]types.ExpectedAttributeValue{"v": e}})
		return err
	}
	const invalid = oneError + "One or more parameter values were invalid: "
	for _, tc := range []struct {
		name string
		e    types.ExpectedAttributeValue
		msg  string
	}{
		{"exists true without value", types.ExpectedAttributeValue{Exists: aws.Bool(true)}, invalid + "Value must be provided when Exists is true for Attribute: v"},
		{"exists false with value", types.ExpectedAttributeValue{Exists: aws.Bool(false), Value: n("5")}, invalid + "Value cannot be used when Exists is false for Attribute: v"},
		{"neither", types.ExpectedAttributeValue{}, invalid + "Value must be provided when Exists is null for Attribute: v"},
		{"exists with operator", types.ExpectedAttributeValue{Exists: aws.Bool(true), ComparisonOperator: types.ComparisonOperatorNotNull},
			invalid + "Exists and ComparisonOperator cannot be used together for Attribute: v"},
		{"list without operator", types.ExpectedAttributeValue{Exists: aws.Bool(true), AttributeValueList: []types.AttributeValue{n("5")}},
			invalid + "AttributeValueList can only be used with a ComparisonOperator for Attribute: v"},
		{"EQ without value", types.ExpectedAttributeValue{ComparisonOperator: types.ComparisonOperatorEq}, invalid + "Invalid number of argument(s) for the EQ ComparisonOperator"},
		{"NULL with a value", types.ExpectedAttributeValue{ComparisonOperator: types.ComparisonOperatorNull, AttributeValueList: []types.AttributeValue{n("5")}},
			invalid + "Invalid number of argument(s) for the NULL ComparisonOperator"},
		{"BETWEEN with one value", types.ExpectedAttributeValue{ComparisonOperator: types.ComparisonOperatorBetween, AttributeValueList: []types.AttributeValue{n("5")}},
			invalid + "Invalid number of argument(s) for the BETWEEN ComparisonOperator"},
	} {
		t.Run(tc.name, func(t *testing.T) { wantAPIError(t, putIf(tc.e), "ValidationException", tc.msg) })
	}
	err := putIf(types.ExpectedAttributeValue{Value: n("6"), ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: []types.AttributeValue{n("5")}})
	if err != nil {
		t.Fatalf("Value beside ComparisonOperator: %v", err)
	}
}

// TestLegacyFilterArgumentTypes checks QueryFilter, ScanFilter and
// Expected values against the types each ComparisonOperator takes.
func TestLegacyFilterArgumentTypes(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createTyped(t, c, "leg", types.ScalarAttributeTypeS)
	cond := func(op types.ComparisonOperator, vs ...types.AttributeValue) map[string]types.Condition {
		return map[string]types.Condition{"a": {ComparisonOperator: op, AttributeValueList: vs}}
	}
	scan := func(f map[string]types.Condition) error {
		_, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("leg"), ScanFilter: f})
		return err
	}
	const invalid = "One or more parameter values were invalid: "
	ss := &types.AttributeValueMemberSS{Value: []string{"x"}}
	for _, tc := range []struct {
		name string
		f    map[string]types.Condition
		msg  string
	}{
		{"LT bool", cond(types.ComparisonOperatorLt, &types.AttributeValueMemberBOOL{Value: true}), invalid + "ComparisonOperator LT is not valid for BOOL AttributeValue type"},
		{"GE set", cond(types.ComparisonOperatorGe, ss), invalid + "ComparisonOperator GE is not valid for SS AttributeValue type"},
		{"BEGINS_WITH number", cond(types.ComparisonOperatorBeginsWith, n("1")), invalid + "ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type"},
		{"CONTAINS set", cond(types.ComparisonOperatorContains, ss), invalid + "ComparisonOperator CONTAINS is not valid for SS AttributeValue type"},
		{"IN list", cond(types.ComparisonOperatorIn, s("x"), &types.AttributeValueMemberL{Value: []types.AttributeValue{}}),
			invalid + "ComparisonOperator IN is not valid for L AttributeValue type"},
		{"BETWEEN mixed", cond(types.ComparisonOperatorBetween, n("1"), s("2")), invalid + "AttributeValues inside AttributeValueList must be of same type"},
		{"BETWEEN reversed", cond(types.ComparisonOperatorBetween, s("b"), s("a")),
			"The BETWEEN condition was provided a range where the lower bound is bigger than the upper bound"},
	} {
		t.Run(tc.name, func(t *testing.T) { wantAPIError(t, scan(tc.f), "ValidationException", tc.msg) })
	}
	if err := scan(cond(types.ComparisonOperatorEq, ss)); err != nil {
		t.Fatalf("EQ takes a set: %v", err)
	}
	_, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("leg"),
		KeyConditions: map[string]types.Condition{"pk": {ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: []types.AttributeValue{s("p")}}},
		QueryFilter: map[string]types.Condition{"b": {
			ComparisonOperator: types.ComparisonOperatorNotContains, AttributeValueList: []types.AttributeValue{&types.AttributeValueMemberNULL{Value: true}}}}})
	wantAPIError(t, err, "ValidationException", invalid+"ComparisonOperator NOT_CONTAINS is not valid for NULL AttributeValue type")
	_, err = c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("leg"), Item: avMap{"pk": s("p"), "sk": s("s")},
		Expected: map[string]types.ExpectedAttributeValue{"a": {ComparisonOperator: types.ComparisonOperatorGt,
			AttributeValueList: []types.AttributeValue{&types.AttributeValueMemberM{Value: avMap{}}}}}})
	wantAPIError(t, err, "ValidationException", oneError+invalid+"ComparisonOperator GT is not valid for M AttributeValue type")
}
