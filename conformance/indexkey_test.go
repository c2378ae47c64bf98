package conformance_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// createIndexed creates a table keyed (pk, sk) with a GSI keyed (gpk, gsk)
// and an LSI keyed (pk, lsk), all strings.
func createIndexed(t *testing.T, c *dynamodb.Client, name string) {
	t.Helper()
	def := func(n string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS}
	}
	key := func(h, r string) []types.KeySchemaElement {
		return []types.KeySchemaElement{{AttributeName: aws.String(h), KeyType: types.KeyTypeHash}, {AttributeName: aws.String(r), KeyType: types.KeyTypeRange}}
	}
	all := &types.Projection{ProjectionType: types.ProjectionTypeAll}
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions:   []types.AttributeDefinition{def("pk"), def("sk"), def("gpk"), def("gsk"), def("lsk")},
		KeySchema:              key("pk", "sk"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("gsi"), KeySchema: key("gpk", "gsk"), Projection: all}},
		LocalSecondaryIndexes:  []types.LocalSecondaryIndex{{IndexName: aws.String("lsi"), KeySchema: key("pk", "lsk"), Projection: all}}})
	if err != nil {
		t.Fatal(err)
	}
}

func sized(n int) types.AttributeValue { return s(strings.Repeat("x", n)) }

// TestIndexKeyTooLongIsRefused: a value for a GSI partition key over 2048
// bytes, or for a GSI or LSI sort key over 1024 bytes, is refused on every
// write path with DynamoDB's text; values at the limits are accepted.
func TestIndexKeyTooLongIsRefused(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createIndexed(t, c, "tbl")
	item := func(attr string, size int) avMap {
		return avMap{"pk": s("p"), "sk": s(attr), attr: sized(size)}
	}
	for _, ok := range []avMap{item("gpk", 2048), item("gsk", 1024), item("lsk", 1024)} {
		if err := put(c, "tbl", ok); err != nil {
			t.Fatalf("a key value at the limit: %v", err)
		}
	}
	text := "One or more parameter values were invalid: Size limit exceeded for Index Key %s Actual Size: %d bytes Max Size: %d bytes IndexName: %s"
	wantAPIError(t, put(c, "tbl", item("gpk", 2049)), "ValidationException", fmt.Sprintf(text, "gpk", 2049, 2048, "gsi"))
	wantAPIError(t, put(c, "tbl", item("gsk", 1025)), "ValidationException", fmt.Sprintf(text, "gsk", 1025, 1024, "gsi"))
	wantAPIError(t, put(c, "tbl", item("lsk", 1025)), "ValidationException", fmt.Sprintf(text, "lsk", 1025, 1024, "lsi"))
	_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: avMap{"pk": s("p"), "sk": s("u")},
		UpdateExpression: aws.String("SET gsk = :v"), ExpressionAttributeValues: avMap{":v": sized(1025)}})
	wantAPIError(t, err, "ValidationException", fmt.Sprintf(text, "gsk", 1025, 1024, "gsi"))
	_, err = batchWrite(c, map[string][]types.WriteRequest{"tbl": {putReq(item("gpk", 3000))}})
	wantAPIError(t, err, "ValidationException", fmt.Sprintf(text, "gpk", 3000, 2048, "gsi"))
	// In a transaction, a Put judged from the request (facts 34.3) and an
	// Update once applied to the item both cancel it.
	for _, act := range []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String("tbl"), Item: item("lsk", 1025)}},
		{Update: &types.Update{TableName: aws.String("tbl"), Key: avMap{"pk": s("p"), "sk": s("t")},
			UpdateExpression: aws.String("SET gsk = :v"), ExpressionAttributeValues: avMap{":v": sized(1025)}}},
	} {
		_, err = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{act}})
		var canceled *types.TransactionCanceledException
		if !errors.As(err, &canceled) || len(canceled.CancellationReasons) != 1 || aws.ToString(canceled.CancellationReasons[0].Code) != "ValidationError" {
			t.Fatalf("transaction write of a too-long index key: %v", err)
		}
	}
	if out, _ := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("tbl")}); out.Count != 3 {
		t.Fatalf("%d items, want only the 3 at the limits", out.Count)
	}
}

// TestBackfillLeavesOutItemsWhoseIndexKeyIsTooLong: as the Developer Guide
// describes index key violations, such an item stays in the table and has
// no entry in the new index.
func TestBackfillLeavesOutItemsWhoseIndexKeyIsTooLong(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createPKSK(t, c, "online")
	for i, size := range []int{10, 2049, 20} {
		if err := put(c, "online", avMap{"PK": s(fmt.Sprint(i)), "SK": s("s"), "G": sized(size)}); err != nil {
			t.Fatal(err)
		}
	}
	_, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("online"),
		AttributeDefinitions:        []types.AttributeDefinition{{AttributeName: aws.String("G"), AttributeType: "S"}, {AttributeName: aws.String("SK"), AttributeType: "S"}},
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: byG()}}})
	if err != nil {
		t.Fatal(err)
	}
	if g := waitActive(t, c, "online", "ByG"); *g.ItemCount != 2 {
		t.Fatalf("index holds %d items, want 2", *g.ItemCount)
	}
}
