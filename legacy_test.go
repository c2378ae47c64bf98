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
	// facts 24.3: Value beside a ComparisonOperator is refused, not ignored.
	err := putIf(types.ExpectedAttributeValue{Value: n("5"), ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: []types.AttributeValue{n("5")}})
	wantAPIError(t, err, "ValidationException", invalid+"Value and ComparisonOperator cannot be used together for Attribute: v")
}

// TestLegacyStaticChecks checks the legacy rules of facts 24 and 25 (rule
// 17): shape errors are ValidationExceptions raised before any item is
// read, NOT_CONTAINS is false on a missing attribute, and AttributeUpdates
// type errors say "mismatch".
func TestLegacyStaticChecks(t *testing.T) {
	srv := sortkeytest.New(t)
	createSimple(t, srv.Client(), "hhh")
	createTyped(t, srv.Client(), "tbl", types.ScalarAttributeTypeS)
	const (
		key     = `"TableName":"hhh","Key":{"pk":{"S":"a"}}`
		put17   = `"AttributeUpdates":{"z":{"Action":"PUT","Value":{"N":"17"}}}`
		invalid = oneError + "One or more parameter values were invalid: "
	)
	runRawCases(t, srv, []rawCase{
		{name: "seed", op: "PutItem", body: `{"TableName":"hhh","Item":{"pk":{"S":"a"},"c":{"N":"3"},"m":{"M":{"x":{"S":"y"}}},"ns":{"NS":["1","2"]}}}`},
		{name: "facts 24.1 NOT_CONTAINS on a missing attribute", op: "UpdateItem", code: "ConditionalCheckFailedException",
			body: `{` + key + `,` + put17 + `,"Expected":{"q":{"ComparisonOperator":"NOT_CONTAINS","AttributeValueList":[{"N":"1"}]}}}`, msg: "The conditional request failed"},
		{name: "facts 24.1 NOT_CONTAINS on a present attribute", op: "UpdateItem",
			body: `{` + key + `,` + put17 + `,"Expected":{"c":{"ComparisonOperator":"NOT_CONTAINS","AttributeValueList":[{"N":"1"}]}}}`},
		{name: "facts 24.2 IN with mixed types", op: "UpdateItem", code: validation, msg: invalid + "AttributeValues inside AttributeValueList must be of same type",
			body: `{` + key + `,` + put17 + `,"Expected":{"c":{"ComparisonOperator":"IN","AttributeValueList":[{"N":"3"},{"S":"dog"}]}}}`},
		{name: "facts 24.2 IN with mixed types, no item", op: "UpdateItem", code: validation, part: "same type",
			body: `{"TableName":"hhh","Key":{"pk":{"S":"none"}},` + put17 + `,"Expected":{"c":{"ComparisonOperator":"IN","AttributeValueList":[{"N":"3"},{"S":"dog"}]}}}`},
		{name: "facts 24.3 Value with ComparisonOperator", op: "UpdateItem", code: validation, msg: invalid + "Value and ComparisonOperator cannot be used together for Attribute: c",
			body: `{` + key + `,` + put17 + `,"Expected":{"c":{"Value":{"N":"3"},"ComparisonOperator":"EQ","AttributeValueList":[{"N":"3"}]}}}`},
		{name: "facts 24.4 empty Expected alone", op: "UpdateItem", body: `{` + key + `,` + put17 + `,"Expected":{}}`},
		{name: "facts 24.4 empty Expected with OR", op: "UpdateItem", code: validation, part: "ConditionalOperator",
			body: `{` + key + `,` + put17 + `,"Expected":{},"ConditionalOperator":"OR"}`},
		{name: "facts 24.4 empty Expected with AND", op: "UpdateItem", code: validation, part: "ConditionalOperator",
			body: `{` + key + `,` + put17 + `,"Expected":{},"ConditionalOperator":"AND"}`},
		{name: "facts 24.5 ConditionalOperator alone", op: "UpdateItem", code: validation, msg: invalid + "ConditionalOperator can only be used when Expected is not empty",
			body: `{` + key + `,` + put17 + `,"ConditionalOperator":"OR"}`},
		{name: "facts 24.5 ConditionalOperator alone on PutItem", op: "PutItem", code: validation, part: "ConditionalOperator",
			body: `{"TableName":"hhh","Item":{"pk":{"S":"b"}},"ConditionalOperator":"AND"}`},
		{name: "facts 24.6 QueryFilter IN with mixed types", op: "Query", code: validation, part: " type",
			body: `{"TableName":"tbl","KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"x"}]}},"QueryFilter":{"i":{"ComparisonOperator":"IN","AttributeValueList":[{"S":"a"},{"N":"3"}]}}}`},
		{name: "facts 25.1 DELETE a set from a map", op: "UpdateItem", code: validation, part: "mismatch",
			body: `{` + key + `,"AttributeUpdates":{"m":{"Action":"DELETE","Value":{"NS":["1","2"]}}}}`},
		{name: "facts 25.2 ADD SS to an NS", op: "UpdateItem", code: validation, part: "mismatch",
			body: `{` + key + `,"AttributeUpdates":{"ns":{"Action":"ADD","Value":{"SS":["a"]}}}}`},
		{name: "facts 25 the expression keeps its text", op: "UpdateItem", code: validation, msg: "An operand in the update expression has an incorrect data type",
			body: `{` + key + `,"UpdateExpression":"ADD ns :s","ExpressionAttributeValues":{":s":{"SS":["a"]}}}`},
	})
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
