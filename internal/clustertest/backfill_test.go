package clustertest_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/internal/clustertest"
)

// backfillItems is how many items the table holds before the index is
// added: enough that its backfill is still running when the node doing
// it is killed.
const backfillItems = 3000

// An index added while writers run through every node, the node
// backfilling it (the lease holder) killed midway: another node takes the
// lease and finishes the backfill, and the index ends ACTIVE and equal
// to its table.
func TestBackfillSurvivesItsNode(t *testing.T) {
	c := clustertest.Start(t, testStore(t), clustertest.Options{Nodes: *nodeCount})
	ctx := context.Background()
	createTable(t, c, "filled")
	fill(t, c.Client(1), "filled", backfillItems)
	stop := writeOnEveryNode(c, "filled")
	_, err := c.Client(0).UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("filled"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("g"), AttributeType: types.ScalarAttributeTypeS}},
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName: aws.String("byG"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
			KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	status := indexStatus(t, c.Client(1), "filled")
	if err := c.Kill(0); err != nil {
		t.Fatal(err)
	}
	t.Logf("node 0, the lease holder, killed with the index %s", status)
	waitIndexActive(t, c.Client(1), "filled", 2*time.Minute)
	writes := stop()
	table, index := scanAll(t, c.Client(1), "filled", nil), scanAll(t, c.Client(2), "filled", aws.String("byG"))
	if len(table) != len(index) {
		t.Fatalf("%d items in the table, %d in the index", len(table), len(index))
	}
	for k, v := range table {
		if index[k] != v {
			t.Fatalf("item %s: %q in the table, %q in the index", k, v, index[k])
		}
	}
	t.Logf("the index holds all %d items, as the table does, after %d writes during the backfill", len(table), writes)
}

// fill writes n items, each with its own g, through client.
func fill(t *testing.T, client *dynamodb.Client, table string, n int) {
	t.Helper()
	for i := 0; i < n; i += 25 {
		var reqs []types.WriteRequest
		for j := i; j < min(i+25, n); j++ {
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: gItem(j, "v0")}})
		}
		if _, err := client.BatchWriteItem(context.Background(), &dynamodb.BatchWriteItemInput{
			RequestItems: map[string][]types.WriteRequest{table: reqs}}); err != nil {
			t.Fatal(err)
		}
	}
}

func gItem(i int, v string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"k": &types.AttributeValueMemberS{Value: fmt.Sprint("item", i)},
		"g": &types.AttributeValueMemberS{Value: fmt.Sprint("g", i%97)}, "v": &types.AttributeValueMemberS{Value: v}}
}

// writeOnEveryNode overwrites random items through every node, two
// writers each, until the returned stop, which answers how many writes
// were acknowledged. A writer whose node is dead moves to the next.
func writeOnEveryNode(c *clustertest.Cluster, table string) (stop func() int64) {
	var done atomic.Bool
	var acked atomic.Int64
	var wg sync.WaitGroup
	for w := range 2 * c.Len() {
		wg.Go(func() {
			for n := 0; !done.Load(); n++ {
				node := (w + n) % c.Len()
				if !c.Alive(node) {
					continue
				}
				it := gItem(rand.N(backfillItems+200), fmt.Sprint("w", w, "-", n))
				if _, err := c.Client(node).PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: it}); err == nil {
					acked.Add(1)
				}
			}
		})
	}
	return func() int64 {
		done.Store(true)
		wg.Wait()
		return acked.Load()
	}
}

func indexStatus(t *testing.T, client *dynamodb.Client, table string) types.IndexStatus {
	t.Helper()
	out, err := client.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	if err != nil {
		t.Fatal(err)
	}
	return out.Table.GlobalSecondaryIndexes[0].IndexStatus
}

func waitIndexActive(t *testing.T, client *dynamodb.Client, table string, limit time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if indexStatus(t, client, table) == types.IndexStatusActive {
			return
		}
	}
	t.Fatalf("the index was not ACTIVE within %s", limit)
}

// scanAll is every item of the table (or index) by its key k, its v as
// the value, read with a consistent Scan on a table.
func scanAll(t *testing.T, client *dynamodb.Client, table string, index *string) map[string]string {
	t.Helper()
	items := map[string]string{}
	p := dynamodb.NewScanPaginator(client, &dynamodb.ScanInput{TableName: aws.String(table), IndexName: index,
		ConsistentRead: aws.Bool(index == nil)})
	for p.HasMorePages() {
		page, err := p.NextPage(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range page.Items {
			k, v := it["k"].(*types.AttributeValueMemberS).Value, it["v"].(*types.AttributeValueMemberS).Value
			if _, dup := items[k]; dup {
				t.Fatalf("item %s twice in %v", k, index)
			}
			items[k] = v
		}
	}
	return items
}
