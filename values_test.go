package sortkey_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

func TestNullMustBeTrue(t *testing.T) {
	srv := sortkeytest.New(t)
	createSimple(t, srv.Client(), "vals")
	const nullFalse = "One or more parameter values were invalid: Null attribute value types must have the value of true"
	const empty = "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"
	wantRaw(t, srv, "PutItem", `{"TableName":"vals","Item":{"pk":{"S":"a"},"n":{"NULL":false}}}`, "ValidationException", oneError+nullFalse)
	wantRaw(t, srv, "PutItem", `{"TableName":"vals","Item":{"pk":{"S":"a"},"n":{"M":{"x":{"NULL":false}}}}}`, "ValidationException", oneError+nullFalse)
	wantRaw(t, srv, "PutItem", `{"TableName":"vals","Item":{"pk":{"S":"a"},"n":{"NULL":null}}}`, "ValidationException", oneError+empty)
	wantRaw(t, srv, "PutItem", `{"TableName":"vals","Item":{"pk":{"S":"a"},"b":{"BOOL":null}}}`, "ValidationException", oneError+empty)
	wantRaw(t, srv, "UpdateItem", `{"TableName":"vals","Key":{"pk":{"S":"a"}},"UpdateExpression":"SET n = :n","ExpressionAttributeValues":{":n":{"NULL":false}}}`, "ValidationException",
		oneError+"ExpressionAttributeValues contains invalid value: "+nullFalse+" for key :n")
	wantRaw(t, srv, "TransactWriteItems", `{"TransactItems":[{"Put":{"TableName":"vals","Item":{"pk":{"S":"a"},"n":{"NULL":false}}}}]}`, "ValidationException", nullFalse)
	wantItemCount(t, srv.Client(), "vals", 0)
}

// TestNonBooleanBOOLIsSerializationException pins a deliberate difference
// from issue 15, which asks for a ValidationException: a report from the
// real service shows a BOOL holding a string, a number or an object
// failing in the JSON layer, before any validation, so sortkey answers as
// that report does (see docs/COMPATIBILITY.md).
func TestNonBooleanBOOLIsSerializationException(t *testing.T) {
	srv := sortkeytest.New(t)
	createSimple(t, srv.Client(), "vals")
	for body, msg := range map[string]string{
		`{"TableName":"vals","Item":{"pk":{"S":"a"},"b":{"BOOL":"yes"}}}`:  "STRING_VALUE cannot be converted to Boolean",
		`{"TableName":"vals","Item":{"pk":{"S":"a"},"b":{"BOOL":"true"}}}`: "STRING_VALUE cannot be converted to Boolean",
		`{"TableName":"vals","Item":{"pk":{"S":"a"},"b":{"BOOL":1}}}`:      "NUMBER_VALUE cannot be converted to Boolean",
	} {
		wantRaw(t, srv, "PutItem", body, "SerializationException", msg)
	}
	wantRaw(t, srv, "UpdateItem", `{"TableName":"vals","Key":{"pk":{"S":"a"}},"UpdateExpression":"SET b = :b","ExpressionAttributeValues":{":b":{"BOOL":"yes"}}}`,
		"SerializationException", "STRING_VALUE cannot be converted to Boolean")
	wantItemCount(t, srv.Client(), "vals", 0)
}

func TestEmptySetMessages(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "vals")
	const (
		emptySS = oneError + "One or more parameter values were invalid: An string set  may not be empty"
		emptyNS = oneError + "One or more parameter values were invalid: An number set  may not be empty"
		emptyBS = oneError + "One or more parameter values were invalid: Binary sets should not be empty"
	)
	item := func(k string, v types.AttributeValue) map[string]types.AttributeValue {
		return map[string]types.AttributeValue{"pk": s("a"), k: v}
	}
	update := func(expr string, v types.AttributeValue) error {
		_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("vals"), Key: pk("a"),
			UpdateExpression: aws.String(expr), ExpressionAttributeValues: map[string]types.AttributeValue{":e": v}})
		return err
	}
	wantAPIError(t, put(c, "vals", item("ss", &types.AttributeValueMemberSS{Value: []string{}})), "ValidationException", emptySS)
	wantAPIError(t, put(c, "vals", item("m", &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
		"SS": &types.AttributeValueMemberNS{Value: []string{}}}})), "ValidationException", emptyNS)
	wantAPIError(t, put(c, "vals", item("bs", &types.AttributeValueMemberBS{Value: [][]byte{}})), "ValidationException", emptyBS)
	wantAPIError(t, update("ADD stringset :e", &types.AttributeValueMemberSS{Value: []string{}}), "ValidationException", emptySS)
	wantAPIError(t, update("SET x = :e", &types.AttributeValueMemberNS{Value: []string{}}), "ValidationException", emptyNS)
	wantAPIError(t, update("SET x = :e", &types.AttributeValueMemberL{Value: []types.AttributeValue{
		&types.AttributeValueMemberBS{Value: [][]byte{}}}}), "ValidationException", emptyBS)
	if err := put(c, "vals", item("stringset", &types.AttributeValueMemberSS{Value: []string{"item1"}})); err != nil {
		t.Fatal(err)
	}
	wantAPIError(t, update("ADD stringset :e", &types.AttributeValueMemberSS{Value: []string{}}), "ValidationException", emptySS)
	got, _ := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("vals"), Key: pk("a")})
	if ss, _ := got.Item["stringset"].(*types.AttributeValueMemberSS); ss == nil || len(ss.Value) != 1 || len(got.Item) != 2 {
		t.Fatalf("a refused update changed the item: %v", got.Item)
	}
}

func TestDuplicateSetMembers(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "vals")
	err := put(c, "vals", map[string]types.AttributeValue{"pk": s("a"), "ss": &types.AttributeValueMemberSS{Value: []string{"b", "a", "b"}}})
	wantAPIError(t, err, "ValidationException", oneError+"One or more parameter values were invalid: Input collection [b, a, b] contains duplicates.")
	err = put(c, "vals", map[string]types.AttributeValue{"pk": s("a"), "ns": &types.AttributeValueMemberNS{Value: []string{"1", "1.0"}}})
	wantAPIError(t, err, "ValidationException", oneError+"One or more parameter values were invalid: Input collection [1, 1.0] contains duplicates.")
	_, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("vals"), Key: pk("a"), UpdateExpression: aws.String("ADD ns :n"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":n": &types.AttributeValueMemberNS{Value: []string{"2", "2"}}}})
	wantAPIError(t, err, "ValidationException", oneError+"ExpressionAttributeValues contains invalid value: Input collection contains duplicates for key :n")
	wantItemCount(t, c, "vals", 0)
}

func TestValuesWithoutExpressionNameTheMissingExpressions(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "vals")
	vals := map[string]types.AttributeValue{":v": s("unused")}
	_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("vals"), Item: pk("a"), ExpressionAttributeValues: vals})
	wantAPIError(t, err, "ValidationException", "ExpressionAttributeValues can only be specified when using expressions: ConditionExpression is null")
	_, err = c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("vals"), Key: pk("a"), ExpressionAttributeValues: vals})
	wantAPIError(t, err, "ValidationException", "ExpressionAttributeValues can only be specified when using expressions: ConditionExpression is null")
	_, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("vals"), Key: pk("a"), ExpressionAttributeValues: vals})
	wantAPIError(t, err, "ValidationException", "ExpressionAttributeValues can only be specified when using expressions: UpdateExpression and ConditionExpression are null")
}

// TestSingleWriteExpressionErrorsArePrefixed checks the facts behind rule 1:
// PutItem, UpdateItem and DeleteItem prefix their expression messages,
// TransactWriteItems does not.
func TestSingleWriteExpressionErrorsArePrefixed(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "vals")
	upd := func(expr string, names map[string]string, vals map[string]types.AttributeValue) error {
		_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("vals"), Key: pk("a"),
			UpdateExpression: aws.String(expr), ExpressionAttributeNames: names, ExpressionAttributeValues: vals})
		return err
	}
	one := map[string]types.AttributeValue{":one": n("1")}
	wantAPIError(t, upd("", nil, map[string]types.AttributeValue{":order": &types.AttributeValueMemberSS{Value: []string{"item"}}}),
		"ValidationException", oneError+"Invalid UpdateExpression: The expression can not be empty;")
	wantAPIError(t, upd("SET #d = :s", map[string]string{"#d": "d"}, map[string]types.AttributeValue{}),
		"ValidationException", oneError+"ExpressionAttributeValues must not be empty")
	wantAPIError(t, upd("ADD x :one SET a = :one ADD y :one", nil, one),
		"ValidationException", oneError+`Invalid UpdateExpression: The "ADD" section can only be used once in an update expression;`)
	wantAPIError(t, upd("SET spec.#limit = :limit", map[string]string{"#count": "count", "#limit": "limit"},
		map[string]types.AttributeValue{":countChange": n("1"), ":limit": s("limit")}),
		"ValidationException", oneError+"Value provided in ExpressionAttributeNames unused in expressions: keys: {#count}")
	wantAPIError(t, upd("SET #s = :h, #s = :h", map[string]string{"#s": "string_set"}, map[string]types.AttributeValue{":h": s("h")}),
		"ValidationException", oneError+"Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [string_set], path two: [string_set]")
	_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("vals"), Key: pk("a"),
		UpdateExpression: aws.String("SET b = :w"), ConditionExpression: aws.String("a = :v"), ExpressionAttributeValues: map[string]types.AttributeValue{":w": s("x")}})
	wantAPIError(t, err, "ValidationException", oneError+"Invalid ConditionExpression: An expression attribute value used in expression is not defined; attribute value: :v")
	names := map[string]string{"#count": "count"}
	_, err = c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("vals"), Item: pk("a"),
		ConditionExpression: aws.String("attribute_not_exists(body)"), ExpressionAttributeNames: names})
	wantAPIError(t, err, "ValidationException", oneError+"Value provided in ExpressionAttributeNames unused in expressions: keys: {#count}")
	_, err = c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("vals"), Key: pk("a"),
		ConditionExpression: aws.String("attribute_not_exists(body)"), ExpressionAttributeNames: names})
	wantAPIError(t, err, "ValidationException", oneError+"Value provided in ExpressionAttributeNames unused in expressions: keys: {#count}")
}

func TestTransactionExpressionErrorsAreNotPrefixed(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "vals")
	tx := func(expr string, vals map[string]types.AttributeValue) error {
		_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{{Update: &types.Update{
			TableName: aws.String("vals"), Key: pk("a"), UpdateExpression: aws.String(expr), ExpressionAttributeValues: vals}}}})
		return err
	}
	wantAPIError(t, tx("SET a = :v SET b = :v", map[string]types.AttributeValue{":v": s("x")}),
		"ValidationException", `Invalid UpdateExpression: The "SET" section can only be used once in an update expression;`)
	wantAPIError(t, tx("SET a = :v", map[string]types.AttributeValue{}), "ValidationException", "ExpressionAttributeValues must not be empty")
}

// TestKeyAttributeAsDocumentPath checks that a key condition on a nested
// path is refused as DynamoDB refuses it, before the table is looked up.
func TestKeyAttributeAsDocumentPath(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createTyped(t, c, "nst", types.ScalarAttributeTypeS)
	const nested = "Invalid KeyConditionExpression: KeyConditionExpressions cannot have conditions on nested attributes"
	for _, tc := range []struct{ table, cond string }{
		{"nst", "pk.x = :p"},
		{"nst", "pk = :p AND sk[0] = :p"},
		{"nst", "#k.x = :p"},
		{"missing", "pk = :p AND begins_with(sk.x, :p)"},
	} {
		in := &dynamodb.QueryInput{TableName: aws.String(tc.table), KeyConditionExpression: aws.String(tc.cond),
			ExpressionAttributeValues: map[string]types.AttributeValue{":p": s("a")}}
		if containsToken(tc.cond, "#k") {
			in.ExpressionAttributeNames = map[string]string{"#k": "pk"}
		}
		_, err := c.Query(ctx, in)
		wantAPIError(t, err, "ValidationException", nested)
	}
}
