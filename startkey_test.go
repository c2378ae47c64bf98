package sortkey_test

import (
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// startKeyTable is pk/sk (S) with a GSI byG on g, holding a/1..a/3 and
// b/1, each with g = "g".
func startKeyTable(t *testing.T, c *dynamodb.Client) {
	t.Helper()
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("esk"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: attrDefs("pk", "sk", "g"), KeySchema: keySchema("pk", "sk"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("byG"), KeySchema: keySchema("g", ""),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"a/1", "a/2", "a/3", "b/1"} {
		if err := put(c, "esk", avMap{"pk": s(k[:1]), "sk": s(k[2:]), "g": s("g")}); err != nil {
			t.Fatal(err)
		}
	}
}

func TestStartKeyNotAKeyOfTheTableOrIndex(t *testing.T) {
	c := sortkeytest.New(t).Client()
	startKeyTable(t, c)
	bad := avMap{"pk": s("a")} // lacks sk
	_, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("esk"), ExclusiveStartKey: bad})
	wantAPIError(t, err, "ValidationException", "The provided starting key is invalid: The provided key element does not match the schema")
	_, err = c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("esk"), IndexName: aws.String("byG"),
		ExclusiveStartKey: avMap{"pk": s("a"), "sk": s("1")}})
	wantAPIError(t, err, "ValidationException", "The provided starting key is invalid")
	// facts 29.1: a Query's start key with the right names and a wrong type.
	_, err = c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("esk"), KeyConditionExpression: aws.String("pk = :p"),
		ExpressionAttributeValues: avMap{":p": s("a")}, ExclusiveStartKey: avMap{"pk": s("a"), "sk": n("1")}})
	wantAPIError(t, err, "ValidationException", "The provided key element does not match the schema")
	_, err = c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("esk"), KeyConditionExpression: aws.String("pk = :p"),
		ExpressionAttributeValues: avMap{":p": s("a")}, ExclusiveStartKey: avMap{"pk": s("a")}})
	wantAPIError(t, err, "ValidationException", "The provided starting key is invalid")
}

// TestQueryStartKeyMessages checks facts 29: a start key of the wrong
// types on a table with a number sort key, and any start key on a table
// without a sort key, whose partitions hold one item (and whose pages
// carry no LastEvaluatedKey).
func TestQueryStartKeyMessages(t *testing.T) {
	srv := sortkeytest.New(t)
	c := srv.Client()
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("nums"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("p"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("c"), AttributeType: types.ScalarAttributeTypeN}},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("p"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("c"), KeyType: types.KeyTypeRange}}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("hashp"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("p"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("p"), KeyType: types.KeyTypeHash}}})
	if err != nil {
		t.Fatal(err)
	}
	const keyConds = `"KeyConditions":{"p":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"x"}]}}`
	runRawCases(t, srv, []rawCase{
		{name: "seed", op: "PutItem", body: `{"TableName":"hashp","Item":{"p":{"S":"x"}}}`},
		{name: "facts 29.1 number partition key", op: "Query", code: validation, msg: "The provided key element does not match the schema",
			body: `{"TableName":"nums",` + keyConds + `,"ExclusiveStartKey":{"p":{"N":"7"},"c":{"N":"42"}}}`},
		{name: "facts 29.1 string sort key", op: "Query", code: validation, msg: "The provided key element does not match the schema",
			body: `{"TableName":"nums",` + keyConds + `,"ExclusiveStartKey":{"p":{"S":"x"},"c":{"S":"dog"}}}`},
		{name: "facts 29.2 hash-only table", op: "Query", code: validation,
			msg:  "The provided exclusive start key is invalid: ExclusiveStartKey: {p=AttributeValue: {S:x}}",
			body: `{"TableName":"hashp",` + keyConds + `,"ExclusiveStartKey":{"p":{"S":"x"}}}`},
	})
	out, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("hashp"), Limit: aws.Int32(1),
		KeyConditionExpression: aws.String("p = :p"), ExpressionAttributeValues: avMap{":p": s("x")}})
	if err != nil || out.Count != 1 || out.LastEvaluatedKey != nil {
		t.Errorf("Limit 1: %v, count %d, LastEvaluatedKey %v", err, out.Count, out.LastEvaluatedKey)
	}
}

func TestQueryStartKeyOutsideTheCondition(t *testing.T) {
	c := sortkeytest.New(t).Client()
	startKeyTable(t, c)
	q := func(cond string, vals avMap, esk avMap) error {
		_, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("esk"), KeyConditionExpression: aws.String(cond),
			ExpressionAttributeValues: vals, ExclusiveStartKey: esk})
		return err
	}
	err := q("pk = :p", avMap{":p": s("a")}, avMap{"pk": s("b"), "sk": s("1")})
	wantAPIError(t, err, "ValidationException", "The provided starting key is outside query boundaries based on provided condition")
	err = q("pk = :p AND sk >= :s", avMap{":p": s("a"), ":s": s("2")}, avMap{"pk": s("a"), "sk": s("1")})
	wantAPIError(t, err, "ValidationException", "The provided starting key does not match the range key predicate")
	err = q("pk = :p AND begins_with(sk, :s)", avMap{":p": s("a"), ":s": s("2")}, avMap{"pk": s("a"), "sk": s("1")})
	wantAPIError(t, err, "ValidationException", "The provided starting key does not match the range key predicate")
	if err := q("pk = :p AND sk >= :s", avMap{":p": s("a"), ":s": s("2")}, avMap{"pk": s("a"), "sk": s("2")}); err != nil {
		t.Fatalf("start key on the bound: %v", err)
	}
	_, err = c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("esk"), IndexName: aws.String("byG"), KeyConditionExpression: aws.String("g = :g"),
		ExpressionAttributeValues: avMap{":g": s("h")}, ExclusiveStartKey: avMap{"pk": s("a"), "sk": s("1"), "g": s("g")}})
	wantAPIError(t, err, "ValidationException", "The provided starting key is outside query boundaries based on provided condition")
}

// TestParallelScanStartKeyOfAnotherSegment passes each item's key, as
// returned by a one-item page of its own segment, to every other segment.
func TestParallelScanStartKeyOfAnotherSegment(t *testing.T) {
	c := sortkeytest.New(t).Client()
	startKeyTable(t, c)
	const total = 4
	refused := 0
	for seg := int32(0); seg < total; seg++ {
		out, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("esk"), Segment: aws.Int32(seg), TotalSegments: aws.Int32(total), Limit: aws.Int32(1)})
		if err != nil || out.LastEvaluatedKey == nil {
			continue
		}
		for other := int32(0); other < total; other++ {
			_, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("esk"), Segment: aws.Int32(other), TotalSegments: aws.Int32(total),
				ExclusiveStartKey: out.LastEvaluatedKey})
			if other == seg {
				if err != nil {
					t.Fatalf("own segment %d: %v", seg, err)
				}
				continue
			}
			wantAPIError(t, err, "ValidationException", fmt.Sprintf("The provided starting key is invalid: "+
				"Invalid ExclusiveStartKey. Please use ExclusiveStartKey with correct Segment. TotalSegments: %d Segment: %d", total, other))
			refused++
		}
	}
	if refused == 0 {
		t.Fatal("no segment held an item: the test proves nothing")
	}
}

func TestDuplicateAttributesToGet(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createTyped(t, c, "dup", types.ScalarAttributeTypeS)
	const msg = "One or more parameter values were invalid: Duplicate value in attribute name: a"
	key := avMap{"pk": s("p"), "sk": s("s")}
	_, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("dup"), Key: key, AttributesToGet: []string{"a", "b", "a"}})
	wantAPIError(t, err, "ValidationException", msg)
	_, err = c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
		"dup": {Keys: []map[string]types.AttributeValue{key}, AttributesToGet: []string{"a", "a"}}}})
	wantAPIError(t, err, "ValidationException", msg)
	_, err = c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("dup"), AttributesToGet: []string{"a", "a"},
		KeyConditions: map[string]types.Condition{"pk": {ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: []types.AttributeValue{s("p")}}}})
	wantAPIError(t, err, "ValidationException", msg)
	_, err = c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("dup"), AttributesToGet: []string{"a", "a"}})
	wantAPIError(t, err, "ValidationException", msg)
}
