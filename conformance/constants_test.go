package conformance_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// TestConstantComparisonsRefusedUpFront checks that comparisons DynamoDB
// can judge from their constants alone fail as ValidationException, on an
// empty table and on a missing item, instead of evaluating false.
func TestConstantComparisonsRefusedUpFront(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "cmp")
	scan := func(filter string, vals avMap) error {
		_, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("cmp"), FilterExpression: aws.String(filter), ExpressionAttributeValues: vals})
		return err
	}
	const f = "Invalid FilterExpression: "
	for _, tc := range []struct {
		filter string
		vals   avMap
		msg    string
	}{
		{"a < :b", avMap{":b": &types.AttributeValueMemberBOOL{Value: true}},
			f + "Incorrect operand type for operator or function; operator or function: <, operand type: BOOL"},
		{":l >= a", avMap{":l": &types.AttributeValueMemberL{Value: []types.AttributeValue{}}},
			f + "Incorrect operand type for operator or function; operator or function: >=, operand type: L"},
		{":a <= :b", avMap{":a": n("1"), ":b": s("2")},
			f + "Incorrect operand type for operator or function; operator or function: <=, operand type: S"},
		{"a BETWEEN :lo AND :hi", avMap{":lo": n("2"), ":hi": n("1")},
			f + "The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {N:2}, upper bound operand: AttributeValue: {N:1}"},
		{"a BETWEEN :lo AND :hi", avMap{":lo": s("b"), ":hi": s("a")},
			f + "The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {S:b}, upper bound operand: AttributeValue: {S:a}"},
		{"a BETWEEN :lo AND :hi", avMap{":lo": n("1"), ":hi": s("a")},
			f + "The BETWEEN operator requires same data type for lower and upper bounds; lower bound operand: AttributeValue: {N:1}, upper bound operand: AttributeValue: {S:a}"},
		{"a BETWEEN :lo AND :hi", avMap{":lo": &types.AttributeValueMemberNULL{Value: true}, ":hi": s("a")},
			f + "Incorrect operand type for operator or function; operator or function: BETWEEN, operand type: NULL"},
	} {
		t.Run(tc.filter, func(t *testing.T) { wantAPIError(t, scan(tc.filter, tc.vals), "ValidationException", tc.msg) })
	}
	if err := scan("a = :s OR a <> :n", avMap{":s": s("x"), ":n": n("1")}); err != nil {
		t.Fatalf("= and <> compare any types: %v", err)
	}
	_, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("cmp"), Key: pk("missing"),
		ConditionExpression: aws.String("NOT (a BETWEEN :lo AND :hi)"), ExpressionAttributeValues: avMap{":lo": n("9"), ":hi": n("10.5")}})
	if err != nil {
		t.Fatalf("ordered bounds: %v", err)
	}
	_, err = c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("cmp"), Key: pk("missing"),
		ConditionExpression: aws.String("attribute_not_exists(a) OR a BETWEEN :lo AND :hi"), ExpressionAttributeValues: avMap{":lo": n("10.5"), ":hi": n("9")}})
	wantAPIError(t, err, "ValidationException", oneError+"Invalid ConditionExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; "+
		"lower bound operand: AttributeValue: {N:10.5}, upper bound operand: AttributeValue: {N:9}")
}

func TestKeyConditionBetweenBoundsOutOfOrder(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createTyped(t, c, "kcb", types.ScalarAttributeTypeN)
	_, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("kcb"), KeyConditionExpression: aws.String("pk = :p AND sk BETWEEN :lo AND :hi"),
		ExpressionAttributeValues: avMap{":p": s("a"), ":lo": n("2"), ":hi": n("1")}})
	wantAPIError(t, err, "ValidationException", "Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; "+
		"lower bound operand: AttributeValue: {N:2}, upper bound operand: AttributeValue: {N:1}")
}

// TestOperandTypesCheckedAfterUnusedValues checks the order: an unused
// value is reported before a constant of the wrong type.
func TestOperandTypesCheckedAfterUnusedValues(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "ord")
	_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("ord"), Key: pk("a"),
		UpdateExpression: aws.String("SET l = list_append(l, :v)"), ExpressionAttributeValues: avMap{":v": s("x"), ":w": s("y")}})
	wantAPIError(t, err, "ValidationException", oneError+"Value provided in ExpressionAttributeValues unused in expressions: keys: {:w}")
}
