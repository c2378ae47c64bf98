package conformance_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// The Developer Guide's worked examples of capacity, each with the page it
// comes from.

// padTo adds a pad attribute p so that the item, whose attributes are all
// strings, is size bytes: each attribute's name plus its string.
func padTo(it avMap, size int) avMap {
	n := 0
	for name, v := range it {
		n += len(name) + len(v.(*types.AttributeValueMemberS).Value)
	}
	it["p"] = s(strings.Repeat("x", size-n-len("p")))
	return it
}

// newPairTable creates a table keyed k and r, with the given indexes.
func newPairTable(t *testing.T, c *dynamodb.Client, name string, gsi []types.GlobalSecondaryIndex, lsi []types.LocalSecondaryIndex, attrs ...string) {
	t.Helper()
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: attrDefs(append([]string{"k", "r"}, attrs...)...), KeySchema: keySchema("k", "r"),
		GlobalSecondaryIndexes: gsi, LocalSecondaryIndexes: lsi})
	if err != nil {
		t.Fatal(err)
	}
}

// putAll writes items 25 at a time.
func putAll(t *testing.T, c *dynamodb.Client, table string, items []avMap) {
	t.Helper()
	for len(items) > 0 {
		n := min(25, len(items))
		reqs := make([]types.WriteRequest, n)
		for i, it := range items[:n] {
			reqs[i] = putReq(it)
		}
		if _, err := batchWrite(c, map[string][]types.WriteRequest{table: reqs}); err != nil {
			t.Fatal(err)
		}
		items = items[n:]
	}
}

// partition makes n items of size bytes in partition k = "a", sort keys
// r0, r1, ... (zero-padded to width).
func partition(n, width, size int) []avMap {
	items := make([]avMap, n)
	for i := range items {
		items[i] = padTo(avMap{"k": s("a"), "r": s(fmt.Sprintf("r%0*d", width, i))}, size)
	}
	return items
}

func queryA(t *testing.T, c *dynamodb.Client, table string, consistent bool) *types.ConsumedCapacity {
	t.Helper()
	out, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String(table), KeyConditionExpression: aws.String("k = :a"),
		ExpressionAttributeValues: avMap{":a": s("a")}, ConsistentRead: aws.Bool(consistent), ReturnConsumedCapacity: indexes})
	if err != nil {
		t.Fatal(err)
	}
	return out.ConsumedCapacity
}

// "Capacity unit consumption for read operations", Query: "10 items whose
// combined size is 40.8 KB" round to 44 KB, 11 RCU strongly consistent;
// "1500 items of 64 bytes each" are 96 KB, 24 RCU (12 eventually
// consistent).
func TestCapacityGuideQuery(t *testing.T) {
	c := sortkeytest.New(t).Client()
	newPairTable(t, c, "ten", nil, nil)
	putAll(t, c, "ten", partition(10, 1, 4178)) // 10 × 4,178 B = 41,780 B, just over 40.8 KB (41,779.2 B)
	checkCapacity(t, queryA(t, c, "ten", true), "ten", unitsOnly, cu{table: 11})
	newPairTable(t, c, "many", nil, nil)
	putAll(t, c, "many", partition(1500, 4, 64)) // 1500 × 64 B = 96,000 B: 24 × 4 KB started
	checkCapacity(t, queryA(t, c, "many", true), "many", unitsOnly, cu{table: 24})
	checkCapacity(t, queryA(t, c, "many", false), "many", unitsOnly, cu{table: 12})
}

// "Provisioned throughput considerations for global secondary indexes":
// a GSI query returning 8 entries of 2,000 bytes reads 16,000 bytes,
// rounded to 16 KB; eventually consistent, 0.5 × 16 KB / 4 KB = 2 RCU,
// charged to the index.
func TestCapacityGuideGSIQuery(t *testing.T) {
	c := sortkeytest.New(t).Client()
	byG := types.GlobalSecondaryIndex{IndexName: aws.String("byG"), KeySchema: keySchema("g", ""),
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}
	newPairTable(t, c, "games", []types.GlobalSecondaryIndex{byG}, nil, "g")
	items := make([]avMap, 8)
	for i := range items {
		items[i] = padTo(avMap{"k": s("a"), "r": s(fmt.Sprint("r", i)), "g": s("G")}, 2000)
	}
	putAll(t, c, "games", items)
	out, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("games"), IndexName: aws.String("byG"),
		KeyConditionExpression: aws.String("g = :g"), ExpressionAttributeValues: avMap{":g": s("G")}, ReturnConsumedCapacity: indexes})
	if err != nil || out.Count != 8 {
		t.Fatalf("query: %v, %d items", err, out.Count)
	}
	checkCapacity(t, out.ConsumedCapacity, "games", unitsOnly, cu{gsi: 2})
}

// "Provisioned throughput considerations for local secondary indexes":
// items of 300 bytes with 200 bytes projected into the LSI; a query of 4
// items that fetches from the table reads 800 bytes of index, rounded to
// 4 KB, plus each table item rounded to 4 KB: 4 + 16 = 20 KB, 5 RCU
// strongly consistent.
func TestCapacityGuideLSIFetch(t *testing.T) {
	c := sortkeytest.New(t).Client()
	byL := types.LocalSecondaryIndex{IndexName: aws.String("byL"), KeySchema: keySchema("k", "l"),
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"inc"}}}
	newPairTable(t, c, "thread", nil, []types.LocalSecondaryIndex{byL}, "l")
	items := make([]avMap, 4)
	for i := range items {
		it := avMap{"k": s("a"), "r": s(fmt.Sprint("r", i)), "l": s(fmt.Sprint("l", i))} // keys: 2 + 3 + 3 = 8 B
		it["inc"] = s(strings.Repeat("i", 200-8-len("inc")))                             // 200 B projected into the index
		it["p"] = s(strings.Repeat("y", 100-len("p")))                                   // 300 B in the table
		items[i] = it
	}
	putAll(t, c, "thread", items)
	out, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("thread"), IndexName: aws.String("byL"),
		KeyConditionExpression: aws.String("k = :a"), ExpressionAttributeValues: avMap{":a": s("a")},
		Select: types.SelectAllAttributes, ConsistentRead: aws.Bool(true), ReturnConsumedCapacity: indexes})
	if err != nil || out.Count != 4 || len(out.Items[0]) != 5 {
		t.Fatalf("query: %v, %d items, %v", err, out.Count, out.Items)
	}
	checkCapacity(t, out.ConsumedCapacity, "thread", unitsOnly, cu{lsi: 1, table: 4})
}

// "Capacity unit consumption for read operations": GetItem of 3.5 KB is
// 1 RCU and of 10 KB is 3 RCU (12 KB) strongly consistent; an 8 KB item is
// 2 RCU strongly consistent, 1 eventually consistent, 4 transactional.
func TestCapacityGuideGetItem(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "tbl")
	sizes := map[string]int{"a": 3584, "b": 10 * 1024, "c": 8 * 1024}
	for id, size := range sizes {
		if err := put(c, "tbl", padTo(avMap{"pk": s(id)}, size)); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		id         string
		consistent bool
		want       float64
	}{{"a", true, 1}, {"b", true, 3}, {"c", true, 2}, {"c", false, 1}} {
		out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: pk(tc.id),
			ConsistentRead: aws.Bool(tc.consistent), ReturnConsumedCapacity: indexes})
		if err != nil {
			t.Fatal(err)
		}
		checkCapacity(t, out.ConsumedCapacity, "tbl", unitsOnly, cu{table: tc.want})
	}
	out, err := c.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{ReturnConsumedCapacity: indexes,
		TransactItems: []types.TransactGetItem{{Get: &types.Get{TableName: aws.String("tbl"), Key: pk("c")}}}})
	if err != nil || len(out.ConsumedCapacity) != 1 {
		t.Fatal(err, out.ConsumedCapacity)
	}
	checkCapacity(t, &out.ConsumedCapacity[0], "tbl", readSplit, cu{table: 4})
}

// "Capacity unit consumption for read operations", BatchGetItem: items of
// 1.5 KB and 6.5 KB are rounded each, 4 KB + 8 KB = 12 KB, 3 RCU strongly
// consistent; "... for write operations", BatchWriteItem: 500 bytes and
// 3.5 KB are 1 KB + 4 KB, 5 WCU; PutItem or DeleteItem of 1.6 KB is 2 WCU.
func TestCapacityGuideBatches(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "tbl")
	w, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{ReturnConsumedCapacity: indexes,
		RequestItems: map[string][]types.WriteRequest{"tbl": {putReq(padTo(pk("a"), 500)), putReq(padTo(pk("b"), 3584))}}})
	if err != nil || len(w.ConsumedCapacity) != 1 {
		t.Fatal(err, w.ConsumedCapacity)
	}
	checkCapacity(t, &w.ConsumedCapacity[0], "tbl", unitsOnly, cu{table: 5})
	putAll(t, c, "tbl", []avMap{padTo(pk("c"), 1536), padTo(pk("d"), 6656)})
	g, err := c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{ReturnConsumedCapacity: indexes,
		RequestItems: map[string]types.KeysAndAttributes{"tbl": {Keys: []avMap{pk("c"), pk("d")}, ConsistentRead: aws.Bool(true)}}})
	if err != nil || len(g.ConsumedCapacity) != 1 {
		t.Fatal(err, g.ConsumedCapacity)
	}
	checkCapacity(t, &g.ConsumedCapacity[0], "tbl", unitsOnly, cu{table: 3})
	p, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: padTo(pk("e"), 1639), ReturnConsumedCapacity: indexes}) // 1.6 KB is 1,638.4 B
	if err != nil {
		t.Fatal(err)
	}
	checkCapacity(t, p.ConsumedCapacity, "tbl", unitsOnly, cu{table: 2})
	d, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("tbl"), Key: pk("e"), ReturnConsumedCapacity: indexes})
	if err != nil {
		t.Fatal(err)
	}
	checkCapacity(t, d.ConsumedCapacity, "tbl", unitsOnly, cu{table: 2})
}

// "Capacity management for transactions": writing three 500-byte items
// in a transaction takes 6 WCU; reading them in one, 6 RCU.
func TestCapacityGuideTransactions(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "tbl")
	var puts []types.TransactWriteItem
	var gets []types.TransactGetItem
	for _, id := range []string{"a", "b", "c"} {
		puts = append(puts, types.TransactWriteItem{Put: &types.Put{TableName: aws.String("tbl"), Item: padTo(pk(id), 500)}})
		gets = append(gets, types.TransactGetItem{Get: &types.Get{TableName: aws.String("tbl"), Key: pk(id)}})
	}
	w, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: puts, ReturnConsumedCapacity: indexes})
	if err != nil || len(w.ConsumedCapacity) != 1 {
		t.Fatal(err, w.ConsumedCapacity)
	}
	checkCapacity(t, &w.ConsumedCapacity[0], "tbl", writeSplit, cu{table: 6})
	g, err := c.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: gets, ReturnConsumedCapacity: indexes})
	if err != nil || len(g.ConsumedCapacity) != 1 {
		t.Fatal(err, g.ConsumedCapacity)
	}
	checkCapacity(t, &g.ConsumedCapacity[0], "tbl", readSplit, cu{table: 6})
}

// "Capacity unit consumption for read operations": Scan is charged for
// the items evaluated, not returned; a projection or a count changes
// nothing; eventually consistent reads of 80 KB cost 10 RCU. "Query
// operations": a Query (or Scan) that finds nothing still costs the
// minimum, 1 RCU strongly consistent and 0.5 eventually.
func TestCapacityGuideScan(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "tbl")
	scan := func(in *dynamodb.ScanInput) *types.ConsumedCapacity {
		in.TableName, in.ReturnConsumedCapacity = aws.String("tbl"), indexes
		out, err := c.Scan(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		return out.ConsumedCapacity
	}
	// facts 30.2: a Scan that reads a whole small table costs 4 units, 2
	// eventually consistent; one that resumes or runs in parallel keeps
	// the one-unit minimum.
	checkCapacity(t, scan(&dynamodb.ScanInput{ConsistentRead: aws.Bool(true)}), "tbl", unitsOnly, cu{table: 4})
	checkCapacity(t, scan(&dynamodb.ScanInput{}), "tbl", unitsOnly, cu{table: 2})
	putAll(t, c, "tbl", []avMap{pk("tiny")})
	checkCapacity(t, scan(&dynamodb.ScanInput{ConsistentRead: aws.Bool(true)}), "tbl", unitsOnly, cu{table: 4})
	checkCapacity(t, scan(&dynamodb.ScanInput{}), "tbl", unitsOnly, cu{table: 2})
	checkCapacity(t, scan(&dynamodb.ScanInput{ExclusiveStartKey: pk("a")}), "tbl", unitsOnly, cu{table: 0.5})
	checkCapacity(t, scan(&dynamodb.ScanInput{Segment: aws.Int32(0), TotalSegments: aws.Int32(2)}), "tbl", unitsOnly, cu{table: 0.5})
	if _, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("tbl"), Key: pk("tiny")}); err != nil {
		t.Fatal(err)
	}
	var items []avMap
	for i := range 20 {
		items = append(items, padTo(pk(fmt.Sprintf("i%02d", i)), 4096))
	}
	putAll(t, c, "tbl", items) // 20 × 4 KB = 80 KB
	checkCapacity(t, scan(&dynamodb.ScanInput{}), "tbl", unitsOnly, cu{table: 10})
	checkCapacity(t, scan(&dynamodb.ScanInput{FilterExpression: aws.String("attribute_not_exists(p)")}), "tbl", unitsOnly, cu{table: 10})
	checkCapacity(t, scan(&dynamodb.ScanInput{ProjectionExpression: aws.String("pk")}), "tbl", unitsOnly, cu{table: 10})
	checkCapacity(t, scan(&dynamodb.ScanInput{Select: types.SelectCount, ConsistentRead: aws.Bool(true)}), "tbl", unitsOnly, cu{table: 20})
}

// Transactions on missing items: a ConditionCheck or Delete of a missing
// item costs twice the minimum write, a Get twice the minimum read, and a
// replay of a transaction that deleted its item reads nothing but still
// costs the minimum read.
func TestCapacityTransactMissingItems(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "tbl")
	if err := put(c, "tbl", padTo(pk("big"), 5000)); err != nil {
		t.Fatal(err)
	}
	write := func(token *string, items ...types.TransactWriteItem) {
		t.Helper()
		out, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: items, ClientRequestToken: token, ReturnConsumedCapacity: indexes})
		if err != nil || len(out.ConsumedCapacity) != 1 {
			t.Fatal(err, out)
		}
		want := cu{table: 4} // two missing items, 2 WCU each
		if token != nil {
			want = cu{table: 1} // the replay reads one missing item
		}
		sp := writeSplit
		if token != nil {
			sp = readSplit
		}
		checkCapacity(t, &out.ConsumedCapacity[0], "tbl", sp, want)
	}
	write(nil, types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{TableName: aws.String("tbl"), Key: pk("none"), ConditionExpression: aws.String("attribute_not_exists(pk)")}},
		types.TransactWriteItem{Delete: &types.Delete{TableName: aws.String("tbl"), Key: pk("gone")}})
	del := types.TransactWriteItem{Delete: &types.Delete{TableName: aws.String("tbl"), Key: pk("big")}}
	token := aws.String("replay-of-a-delete")
	first, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{del}, ClientRequestToken: token, ReturnConsumedCapacity: indexes})
	if err != nil {
		t.Fatal(err)
	}
	checkCapacity(t, &first.ConsumedCapacity[0], "tbl", writeSplit, cu{table: 10}) // 5,000 B: 5 WCU, twice
	write(token, del)
	g, err := c.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{ReturnConsumedCapacity: indexes,
		TransactItems: []types.TransactGetItem{{Get: &types.Get{TableName: aws.String("tbl"), Key: pk("none")}}}})
	if err != nil || len(g.ConsumedCapacity) != 1 {
		t.Fatal(err, g.ConsumedCapacity)
	}
	checkCapacity(t, &g.ConsumedCapacity[0], "tbl", readSplit, cu{table: 2})
}
