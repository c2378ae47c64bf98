package sortkey_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// Each test sends a request with two faults and expects the one DynamoDB
// reports first: the request's shape and field constraints, then the
// expressions' syntax, then their names and values, then the types of
// literal operands, then the table, then the key schema and the rest.

const (
	limitZero  = oneError + "Value at 'Limit' failed to satisfy constraint: Member must have value greater than or equal to 1"
	notFound   = "ResourceNotFoundException"
	notFoundIn = "Requested resource not found"
)

func TestQueryLimitBeforeInvalidSelect(t *testing.T) {
	c := composite(t)
	_, err := c.Query(ctx, keyCond(&dynamodb.QueryInput{Limit: aws.Int32(0), Select: "count"}))
	wantAPIError(t, err, validation, limitZero)
}

func TestQueryLimitBeforeMissingTable(t *testing.T) {
	c := composite(t)
	in := keyCond(&dynamodb.QueryInput{Limit: aws.Int32(0)})
	in.TableName = aws.String("missing")
	_, err := c.Query(ctx, in)
	wantAPIError(t, err, validation, limitZero)
}

// TestQuerySelectBeforeKeyCondition: Select's rules come before the key
// condition is even looked for.
func TestQuerySelectBeforeKeyCondition(t *testing.T) {
	c := composite(t)
	_, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("tbl"), Select: types.SelectSpecificAttributes})
	wantAPIError(t, err, validation, oneError+"Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES")
}

func TestQueryKeyConditionBeforeExclusiveStartKey(t *testing.T) {
	c := composite(t)
	_, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("tbl"), KeyConditionExpression: aws.String("sk = :v"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":v": s("a")},
		ExclusiveStartKey:         map[string]types.AttributeValue{"other": s("x")}})
	wantAPIError(t, err, validation, "Query condition missed key schema element: pk")
}

// TestMissingTableNameWithModel: on an item operation a missing TableName
// is a model violation, listed first with the others (facts 36.2, 36.1).
func TestMissingTableNameWithModel(t *testing.T) {
	srv := sortkeytest.New(t)
	code, msg := rawCall(t, srv, "GetItem", `{"Key":{"pk":{"S":"a"}},"ReturnConsumedCapacity":"ALL"}`)
	want := "2 validation errors detected: Value null at 'tableName' failed to satisfy constraint: Member must not be null; " +
		"Value 'ALL' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]"
	if code != validation || msg != want {
		t.Fatalf("%s %q", code, msg)
	}
}

func TestScanSegmentsBeforeSelect(t *testing.T) {
	c := composite(t)
	_, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("tbl"), Segment: aws.Int32(0), Select: types.SelectSpecificAttributes})
	wantAPIError(t, err, validation, "The TotalSegments parameter is required but was not present in the request when Segment parameter is present")
}

func TestScanSelectBeforeExclusiveStartKey(t *testing.T) {
	c := composite(t)
	_, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("tbl"), Select: types.SelectSpecificAttributes,
		ExclusiveStartKey: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberNULL{Value: false}}})
	wantAPIError(t, err, validation, "Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES")
}

func TestExpressionSyntaxBeforeMissingTable(t *testing.T) {
	c := composite(t)
	_, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("missing"), FilterExpression: aws.String("a = ")})
	wantAPIErrorPrefix(t, err, validation, "Invalid FilterExpression: Syntax error;")
}

// TestUnusedValueBeforeOperandType: an unused value is reported before a
// literal of the wrong type for its operator.
func TestUnusedValueBeforeOperandType(t *testing.T) {
	c := composite(t)
	_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"),
		Key:                       map[string]types.AttributeValue{"pk": s("a"), "sk": s("b")},
		UpdateExpression:          aws.String("SET a = b + :s"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":s": s("x"), ":unused": s("y")}})
	wantAPIError(t, err, validation, oneError+"Value provided in ExpressionAttributeValues unused in expressions: keys: {:unused}")
}

// TestConditionSyntaxBeforeUpdateOperandType: every expression's syntax
// comes before any literal's type.
func TestConditionSyntaxBeforeUpdateOperandType(t *testing.T) {
	c := composite(t)
	_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"),
		Key:                       map[string]types.AttributeValue{"pk": s("a"), "sk": s("b")},
		UpdateExpression:          aws.String("SET a = b + :s"),
		ConditionExpression:       aws.String("a = "),
		ExpressionAttributeValues: map[string]types.AttributeValue{":s": s("x")}})
	wantAPIErrorPrefix(t, err, validation, oneError+"Invalid ConditionExpression: Syntax error;")
}

func TestBeginsWithNumberBeforeMissingTable(t *testing.T) {
	c := composite(t)
	_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("missing"),
		Item:                      map[string]types.AttributeValue{"pk": s("a")},
		ConditionExpression:       aws.String("begins_with(a, :n)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":n": n("1")}})
	wantAPIError(t, err, validation, oneError+"Invalid ConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N")
	_, err = c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("missing"),
		KeyConditionExpression:    aws.String("pk = :p AND begins_with(sk, :n)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":p": s("a"), ":n": n("1")}})
	wantAPIError(t, err, validation, "Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N")
}

func TestSizeOfNumberBeforeMissingTable(t *testing.T) {
	c := composite(t)
	_, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("missing"),
		FilterExpression:          aws.String("size(:n) > :m"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":n": n("12"), ":m": n("1")}})
	wantAPIError(t, err, validation, "Invalid FilterExpression: Incorrect operand type for operator or function; operator or function: size, operand type: N")
}

func TestArithmeticOnStringBeforeMissingTable(t *testing.T) {
	c := composite(t)
	_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("missing"),
		Key:                       map[string]types.AttributeValue{"pk": s("a")},
		UpdateExpression:          aws.String("SET a = a + :s"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":s": s("x")}})
	wantAPIError(t, err, validation, oneError+"Invalid UpdateExpression: Incorrect operand type for operator or function; operator or function: +, operand type: S")
}

func TestPutItemItemSizeBeforeTableLookup(t *testing.T) {
	c := composite(t)
	big := map[string]types.AttributeValue{"pk": s("a"), "big": s(strings.Repeat("x", 400*1024))}
	err := put(c, "missing", big)
	wantAPIError(t, err, validation, "Item size has exceeded the maximum allowed size")
	_, err = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String("tbl"), Item: map[string]types.AttributeValue{"pk": s("a"), "sk": s("b")}}},
		{Put: &types.Put{TableName: aws.String("missing"), Item: big}}}})
	wantAPIError(t, err, validation, "Item size has exceeded the maximum allowed size")
}

// TestPutItemItemSizeBeforeKeySchema: the item lacks the sort key too.
func TestPutItemItemSizeBeforeKeySchema(t *testing.T) {
	c := composite(t)
	err := put(c, "tbl", map[string]types.AttributeValue{"pk": s("a"), "big": s(strings.Repeat("x", 400*1024))})
	wantAPIError(t, err, validation, "Item size has exceeded the maximum allowed size")
}

func TestPutItemValuesWithoutExpressionBeforeMissingTable(t *testing.T) {
	c := composite(t)
	_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("missing"), Item: map[string]types.AttributeValue{"pk": s("a")},
		ExpressionAttributeValues: map[string]types.AttributeValue{":v": s("unused")}})
	wantAPIError(t, err, validation, "ExpressionAttributeValues can only be specified when using expressions: ConditionExpression is null")
}

// TestBatchGetItemProjectionBeforeMissingTable: every table's projection
// is checked before any table is looked up.
func TestBatchGetItemProjectionBeforeMissingTable(t *testing.T) {
	c := composite(t)
	key := map[string]types.AttributeValue{"pk": s("a"), "sk": s("b")}
	_, err := c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
		"aaa-missing": {Keys: []map[string]types.AttributeValue{key}},
		"tbl":         {Keys: []map[string]types.AttributeValue{key}, ProjectionExpression: aws.String("a,")}}})
	wantAPIErrorPrefix(t, err, validation, "Invalid ProjectionExpression: Syntax error;")
}

// TestTransactGetItemsKeyErrorCancels: a key that does not fit its table
// cancels the transaction with a ValidationError reason for that read.
func TestTransactGetItemsKeyErrorCancels(t *testing.T) {
	c := composite(t)
	_, err := c.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{
		{Get: &types.Get{TableName: aws.String("tbl"), Key: map[string]types.AttributeValue{"pk": s("a"), "sk": s("b")}}},
		{Get: &types.Get{TableName: aws.String("tbl"), Key: map[string]types.AttributeValue{}}}}})
	var tc *types.TransactionCanceledException
	if !errors.As(err, &tc) {
		t.Fatalf("want TransactionCanceledException, got %v", err)
	}
	if !strings.Contains(tc.ErrorMessage(), "Transaction cancelled, please refer cancellation reasons for specific reasons [None, ValidationError]") ||
		len(tc.CancellationReasons) != 2 || *tc.CancellationReasons[0].Code != "None" || *tc.CancellationReasons[1].Code != "ValidationError" {
		t.Fatalf("%q %+v", tc.ErrorMessage(), tc.CancellationReasons)
	}
}

// TestTransactGetItemsMissingTableBeforeKeyError: the table comes first.
func TestTransactGetItemsMissingTableBeforeKeyError(t *testing.T) {
	c := composite(t)
	_, err := c.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{
		{Get: &types.Get{TableName: aws.String("tbl"), Key: map[string]types.AttributeValue{}}},
		{Get: &types.Get{TableName: aws.String("missing"), Key: map[string]types.AttributeValue{"pk": s("a")}}}}})
	wantAPIError(t, err, notFound, notFoundIn)
}

// TestExpectedOperatorCollectedWithModel: a legacy Expected entry's
// ComparisonOperator is a model constraint, reported with the others.
func TestExpectedOperatorCollectedWithModel(t *testing.T) {
	c := composite(t)
	_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), ReturnValues: "ALL",
		Item:     map[string]types.AttributeValue{"pk": s("a"), "sk": s("b")},
		Expected: map[string]types.ExpectedAttributeValue{"a": {ComparisonOperator: "LIKE"}}})
	wantAPIError(t, err, validation, "2 validation errors detected: "+
		"Value 'LIKE' at 'expected.a.member.comparisonOperator' failed to satisfy constraint: Member must satisfy enum value set: "+
		"[IN, NULL, BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS]; "+
		"Value 'ALL' at 'returnValues' failed to satisfy constraint: Member must satisfy enum value set: [NONE, ALL_OLD, UPDATED_OLD, ALL_NEW, UPDATED_NEW]")
}

// TestExpressionChecksInDynamoDBOrder walks Scan down DynamoDB's order on
// a table that does not exist, so that every answer below also shows the
// check coming before the table lookup: model constraints, then syntax,
// then undefined names and values, then unused names before unused
// values, then the types of constant operands.
func TestExpressionChecksInDynamoDBOrder(t *testing.T) {
	c := composite(t)
	num := &types.AttributeValueMemberN{Value: "1"}
	for _, tc := range []struct {
		name  string
		in    dynamodb.ScanInput
		check func(*testing.T, error)
	}{
		{"model before syntax", dynamodb.ScanInput{Limit: aws.Int32(0), FilterExpression: aws.String("a = ")},
			func(t *testing.T, err error) {
				wantAPIError(t, err, validation, oneError+"Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1")
			}},
		{"syntax before undefined value", dynamodb.ScanInput{FilterExpression: aws.String("a = :v AND")},
			func(t *testing.T, err error) {
				wantAPIErrorPrefix(t, err, validation, "Invalid FilterExpression: Syntax error;")
			}},
		{"undefined value before table", dynamodb.ScanInput{FilterExpression: aws.String("a = :v")},
			func(t *testing.T, err error) {
				wantAPIError(t, err, validation, "Invalid FilterExpression: An expression attribute value used in expression is not defined; attribute value: :v")
			}},
		{"undefined name before table", dynamodb.ScanInput{FilterExpression: aws.String("#a = :v"), ExpressionAttributeValues: avMap{":v": num}},
			func(t *testing.T, err error) {
				wantAPIError(t, err, validation, "Invalid FilterExpression: An expression attribute name used in the document path is not defined; attribute name: #a")
			}},
		{"unused name before unused value", dynamodb.ScanInput{FilterExpression: aws.String("a = :v"),
			ExpressionAttributeNames: map[string]string{"#u": "u"}, ExpressionAttributeValues: avMap{":v": num, ":u": num}},
			func(t *testing.T, err error) {
				wantAPIError(t, err, validation, "Value provided in ExpressionAttributeNames unused in expressions: keys: {#u}")
			}},
		{"unused value before operand type", dynamodb.ScanInput{FilterExpression: aws.String("begins_with(a, :v)"),
			ExpressionAttributeValues: avMap{":v": num, ":u": num}},
			func(t *testing.T, err error) {
				wantAPIError(t, err, validation, "Value provided in ExpressionAttributeValues unused in expressions: keys: {:u}")
			}},
		{"operand type before table", dynamodb.ScanInput{FilterExpression: aws.String("begins_with(a, :v)"), ExpressionAttributeValues: avMap{":v": num}},
			func(t *testing.T, err error) {
				wantAPIError(t, err, validation, "Invalid FilterExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N")
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in
			in.TableName = aws.String("missing")
			_, err := c.Scan(ctx, &in)
			tc.check(t, err)
		})
	}
}

// TestAttributeUpdatesActionCollectedWithModel: a legacy AttributeUpdates
// entry's Action is a model enum, listed in the model's order and reported
// with the other model violations, before the table is looked up.
func TestAttributeUpdatesActionCollectedWithModel(t *testing.T) {
	c := composite(t)
	const action = "Value 'REPLACE' at 'attributeUpdates.a.member.action' failed to satisfy constraint: Member must satisfy enum value set: [ADD, PUT, DELETE]"
	in := &dynamodb.UpdateItemInput{TableName: aws.String("missing"), Key: map[string]types.AttributeValue{"pk": s("a"), "sk": s("b")},
		AttributeUpdates: map[string]types.AttributeValueUpdate{"a": {Action: "REPLACE", Value: s("x")}}}
	_, err := c.UpdateItem(ctx, in)
	wantAPIError(t, err, validation, oneError+action)
	in.ReturnValues = "SOME"
	_, err = c.UpdateItem(ctx, in)
	wantAPIError(t, err, validation, "2 validation errors detected: "+action+
		"; Value 'SOME' at 'returnValues' failed to satisfy constraint: Member must satisfy enum value set: [NONE, ALL_OLD, UPDATED_OLD, ALL_NEW, UPDATED_NEW]")
}
