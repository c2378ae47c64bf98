package sortkey_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

const (
	validation = "ValidationException"
	oneError   = "1 validation error detected: "
	selectList = "[SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES]"
)

// rawCall sends body to op over HTTP, for requests the SDK refuses to
// send (it checks required members itself), and returns the error's type
// and message.
func rawCall(t *testing.T, srv *sortkeytest.Server, op, body string) (code, msg string) {
	t.Helper()
	r := postRaw(t, srv.URL, "DynamoDB_20120810."+op, body)
	if r.status != http.StatusBadRequest || r.Type == "" {
		t.Fatalf("%s: status %d, body %s", op, r.status, r.body)
	}
	return r.Type[strings.LastIndexByte(r.Type, '#')+1:], r.Message
}

// composite creates table tbl keyed pk (S) and sk (S) and returns a client.
func composite(t *testing.T) *dynamodb.Client {
	c := sortkeytest.New(t).Client()
	createTyped(t, c, "tbl", types.ScalarAttributeTypeS)
	return c
}

// keyCond is a valid key condition on tbl.
func keyCond(in *dynamodb.QueryInput) *dynamodb.QueryInput {
	in.TableName = aws.String("tbl")
	in.KeyConditionExpression = aws.String("pk = :v")
	in.ExpressionAttributeValues = map[string]types.AttributeValue{":v": s("a")}
	return in
}

func TestQueryLimitZeroMessage(t *testing.T) {
	c := composite(t)
	_, err := c.Query(ctx, keyCond(&dynamodb.QueryInput{Limit: aws.Int32(0)}))
	wantAPIError(t, err, validation, oneError+"Value at 'Limit' failed to satisfy constraint: Member must have value greater than or equal to 1")
}

func TestScanLimitZeroMessage(t *testing.T) {
	c := composite(t)
	_, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("tbl"), Limit: aws.Int32(0)})
	wantAPIError(t, err, validation, oneError+"Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1")
}

func TestSelectEnumListOrder(t *testing.T) {
	c := composite(t)
	enum := func(v string) string {
		return oneError + "Value '" + v + "' at 'select' failed to satisfy constraint: Member must satisfy enum value set: " + selectList
	}
	_, err := c.Query(ctx, keyCond(&dynamodb.QueryInput{Select: "INVALID_VALUE"}))
	wantAPIError(t, err, validation, enum("INVALID_VALUE"))
	_, err = c.Query(ctx, keyCond(&dynamodb.QueryInput{Select: "count"}))
	wantAPIError(t, err, validation, enum("count"))
	_, err = c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("tbl"), Select: "count"})
	wantAPIError(t, err, validation, enum("count"))
}

// TestEnumListsInModelOrder checks the lists DynamoDB prints in its
// model's order, which is the order of the API Reference's Valid Values.
func TestEnumListsInModelOrder(t *testing.T) {
	c := composite(t)
	key := map[string]types.AttributeValue{"pk": s("a"), "sk": s("b")}
	enum := func(v, member, list string) string {
		return oneError + "Value '" + v + "' at '" + member + "' failed to satisfy constraint: Member must satisfy enum value set: " + list
	}
	_, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: key, ReturnConsumedCapacity: "ALL"})
	wantAPIError(t, err, validation, enum("ALL", "returnConsumedCapacity", "[INDEXES, TOTAL, NONE]"))
	_, err = c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: key, ReturnValues: "ALL"})
	wantAPIError(t, err, validation, enum("ALL", "returnValues", "[NONE, ALL_OLD, UPDATED_OLD, ALL_NEW, UPDATED_NEW]"))
	_, err = c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("tbl"), Key: key, ReturnItemCollectionMetrics: "ALL"})
	wantAPIError(t, err, validation, enum("ALL", "returnItemCollectionMetrics", "[SIZE, NONE]"))
	_, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: key, ReturnValuesOnConditionCheckFailure: "SOME"})
	wantAPIError(t, err, validation, enum("SOME", "returnValuesOnConditionCheckFailure", "[ALL_OLD, NONE]"))
	_, err = c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("other"), BillingMode: "FREE",
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}}})
	wantAPIError(t, err, validation, enum("FREE", "billingMode", "[PROVISIONED, PAY_PER_REQUEST]"))
}

// TestValidationErrorsListAtMostTen sends eleven model violations: all
// are counted, ten are listed.
func TestValidationErrorsListAtMostTen(t *testing.T) {
	c := composite(t)
	filter := map[string]types.Condition{}
	var listed []string
	for i := range 11 {
		name := fmt.Sprintf("f%02d", i)
		filter[name] = types.Condition{ComparisonOperator: "LIKE"}
		listed = append(listed, "Value 'LIKE' at 'queryFilter."+name+".member.comparisonOperator' failed to satisfy constraint: "+
			"Member must satisfy enum value set: [IN, NULL, BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS]")
	}
	_, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("tbl"), QueryFilter: filter,
		KeyConditions: map[string]types.Condition{"pk": {ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: []types.AttributeValue{s("a")}}}})
	wantAPIError(t, err, validation, "11 validation errors detected: "+strings.Join(listed[:10], "; "))
}

func TestBatchGetItemEmptyRequestItemsMessage(t *testing.T) {
	c := composite(t)
	_, err := c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{}})
	wantAPIError(t, err, validation, "The requestItems parameter is required for BatchGetItem")
}

func TestBatchWriteItemEmptyRequestItemsMessage(t *testing.T) {
	c := composite(t)
	_, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{}})
	wantAPIError(t, err, validation, "The requestItems parameter is required for BatchWriteItem")
}

// TestMissingTableNameMessage sends, over raw HTTP (the SDK refuses to),
// each operation whose TableName may be an ARN without one.
// TestMissingTableNameMessage checks the two ways a missing TableName is
// reported: the item operations' model violation (facts 36.2) and the
// table operations' required-parameter sentence (facts 1).
func TestMissingTableNameMessage(t *testing.T) {
	srv := sortkeytest.New(t)
	const (
		null     = oneError + "Value null at 'tableName' failed to satisfy constraint: Member must not be null"
		required = "The parameter 'TableName' is required but was not present in the request"
	)
	for _, tc := range []struct{ op, body, msg string }{
		{"GetItem", `{"Key":{"pk":{"S":"a"}}}`, null},
		{"PutItem", `{"Item":{"pk":{"S":"a"}}}`, null},
		{"UpdateItem", `{"Key":{"pk":{"S":"a"}}}`, null},
		{"DeleteItem", `{"Key":{"pk":{"S":"a"}}}`, null},
		{"Query", `{"KeyConditionExpression":"pk = :v","ExpressionAttributeValues":{":v":{"S":"a"}}}`, null},
		{"Scan", `{}`, null},
		{"DescribeTable", `{}`, required},
		{"DeleteTable", `{}`, required},
		{"DescribeTimeToLive", `{}`, required},
	} {
		code, msg := rawCall(t, srv, tc.op, tc.body)
		if code != validation || msg != tc.msg {
			t.Errorf("%s: %s %q, want %q", tc.op, code, msg, tc.msg)
		}
	}
}

func TestBatchGetItemTooManyKeysMessage(t *testing.T) {
	c := composite(t)
	keys := make([]map[string]types.AttributeValue, 101)
	for i := range keys {
		keys[i] = map[string]types.AttributeValue{"pk": s(fmt.Sprint("bg-", i)), "sk": s("s")}
	}
	_, err := c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"tbl": {Keys: keys}}})
	wantAPIError(t, err, validation, oneError+"Value at 'RequestItems.tbl.member.Keys' failed to satisfy constraint: Member must have length less than or equal to 100")
}

// TestQuerySelectRulesPrefixed: Query words Select's rules as one-error
// messages; Scan does not, and still says "Querying".
func TestQuerySelectRulesPrefixed(t *testing.T) {
	c := composite(t)
	rules := []struct {
		sel  types.Select
		proj *string
		msg  string
	}{
		{types.SelectAllProjectedAttributes, nil, "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName"},
		{types.SelectSpecificAttributes, nil, "Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES"},
		{types.SelectAllAttributes, aws.String("pk"), "Cannot specify the ProjectionExpression when choosing to get ALL_ATTRIBUTES"},
		{types.SelectCount, aws.String("pk"), "Cannot specify the ProjectionExpression when choosing to get only the Count"},
	}
	for _, r := range rules {
		_, err := c.Query(ctx, keyCond(&dynamodb.QueryInput{Select: r.sel, ProjectionExpression: r.proj}))
		wantAPIError(t, err, validation, oneError+r.msg)
		_, err = c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("tbl"), Select: r.sel, ProjectionExpression: r.proj})
		wantAPIError(t, err, validation, r.msg)
	}
}

func TestPutItemValuesWithoutExpressionMessage(t *testing.T) {
	c := composite(t)
	key := map[string]types.AttributeValue{"pk": s("a"), "sk": s("b")}
	vals := map[string]types.AttributeValue{":v": s("unused")}
	_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: key, ExpressionAttributeValues: vals})
	wantAPIError(t, err, validation, "ExpressionAttributeValues can only be specified when using expressions: ConditionExpression is null")
	_, err = c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("tbl"), Key: key, ExpressionAttributeValues: vals})
	wantAPIError(t, err, validation, "ExpressionAttributeValues can only be specified when using expressions: ConditionExpression is null")
	_, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: key, ExpressionAttributeValues: vals})
	wantAPIError(t, err, validation, "ExpressionAttributeValues can only be specified when using expressions: UpdateExpression and ConditionExpression are null")
}

// TestWriteExpressionErrorsPrefixed: UpdateItem, PutItem and DeleteItem
// report their expressions' and values' errors as one-error messages;
// TransactWriteItems and the reads do not.
func TestWriteExpressionErrorsPrefixed(t *testing.T) {
	c := composite(t)
	key := map[string]types.AttributeValue{"pk": s("a"), "sk": s("b")}
	_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: key, UpdateExpression: aws.String("")})
	wantAPIError(t, err, validation, oneError+"Invalid UpdateExpression: The expression can not be empty;")
	_, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: key,
		UpdateExpression: aws.String("SET #d = :s"), ExpressionAttributeNames: map[string]string{"#d": "d"},
		ExpressionAttributeValues: map[string]types.AttributeValue{}})
	wantAPIError(t, err, validation, oneError+"ExpressionAttributeValues must not be empty")
	_, err = c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("tbl"), Key: key,
		ConditionExpression: aws.String("attribute_not_exists(body)"), ExpressionAttributeNames: map[string]string{"#count": "count"}})
	wantAPIError(t, err, validation, oneError+"Value provided in ExpressionAttributeNames unused in expressions: keys: {#count}")
	_, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: key,
		UpdateExpression: aws.String("SET b = :w"), ConditionExpression: aws.String("a = :v"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":w": s("x")}})
	wantAPIError(t, err, validation, oneError+"Invalid ConditionExpression: An expression attribute value used in expression is not defined; attribute value: :v")
	_, err = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{{Update: &types.Update{
		TableName: aws.String("tbl"), Key: key, UpdateExpression: aws.String("SET a = :v SET b = :v"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":v": s("x")}}}}})
	wantAPIError(t, err, validation, `Invalid UpdateExpression: The "SET" section can only be used once in an update expression;`)
	_, err = c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("tbl"), ProjectionExpression: aws.String("pk"),
		ExpressionAttributeNames: map[string]string{"#u": "u"}})
	wantAPIError(t, err, validation, "Value provided in ExpressionAttributeNames unused in expressions: keys: {#u}")
}

// TestReadExpressionErrorsAreNotPrefixed: the reads report an empty
// expression and an unused name without the one-error prefix the
// single-item writes glue on.
func TestReadExpressionErrorsAreNotPrefixed(t *testing.T) {
	c := composite(t)
	_, err := c.Query(ctx, keyCond(&dynamodb.QueryInput{ProjectionExpression: aws.String("")}))
	wantAPIError(t, err, validation, "Invalid ProjectionExpression: The expression can not be empty;")
	_, err = c.Query(ctx, keyCond(&dynamodb.QueryInput{FilterExpression: aws.String("")}))
	wantAPIError(t, err, validation, "Invalid FilterExpression: The expression can not be empty;")
	_, err = c.Query(ctx, keyCond(&dynamodb.QueryInput{ExpressionAttributeNames: map[string]string{"#u": "u"}}))
	wantAPIError(t, err, validation, "Value provided in ExpressionAttributeNames unused in expressions: keys: {#u}")
	_, err = c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: map[string]types.AttributeValue{"pk": s("a"), "sk": s("b")},
		ProjectionExpression: aws.String("pk"), ExpressionAttributeNames: map[string]string{"#u": "u"}})
	wantAPIError(t, err, validation, "Value provided in ExpressionAttributeNames unused in expressions: keys: {#u}")
}

// TestPathOverlapNamesResolvedPaths: the overlap message prints each path
// with its names resolved and its elements comma-separated, and a name
// whose value holds a dot is one attribute, which overlaps nothing.
func TestPathOverlapNamesResolvedPaths(t *testing.T) {
	c := composite(t)
	key := map[string]types.AttributeValue{"pk": s("a"), "sk": s("b")}
	const overlap = oneError + "Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; "
	vals := map[string]types.AttributeValue{":h": s("h")}
	_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: key,
		UpdateExpression: aws.String("SET string_set.nested = :h, string_set.nested = :h"), ExpressionAttributeValues: vals})
	wantAPIError(t, err, validation, overlap+"path one: [string_set, nested], path two: [string_set, nested]")
	_, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: key,
		UpdateExpression: aws.String("SET #s = :h, #n = :h"), ExpressionAttributeNames: map[string]string{"#s": "string_set", "#n": "string_set"},
		ExpressionAttributeValues: vals})
	wantAPIError(t, err, validation, overlap+"path one: [string_set], path two: [string_set]")
	_, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: key,
		UpdateExpression: aws.String("SET string_set = :h, #n = :h"), ExpressionAttributeNames: map[string]string{"#n": "string_set.nested"},
		ExpressionAttributeValues: vals})
	if err != nil {
		t.Fatalf("a dotted name is one attribute: %v", err)
	}
}

// TestQuerySelectRulesOnAnIndexPrefixed: on an index, where
// ALL_PROJECTED_ATTRIBUTES is allowed, a projection beside a Select that
// returns whole items or a count is refused, with Query's prefix, for
// ProjectionExpression and legacy AttributesToGet alike.
func TestQuerySelectRulesOnAnIndexPrefixed(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createIndexed(t, c, "idx")
	keyConds := map[string]types.Condition{"gpk": {ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: []types.AttributeValue{s("v")}}}
	for sel, got := range map[types.Select]string{
		types.SelectAllAttributes:          "ALL_ATTRIBUTES",
		types.SelectAllProjectedAttributes: "ALL_PROJECTED_ATTRIBUTES",
		types.SelectCount:                  "only the Count",
	} {
		_, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("idx"), IndexName: aws.String("gsi"), Select: sel,
			KeyConditionExpression: aws.String("gpk = :v"), ExpressionAttributeValues: avMap{":v": s("v")}, ProjectionExpression: aws.String("gpk")})
		wantAPIError(t, err, validation, oneError+"Cannot specify the ProjectionExpression when choosing to get "+got)
		_, err = c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("idx"), IndexName: aws.String("gsi"), Select: sel,
			KeyConditions: keyConds, AttributesToGet: []string{"gpk"}})
		wantAPIError(t, err, validation, oneError+"Cannot specify the AttributesToGet when choosing to get "+got)
	}
	for _, sel := range []types.Select{types.SelectAllProjectedAttributes, types.SelectSpecificAttributes} {
		proj := aws.String("gpk")
		if sel == types.SelectAllProjectedAttributes {
			proj = nil
		}
		if _, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("idx"), IndexName: aws.String("gsi"), Select: sel,
			KeyConditionExpression: aws.String("gpk = :v"), ExpressionAttributeValues: avMap{":v": s("v")}, ProjectionExpression: proj}); err != nil {
			t.Errorf("%s on an index: %v", sel, err)
		}
	}
}

// rawCase is one request sent byte for byte and the answer it must get:
// success when code is "", else a 400 of type code whose message is msg,
// or contains part when msg is "".
type rawCase struct {
	name, op, body  string
	code, msg, part string
}

// runRawCases sends every case to srv, in order (later cases may depend on
// the writes of earlier ones).
func runRawCases(t *testing.T, srv *sortkeytest.Server, cases []rawCase) {
	t.Helper()
	for _, tc := range cases {
		r := postRaw(t, srv.URL, "DynamoDB_20120810."+tc.op, tc.body)
		code := r.Type[strings.LastIndexByte(r.Type, '#')+1:]
		switch {
		case tc.code == "" && r.status != http.StatusOK:
			t.Errorf("%s: status %d, body %.300s", tc.name, r.status, r.body)
		case tc.code == "":
		case r.status != http.StatusBadRequest || code != tc.code:
			t.Errorf("%s: status %d, body %.300s; want %s", tc.name, r.status, r.body, tc.code)
		case tc.msg != "" && r.Message != tc.msg:
			t.Errorf("%s:\n got %.300s\nwant %.300s", tc.name, r.Message, tc.msg)
		case tc.msg == "" && !strings.Contains(r.Message, tc.part):
			t.Errorf("%s: %.300q does not contain %q", tc.name, r.Message, tc.part)
		}
	}
}

// TestNumberValidationMessages checks that a value that is no number is
// refused with a message about a numeric value, in an item and in
// ExpressionAttributeValues, and that arithmetic past 38 digits is DynamoDB's
// overflow.
func TestNumberValidationMessages(t *testing.T) {
	srv := sortkeytest.New(t)
	createSimple(t, srv.Client(), "hhh")
	var cases []rawCase
	for _, bad := range []string{"NaN", "Infinity", "-Infinity", "-NaN", "dog", "-dog", " 1", "1 "} {
		cases = append(cases,
			rawCase{name: "facts 26.1 PutItem " + bad, op: "PutItem", code: validation,
				body: `{"TableName":"hhh","Item":{"pk":{"S":"a"},"v":{"N":"` + bad + `"}}}`,
				msg:  oneError + "The parameter cannot be converted to a numeric value: " + bad},
			rawCase{name: "facts 26.2 UpdateItem " + bad, op: "UpdateItem", code: validation, part: "numeric",
				body: `{"TableName":"hhh","Key":{"pk":{"S":"a"}},"UpdateExpression":"SET a = :val","ExpressionAttributeValues":{":val":{"N":"` + bad + `"}}}`})
	}
	for _, good := range []string{"3", "-7.1234", "-17e5", "-17.4E37", "+3", ".123", "0001.23", "1e+5"} {
		cases = append(cases, rawCase{name: "facts 26.2 UpdateItem " + good, op: "UpdateItem",
			body: `{"TableName":"hhh","Key":{"pk":{"S":"a"}},"UpdateExpression":"SET a = :val","ExpressionAttributeValues":{":val":{"N":"` + good + `"}}}`})
	}
	const overflow = "Number overflow. Attempting to store a number with magnitude larger than supported range"
	for _, op := range []string{"-", "+"} {
		cases = append(cases, rawCase{name: "facts 26.3 " + op, op: "UpdateItem", code: validation, msg: overflow,
			body: `{"TableName":"hhh","Key":{"pk":{"S":"a"}},"UpdateExpression":"SET b = :val1 ` + op + ` :val2","ExpressionAttributeValues":{":val1":{"N":"1e50"},":val2":{"N":"1"}}}`})
	}
	runRawCases(t, srv, cases)
}

// TestAttributeNameLimits checks the 64 KB attribute-name limit (65535
// bytes accepted, 65536 refused stating the limit) and empty names, in the
// six request shapes of facts 27.1 and 27.2.
func TestAttributeNameLimits(t *testing.T) {
	srv := sortkeytest.New(t)
	createSimple(t, srv.Client(), "hhh")
	shapes := []struct{ op, body string }{
		{"PutItem", `{"TableName":"hhh","Item":{"pk":{"S":"a"},"NAME":{"S":"x"}}}`},
		{"GetItem", `{"TableName":"hhh","Key":{"pk":{"S":"a"}},"ProjectionExpression":"#name","ExpressionAttributeNames":{"#name":"NAME"}}`},
		{"GetItem", `{"TableName":"hhh","Key":{"pk":{"S":"a"}},"AttributesToGet":["NAME"]}`},
		{"UpdateItem", `{"TableName":"hhh","Key":{"pk":{"S":"a"}},"AttributeUpdates":{"NAME":{"Action":"PUT","Value":{"S":"x"}}}}`},
		{"UpdateItem", `{"TableName":"hhh","Key":{"pk":{"S":"a"}},"UpdateExpression":"SET #name = :val","ExpressionAttributeNames":{"#name":"NAME"},"ExpressionAttributeValues":{":val":{"S":"x"}}}`},
		{"UpdateItem", `{"TableName":"hhh","Key":{"pk":{"S":"a"}},"ConditionExpression":"#name = :val","ExpressionAttributeNames":{"#name":"NAME"},"ExpressionAttributeValues":{":val":{"S":"x"}}}`},
		{"Query", `{"TableName":"hhh","KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"a"}]}},"QueryFilter":{"NAME":{"ComparisonOperator":"NOT_NULL"}}}`},
	}
	var cases []rawCase
	for i, sh := range shapes {
		with := func(name string) string { return strings.Replace(sh.body, "NAME", name, 1) }
		cases = append(cases,
			rawCase{name: fmt.Sprintf("facts 27.1 shape %d 65536", i), op: sh.op, body: with(strings.Repeat("x", 65536)), code: validation, part: "65536"},
			rawCase{name: fmt.Sprintf("facts 27.2 shape %d empty", i), op: sh.op, body: with(""), code: validation, part: "Empty attribute name"})
		if i != 5 && i != 6 { // a condition on a missing attribute fails; a filter on the key is refused
			cases = append(cases, rawCase{name: fmt.Sprintf("facts 27.1 shape %d 65535", i), op: sh.op, body: with(strings.Repeat("y", 65535))})
		}
	}
	runRawCases(t, srv, cases)
}

// TestItemOperationEnumsAndTableName checks that every invalid enum member
// is listed in one message, ReturnConsumedCapacity among them, and that a
// missing TableName on an item operation is the model's null violation.
func TestItemOperationEnumsAndTableName(t *testing.T) {
	srv := sortkeytest.New(t)
	createSimple(t, srv.Client(), "hhh")
	const (
		rv       = "Value 'INVALID' at 'returnValues' failed to satisfy constraint: Member must satisfy enum value set: [NONE, ALL_OLD, UPDATED_OLD, ALL_NEW, UPDATED_NEW]"
		rcc      = "Value 'INVALID' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]"
		ricm     = "Value 'INVALID' at 'returnItemCollectionMetrics' failed to satisfy constraint: Member must satisfy enum value set: [SIZE, NONE]"
		nullName = "Value null at 'tableName' failed to satisfy constraint: Member must not be null"
		key      = `"Key":{"pk":{"S":"a"}}`
		bad      = `"ReturnValues":"INVALID","ReturnConsumedCapacity":"INVALID"`
	)
	runRawCases(t, srv, []rawCase{
		{name: "facts 30.1 GetItem", op: "GetItem", body: `{"TableName":"hhh",` + key + `,"ReturnConsumedCapacity":"DUMMY"}`, code: validation,
			msg: oneError + strings.Replace(rcc, "INVALID", "DUMMY", 1)},
		{name: "facts 36.1 Query", op: "Query", code: validation, msg: oneError + rcc,
			body: `{"TableName":"hhh","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}},"ReturnConsumedCapacity":"INVALID"}`},
		{name: "facts 36.1 Scan", op: "Scan", body: `{"TableName":"hhh","ReturnConsumedCapacity":"INVALID"}`, code: validation, msg: oneError + rcc},
		{name: "facts 36.1 DeleteItem", op: "DeleteItem", body: `{"TableName":"hhh",` + key + `,` + bad + `}`, code: validation,
			msg: "2 validation errors detected: " + rv + "; " + rcc},
		{name: "facts 36.1 UpdateItem", op: "UpdateItem", body: `{"TableName":"hhh",` + key + `,` + bad + `}`, code: validation,
			msg: "2 validation errors detected: " + rv + "; " + rcc},
		{name: "facts 36.1 PutItem", op: "PutItem", body: `{"TableName":"hhh","Item":{"pk":{"S":"a"}},` + bad + `,"ReturnItemCollectionMetrics":"INVALID"}`, code: validation,
			msg: "3 validation errors detected: " + rv + "; " + rcc + "; " + ricm},
		{name: "facts 36.2 PutItem", op: "PutItem", body: `{"Item":{"pk":{"S":"a"}}}`, code: validation, msg: oneError + nullName},
		{name: "facts 36.2 PutItem and ReturnValues", op: "PutItem", body: `{"Item":{"pk":{"S":"a"}},"ReturnValues":"INVALID"}`, code: validation,
			msg: "2 validation errors detected: " + nullName + "; " + rv},
	})
}
