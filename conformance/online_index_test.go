package conformance_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/sortkeydb/sortkey/internal/storage"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// onlineItem is item i: 1,000 partitions; two items in three carry the
// new index's key G (so the index is sparse), and every item carries V,
// which the index projects, and W, which it does not.
func onlineItem(i int, g int) map[string]types.AttributeValue {
	it := map[string]types.AttributeValue{"PK": s(fmt.Sprintf("P%d", i%1000)), "SK": s(fmt.Sprintf("S%06d", i)),
		"V": n(fmt.Sprint(i)), "W": s("not projected")}
	if g >= 0 {
		it["G"] = s(fmt.Sprintf("g%d", g))
	}
	return it
}

func initialG(i int) int {
	if i%3 == 0 {
		return -1
	}
	return i % 97
}

// sizedForStore is n on Pebble, and at most 10,000 on PostgreSQL.
func sizedForStore(n int) int {
	if storage.UnderTestStore() {
		return min(n, 10_000)
	}
	return n
}

func TestOnlineIndexCreationWhileWriting(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createPKSK(t, c, "online")
	loadOnline(t, c)
	out, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("online"),
		AttributeDefinitions:        []types.AttributeDefinition{{AttributeName: aws.String("G"), AttributeType: "S"}, {AttributeName: aws.String("SK"), AttributeType: "S"}},
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: byG()}}})
	if err != nil {
		t.Fatal(err)
	}
	checkCreating(t, out.TableDescription)
	started := time.Now()
	stop := writeDuringBackfill(t, c)
	waitActive(t, c, "online", "ByG")
	t.Logf("backfill of %d items took %v while writes ran", onlineItems, time.Since(started).Round(time.Millisecond))
	stop()
	checkIndexMatchesTable(t, c)
}

func createPKSK(t *testing.T, c *dynamodb.Client, name string) {
	t.Helper()
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: "S"}, {AttributeName: aws.String("SK"), AttributeType: "S"}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}}})
	if err != nil {
		t.Fatal(err)
	}
}

func byG() *types.CreateGlobalSecondaryIndexAction {
	return &types.CreateGlobalSecondaryIndexAction{IndexName: aws.String("ByG"),
		KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("G"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"V"}}}
}

// loadOnline writes the table from 8 clients.
func loadOnline(t *testing.T, c *dynamodb.Client) {
	t.Helper()
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := w; i < onlineItems; i += 8 {
				if err := put(c, "online", onlineItem(i, initialG(i))); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
}

func checkCreating(t *testing.T, d *types.TableDescription) {
	t.Helper()
	if d.TableStatus != types.TableStatusUpdating || len(d.GlobalSecondaryIndexes) != 1 {
		t.Fatalf("UpdateTable answered status %s with %d indexes", d.TableStatus, len(d.GlobalSecondaryIndexes))
	}
	g := d.GlobalSecondaryIndexes[0]
	if g.IndexStatus != types.IndexStatusCreating || g.Backfilling == nil || !*g.Backfilling {
		t.Fatalf("new index: status %s, backfilling %v; want CREATING, true", g.IndexStatus, g.Backfilling)
	}
	if len(d.AttributeDefinitions) != 3 {
		t.Fatalf("attribute definitions %d, want PK, SK and G", len(d.AttributeDefinitions))
	}
}

// writeDuringBackfill runs 4 writers that move items between index keys,
// take them out of the index, delete them and add new ones, and a reader
// whose queries on the index must either answer or say it is backfilling.
// stop ends them and reports how many writes they made.
func writeDuringBackfill(t *testing.T, c *dynamodb.Client) (stop func()) {
	var done atomic.Bool
	var writes atomic.Int64
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			for !done.Load() {
				if err := randomWrite(c, rng); err != nil {
					t.Error(err)
					return
				}
				writes.Add(1)
			}
		})
	}
	wg.Go(func() { readDuringBackfill(t, c, &done) })
	return func() {
		done.Store(true)
		wg.Wait()
		t.Logf("%d writes ran during the backfill", writes.Load())
		if t.Failed() {
			t.FailNow()
		}
	}
}

func randomWrite(c *dynamodb.Client, rng *rand.Rand) error {
	i := rng.IntN(onlineItems + 5000)
	key := map[string]types.AttributeValue{"PK": s(fmt.Sprintf("P%d", i%1000)), "SK": s(fmt.Sprintf("S%06d", i))}
	var err error
	switch rng.IntN(4) {
	case 0:
		err = put(c, "online", onlineItem(i, rng.IntN(97)))
	case 1:
		_, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("online"), Key: key, UpdateExpression: aws.String("REMOVE G")})
	case 2:
		_, err = c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("online"), Key: key})
	default:
		_, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("online"), Key: key,
			UpdateExpression: aws.String("SET G = :g, V = :v"), ExpressionAttributeValues: map[string]types.AttributeValue{":g": s(fmt.Sprintf("g%d", rng.IntN(97))), ":v": n(fmt.Sprint(i))}})
	}
	return err
}

func readDuringBackfill(t *testing.T, c *dynamodb.Client, done *atomic.Bool) {
	for !done.Load() {
		_, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("online"), IndexName: aws.String("ByG"),
			KeyConditionExpression: aws.String("G = :g"), ExpressionAttributeValues: map[string]types.AttributeValue{":g": s("g1")}})
		var api smithy.APIError
		if err != nil && !(errors.As(err, &api) && api.ErrorMessage() == "Cannot read from backfilling global secondary index: ByG") {
			t.Error(err)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitActive polls DescribeTable until the index is ACTIVE. The deadline
// only bounds a hung backfill; it asserts nothing about speed.
func waitActive(t *testing.T, c *dynamodb.Client, table, index string) *types.GlobalSecondaryIndexDescription {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		out, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range out.Table.GlobalSecondaryIndexes {
			if *g.IndexName == index && g.IndexStatus == types.IndexStatusActive {
				// facts 16.1: an ACTIVE index has no Backfilling member.
				if g.Backfilling != nil {
					t.Fatalf("ACTIVE index reports Backfilling %v", *g.Backfilling)
				}
				return &g
			}
		}
	}
	t.Fatal("index never became ACTIVE")
	return nil
}

// checkIndexMatchesTable compares the index with what a full Scan of the
// table says it must hold: every item with G, once, projected to its keys
// and V, and the index's ItemCount.
func checkIndexMatchesTable(t *testing.T, c *dynamodb.Client) {
	t.Helper()
	want := map[string][]string{}
	total := 0
	for _, it := range scanAll(t, c, &dynamodb.ScanInput{TableName: aws.String("online")}) {
		if g, ok := it["G"]; ok {
			want[str(g)] = append(want[str(g)], entryString(it))
			total++
		}
	}
	for g := range 97 {
		gv := fmt.Sprintf("g%d", g)
		got := []string{}
		for _, it := range queryAll(t, c, &dynamodb.QueryInput{TableName: aws.String("online"), IndexName: aws.String("ByG"),
			KeyConditionExpression: aws.String("G = :g"), ExpressionAttributeValues: map[string]types.AttributeValue{":g": s(gv)}}) {
			if _, ok := it["W"]; ok {
				t.Fatalf("index returned the unprojected attribute W: %v", it)
			}
			got = append(got, entryString(it))
		}
		sort.Strings(want[gv])
		if strings.Join(got, " ") != strings.Join(want[gv], " ") {
			t.Fatalf("index partition %s: %d entries, table says %d", gv, len(got), len(want[gv]))
		}
	}
	if d := describeIndex(t, c, "online", "ByG"); d.ItemCount == nil || *d.ItemCount != int64(total) {
		t.Fatalf("index ItemCount %v, want %d", d.ItemCount, total)
	}
}

func entryString(it map[string]types.AttributeValue) string {
	return str(it["SK"]) + "/" + str(it["PK"]) + "/" + it["V"].(*types.AttributeValueMemberN).Value
}

func str(v types.AttributeValue) string { return v.(*types.AttributeValueMemberS).Value }

func describeIndex(t *testing.T, c *dynamodb.Client, table, index string) *types.GlobalSecondaryIndexDescription {
	t.Helper()
	out, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range out.Table.GlobalSecondaryIndexes {
		if *g.IndexName == index {
			return &g
		}
	}
	t.Fatalf("table %s has no index %s", table, index)
	return nil
}

func scanAll(t *testing.T, c *dynamodb.Client, in *dynamodb.ScanInput) []map[string]types.AttributeValue {
	t.Helper()
	var out []map[string]types.AttributeValue
	for {
		page, err := c.Scan(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, page.Items...)
		if page.LastEvaluatedKey == nil {
			return out
		}
		in.ExclusiveStartKey = page.LastEvaluatedKey
	}
}
