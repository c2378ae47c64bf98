package sortkey_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// collectionLimit is low so that a test reaches it in a few items.
const collectionLimit = 4000

// createWithLSI creates "coll": PK/SK with an LSI on Rank projecting ALL,
// so each item counts once in the table and once (plus 100 bytes) in the
// index.
func createWithLSI(t *testing.T, c *dynamodb.Client) {
	t.Helper()
	ks := func(h, r string) []types.KeySchemaElement {
		return []types.KeySchemaElement{{AttributeName: aws.String(h), KeyType: types.KeyTypeHash}, {AttributeName: aws.String(r), KeyType: types.KeyTypeRange}}
	}
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("coll"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: "S"},
			{AttributeName: aws.String("SK"), AttributeType: "S"}, {AttributeName: aws.String("Rank"), AttributeType: "N"}},
		KeySchema: ks("PK", "SK"),
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{{IndexName: aws.String("ByRank"), KeySchema: ks("PK", "Rank"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}})
	if err != nil {
		t.Fatal(err)
	}
}

// bigItem is about 500 bytes, so it adds about 1,100 to its collection.
func bigItem(pk string, i int) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"PK": s(pk), "SK": s(fmt.Sprintf("S%02d", i)), "Rank": n(fmt.Sprint(i + 1)), "Pad": s(strings.Repeat("x", 480))}
}

func TestItemCollectionSizeLimit(t *testing.T) {
	c := sortkeytest.NewWithOptions(t, &sortkey.Options{InMemory: true, ItemCollectionLimit: collectionLimit}).Client()
	createWithLSI(t, c)
	for i := range 3 {
		if err := put(c, "coll", bigItem("A", i)); err != nil {
			t.Fatal(err)
		}
	}
	err := put(c, "coll", bigItem("A", 3))
	var tooBig *types.ItemCollectionSizeLimitExceededException
	if !errors.As(err, &tooBig) {
		t.Fatalf("fourth item of collection A: %v, want ItemCollectionSizeLimitExceededException", err)
	}
	if got, _ := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("coll"), Key: map[string]types.AttributeValue{"PK": s("A"), "SK": s("S03")}}); got.Item != nil {
		t.Fatal("the refused item was written")
	}
	if err := put(c, "coll", bigItem("B", 0)); err != nil {
		t.Fatalf("another collection is not full: %v", err)
	}
	if _, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("coll"), Key: map[string]types.AttributeValue{"PK": s("A"), "SK": s("S00")}}); err != nil {
		t.Fatal(err)
	}
	if err := put(c, "coll", bigItem("A", 3)); err != nil {
		t.Fatalf("after a delete the collection has room: %v", err)
	}
	checkSizes(t, c, 4)
}

// checkSizes checks DescribeTable's sizes for n items made by bigItem with
// a one-digit Rank: each is PK(2+1) + SK(2+3) + Rank(4+2) + Pad(3+480)
// bytes in the table, and 100 bytes more as an index entry.
func checkSizes(t *testing.T, c *dynamodb.Client, n int64) {
	t.Helper()
	const itemSize = 3 + 5 + 6 + 483
	d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("coll")})
	if err != nil {
		t.Fatal(err)
	}
	l := d.Table.LocalSecondaryIndexes[0]
	if *d.Table.ItemCount != n || *d.Table.TableSizeBytes != n*itemSize || *l.ItemCount != n || *l.IndexSizeBytes != n*(itemSize+100) {
		t.Fatalf("table %d items / %d bytes, index %d / %d; want %d / %d and %d / %d", *d.Table.ItemCount, *d.Table.TableSizeBytes,
			*l.ItemCount, *l.IndexSizeBytes, n, n*itemSize, n, n*(itemSize+100))
	}
}
