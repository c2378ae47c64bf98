package sortkey_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

func TestUpdateOnlyRemoveOnMissingItemCreatesNothing(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "upd")
	for _, tc := range []struct {
		expr string
		vals avMap
	}{
		{"REMOVE a, b", nil},
		{"DELETE s :s", avMap{":s": &types.AttributeValueMemberSS{Value: []string{"x"}}}},
		{"REMOVE a DELETE s :s", avMap{":s": &types.AttributeValueMemberSS{Value: []string{"x"}}}},
	} {
		out, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("upd"), Key: pk("missing"),
			UpdateExpression: aws.String(tc.expr), ExpressionAttributeValues: tc.vals, ReturnValues: types.ReturnValueAllNew})
		if err != nil || len(out.Attributes) != 0 {
			t.Fatalf("%s: %v %v", tc.expr, err, out)
		}
	}
	_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("upd"), Key: pk("missing"),
		AttributeUpdates: map[string]types.AttributeValueUpdate{"a": {Action: types.AttributeActionDelete}}})
	if err != nil {
		t.Fatal(err)
	}
	wantItemCount(t, c, "upd", 0)
	// An update that writes something still creates the item.
	_, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("upd"), Key: pk("made"),
		UpdateExpression: aws.String("REMOVE a SET b = :b"), ExpressionAttributeValues: avMap{":b": s("x")}})
	if err != nil {
		t.Fatal(err)
	}
	wantItemCount(t, c, "upd", 1)
}

func TestGetItemProjectionMatchingNothingReturnsEmptyItem(t *testing.T) {
	srv := sortkeytest.New(t)
	c := srv.Client()
	createSimple(t, c, "proj")
	if err := put(c, "proj", avMap{"pk": s("a"), "x": s("1")}); err != nil {
		t.Fatal(err)
	}
	for _, in := range []*dynamodb.GetItemInput{
		{TableName: aws.String("proj"), Key: pk("a"), ProjectionExpression: aws.String("nope")},
		{TableName: aws.String("proj"), Key: pk("a"), AttributesToGet: []string{"nope"}},
	} {
		out, err := c.GetItem(ctx, in)
		if err != nil || out.Item == nil || len(out.Item) != 0 {
			t.Fatalf("existing item: %v %#v", err, out.Item)
		}
	}
	out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("proj"), Key: pk("b"), ProjectionExpression: aws.String("nope")})
	if err != nil || out.Item != nil {
		t.Fatalf("missing item: %v %#v", err, out.Item)
	}
}

// TestDeleteTableReturnsReducedDescription checks that DeleteTable answers
// with status, ids, ARN, billing and throughput only: none of the members
// DescribeTable adds, indexes included (facts 32.1, 32.2; rule 14).
func TestDeleteTableReturnsReducedDescription(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createMusic(t, c, "Music")
	createSimple(t, c, "plain")
	if err := put(c, "Music", everyType()); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Music", "plain"} {
		d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		if err != nil {
			t.Fatal(err)
		}
		out, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)})
		if err != nil {
			t.Fatal(err)
		}
		got, want := out.TableDescription, d.Table
		if got.TableStatus != types.TableStatusDeleting || *got.TableName != name || *got.TableArn != *want.TableArn || *got.TableId != *want.TableId {
			t.Fatalf("%s: status %s, name, ARN or id differ: %+v", name, got.TableStatus, got)
		}
		if got.BillingModeSummary == nil || got.BillingModeSummary.BillingMode != types.BillingModePayPerRequest ||
			got.BillingModeSummary.LastUpdateToPayPerRequestDateTime == nil ||
			got.ProvisionedThroughput == nil || *got.ProvisionedThroughput.ReadCapacityUnits != 0 || *got.ProvisionedThroughput.NumberOfDecreasesToday != 0 {
			t.Fatalf("%s: billing %+v, throughput %+v", name, got.BillingModeSummary, got.ProvisionedThroughput)
		}
		if got.CreationDateTime != nil || got.KeySchema != nil || got.AttributeDefinitions != nil || got.GlobalSecondaryIndexes != nil ||
			got.LocalSecondaryIndexes != nil || got.ItemCount != nil || got.TableSizeBytes != nil {
			t.Fatalf("%s: DeleteTable description has more than DynamoDB's members: %+v", name, got)
		}
	}
}

// TestKeyConditionsWithFilterAndProjectionExpressions checks rule 10:
// KeyConditions conflicts only with KeyConditionExpression.
func TestKeyConditionsWithFilterAndProjectionExpressions(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createTyped(t, c, "kcs", types.ScalarAttributeTypeS)
	for _, it := range []avMap{{"pk": s("a"), "sk": s("1"), "n": s("x")}, {"pk": s("a"), "sk": s("2"), "n": s("y")}} {
		if err := put(c, "kcs", it); err != nil {
			t.Fatal(err)
		}
	}
	kc := map[string]types.Condition{"pk": {ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: []types.AttributeValue{s("a")}}}
	out, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("kcs"), KeyConditions: kc,
		FilterExpression: aws.String("#n = :v"), ExpressionAttributeNames: map[string]string{"#n": "n"}, ExpressionAttributeValues: avMap{":v": s("x")}})
	if err != nil || out.Count != 1 || out.ScannedCount != 2 {
		t.Fatalf("KeyConditions + FilterExpression: %v %+v", err, out)
	}
	out, err = c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("kcs"), KeyConditions: kc, ProjectionExpression: aws.String("sk")})
	if err != nil || out.Count != 2 || len(out.Items[0]) != 1 || out.Items[0]["sk"] == nil {
		t.Fatalf("KeyConditions + ProjectionExpression: %v %+v", err, out)
	}
	const mixed = "Can not use both expression and non-expression parameters in the same request: "
	_, err = c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("kcs"), KeyConditions: kc, AttributesToGet: []string{"sk"},
		FilterExpression: aws.String("n = :v"), ExpressionAttributeValues: avMap{":v": s("x")}})
	wantAPIError(t, err, "ValidationException", mixed+"Non-expression parameters: {AttributesToGet} Expression parameters: {FilterExpression}")
	_, err = c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("kcs"), KeyConditions: kc, ProjectionExpression: aws.String("sk"),
		QueryFilter: map[string]types.Condition{"n": {ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: []types.AttributeValue{s("x")}}}})
	wantAPIError(t, err, "ValidationException", mixed+"Non-expression parameters: {QueryFilter} Expression parameters: {ProjectionExpression}")
	_, err = c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("kcs"), KeyConditions: kc,
		KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: avMap{":p": s("a")}})
	wantAPIError(t, err, "ValidationException", mixed+"Non-expression parameters: {KeyConditions} Expression parameters: {KeyConditionExpression}")
}

// TestSetValueInParentheses checks rule 11: a SET value, or either operand
// of its + or -, may be wrapped in parentheses.
func TestSetValueInParentheses(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "par")
	if err := put(c, "par", avMap{"pk": s("a"), "c": n("10")}); err != nil {
		t.Fatal(err)
	}
	vals := avMap{":v": n("3"), ":zero": n("0")}
	for _, tc := range []struct{ expr, attr, want string }{
		{"SET c = (c - :v)", "c", "7"},
		{"SET #n = (if_not_exists(#n, :zero) + :v)", "counter", "3"},
		{"SET #n = (if_not_exists(#n, :zero) - :v)", "counter", "0"},
		{"SET d = (:v)", "d", "3"},
		{"SET c = ((c) + (:v))", "c", "10"},
	} {
		in := &dynamodb.UpdateItemInput{TableName: aws.String("par"), Key: pk("a"), UpdateExpression: aws.String(tc.expr),
			ExpressionAttributeValues: usedOnly(tc.expr, vals), ReturnValues: types.ReturnValueUpdatedNew}
		if tc.attr == "counter" {
			in.ExpressionAttributeNames = map[string]string{"#n": "counter"}
		}
		out, err := c.UpdateItem(ctx, in)
		if err != nil {
			t.Fatalf("%s: %v", tc.expr, err)
		}
		if got, _ := out.Attributes[tc.attr].(*types.AttributeValueMemberN); got == nil || got.Value != tc.want {
			t.Fatalf("%s: %s = %v, want %s", tc.expr, tc.attr, out.Attributes[tc.attr], tc.want)
		}
	}
	_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{{Update: &types.Update{
		TableName: aws.String("par"), Key: pk("a"), UpdateExpression: aws.String("SET c = (c + :v)"), ExpressionAttributeValues: avMap{":v": n("3")}}}}})
	if err != nil {
		t.Fatalf("transaction: %v", err)
	}
	_, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("par"), Key: pk("a"),
		UpdateExpression: aws.String("SET c = (c + :v) + :v"), ExpressionAttributeValues: avMap{":v": n("3")}})
	wantAPIError(t, err, "ValidationException", oneError+`Invalid UpdateExpression: Syntax error; token: "+", near: ") + :v"`)
}

// usedOnly keeps the values expr names, so that none is unused.
func usedOnly(expr string, vals avMap) avMap {
	out := avMap{}
	for k, v := range vals {
		if containsToken(expr, k) {
			out[k] = v
		}
	}
	return out
}

// TestParenthesesInConditionsAndKeyConditions: one pair of parentheses
// around any condition is accepted; a pair around nothing but another
// pair is refused as redundant (facts 23.5).
func TestParenthesesInConditionsAndKeyConditions(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createTyped(t, c, "par", types.ScalarAttributeTypeS)
	if err := put(c, "par", avMap{"pk": s("a"), "sk": s("1"), "x": s("x")}); err != nil {
		t.Fatal(err)
	}
	vals := avMap{":p": s("a"), ":s": s("0"), ":x": s("x")}
	query := func(key, filter string) (*dynamodb.QueryOutput, error) {
		return c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("par"),
			KeyConditionExpression: aws.String(key), FilterExpression: aws.String(filter), ExpressionAttributeValues: vals})
	}
	out, err := query("(pk = :p) AND (sk > :s)", "(x = :x)")
	if err != nil || out.Count != 1 {
		t.Fatalf("Query: %v %+v", err, out)
	}
	_, err = query("((pk = :p)) AND (sk > :s)", "(x = :x)")
	wantAPIError(t, err, validation, "Invalid KeyConditionExpression: The expression has redundant parentheses;")
	_, err = query("(pk = :p) AND (sk > :s)", "(((x = :x)))")
	wantAPIError(t, err, validation, "Invalid FilterExpression: The expression has redundant parentheses;")
	_, err = c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("par"), Key: avMap{"pk": s("a"), "sk": s("1")},
		ConditionExpression: aws.String("(NOT (x <> :x)) AND ((attribute_exists(pk)))"), ExpressionAttributeValues: avMap{":x": s("x")}})
	wantAPIError(t, err, validation, oneError+"Invalid ConditionExpression: The expression has redundant parentheses;")
	_, err = c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("par"), Key: avMap{"pk": s("a"), "sk": s("1")},
		ConditionExpression: aws.String("(NOT (x <> :x)) AND (attribute_exists(pk))"), ExpressionAttributeValues: avMap{":x": s("x")}})
	if err != nil {
		t.Fatalf("DeleteItem: %v", err)
	}
}

// TestAttributeTypeFromPlaceholder checks attribute_type with its type
// given as an expression attribute value, in a condition and a filter.
func TestAttributeTypeFromPlaceholder(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "att")
	if err := put(c, "att", avMap{"pk": s("a"), "v": n("1")}); err != nil {
		t.Fatal(err)
	}
	out, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("att"), FilterExpression: aws.String("attribute_type(v, :t)"),
		ExpressionAttributeValues: avMap{":t": s("N")}})
	if err != nil || out.Count != 1 {
		t.Fatalf("filter: %v %+v", err, out)
	}
	_, err = c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("att"), Item: avMap{"pk": s("a")},
		ConditionExpression: aws.String("attribute_type(#v, :t)"), ExpressionAttributeNames: map[string]string{"#v": "v"}, ExpressionAttributeValues: avMap{":t": s("S")}})
	wantAPIError(t, err, "ConditionalCheckFailedException", "The conditional request failed")
	_, err = c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("att"), FilterExpression: aws.String("attribute_type(v, :t)"),
		ExpressionAttributeValues: avMap{":t": s("STRING")}})
	wantAPIError(t, err, "ValidationException", "Invalid FilterExpression: Invalid attribute type name found; type: STRING, valid types: { B,NULL,SS,BOOL,L,BS,N,NS,S,M }")
}
