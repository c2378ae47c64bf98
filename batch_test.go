package sortkey_test

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

type avMap = map[string]types.AttributeValue

func putReq(it avMap) types.WriteRequest {
	return types.WriteRequest{PutRequest: &types.PutRequest{Item: it}}
}

func delReq(key avMap) types.WriteRequest {
	return types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: key}}
}

func pk(v string) avMap { return avMap{"pk": s(v)} }

func batchWrite(c *dynamodb.Client, items map[string][]types.WriteRequest) (*dynamodb.BatchWriteItemOutput, error) {
	return c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: items})
}

func batchGet(c *dynamodb.Client, items map[string]types.KeysAndAttributes) (*dynamodb.BatchGetItemOutput, error) {
	return c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: items})
}

// sortedBy orders items by a string attribute, since BatchGetItem promises
// no order.
func sortedBy(items []avMap, attr string) []avMap {
	sort.Slice(items, func(i, j int) bool { return strs(items[i:i+1], attr) < strs(items[j:j+1], attr) })
	return items
}

// units maps a batch's ConsumedCapacity to table -> units.
func units(cc []types.ConsumedCapacity) map[string]float64 {
	out := map[string]float64{}
	for _, c := range cc {
		out[*c.TableName] = *c.CapacityUnits
	}
	return out
}

func TestBatchWriteAndGetAcrossTables(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "aaa")
	createMusic(t, c, "Music")
	song := func(title string) avMap { return avMap{"Artist": s("Acme"), "SongTitle": s(title)} }
	w, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
		RequestItems: map[string][]types.WriteRequest{
			"aaa":   {putReq(avMap{"pk": s("k1"), "v": n("1")}), putReq(avMap{"pk": s("k2"), "v": n("2")}), putReq(pk("k3")), delReq(pk("never"))},
			"Music": {putReq(song("One")), putReq(song("Two"))},
		}})
	if err != nil {
		t.Fatal(err)
	}
	if w.UnprocessedItems == nil || len(w.UnprocessedItems) != 0 {
		t.Fatalf("UnprocessedItems %v, want {}", w.UnprocessedItems)
	}
	if got := units(w.ConsumedCapacity); !reflect.DeepEqual(got, map[string]float64{"aaa": 4, "Music": 2}) {
		t.Fatalf("write capacity %v", got)
	}
	g, err := c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
		RequestItems: map[string]types.KeysAndAttributes{
			"aaa":   {Keys: []avMap{pk("k2"), pk("k1"), pk("missing")}},
			"Music": {Keys: []avMap{song("One"), song("Two")}, ConsistentRead: aws.Bool(true)},
		}})
	if err != nil {
		t.Fatal(err)
	}
	if got := strs(sortedBy(g.Responses["aaa"], "pk"), "v"); got != "1,2" {
		t.Fatalf("table a returned v=%s", got)
	}
	if got := strs(sortedBy(g.Responses["Music"], "SongTitle"), "SongTitle"); got != "One,Two" {
		t.Fatalf("Music returned %s", got)
	}
	if len(g.UnprocessedKeys) != 0 {
		t.Fatalf("UnprocessedKeys %v", g.UnprocessedKeys)
	}
	// Eventually consistent reads cost half a unit each, missing items included.
	if got := units(g.ConsumedCapacity); !reflect.DeepEqual(got, map[string]float64{"aaa": 1.5, "Music": 2}) {
		t.Fatalf("read capacity %v", got)
	}
	if _, err := batchWrite(c, map[string][]types.WriteRequest{"aaa": {delReq(pk("k1")), putReq(avMap{"pk": s("k2"), "v": n("20")})}}); err != nil {
		t.Fatal(err)
	}
	g, err = batchGet(c, map[string]types.KeysAndAttributes{"aaa": {Keys: []avMap{pk("k1"), pk("k2")}}})
	if err != nil || strs(g.Responses["aaa"], "v") != "20" {
		t.Fatalf("after delete and overwrite: %v %v", err, g.Responses["aaa"])
	}
}

func TestBatchGetProjectionAndEmptyResponses(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "aaa")
	createSimple(t, c, "bbb")
	full := avMap{"pk": s("k"), "name": s("x"), "size": n("3"), "m": &types.AttributeValueMemberM{Value: avMap{"in": s("deep"), "out": s("no")}}}
	for _, tbl := range []string{"aaa", "bbb"} {
		if err := put(c, tbl, full); err != nil {
			t.Fatal(err)
		}
	}
	g, err := batchGet(c, map[string]types.KeysAndAttributes{
		"aaa": {Keys: []avMap{pk("k")}, ProjectionExpression: aws.String("#s, m.#i"), ExpressionAttributeNames: map[string]string{"#s": "size", "#i": "in"}},
		"bbb": {Keys: []avMap{pk("k")}, AttributesToGet: []string{"name", "absent"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	wantA := []avMap{{"size": n("3"), "m": &types.AttributeValueMemberM{Value: avMap{"in": s("deep")}}}}
	if !reflect.DeepEqual(g.Responses["aaa"], wantA) || !reflect.DeepEqual(g.Responses["bbb"], []avMap{{"name": s("x")}}) {
		t.Fatalf("projections: %v", g.Responses)
	}
	g, err = batchGet(c, map[string]types.KeysAndAttributes{"aaa": {Keys: []avMap{pk("none")}}, "bbb": {Keys: []avMap{pk("nope")}}})
	if err != nil {
		t.Fatal(err)
	}
	if a, ok := g.Responses["aaa"]; !ok || len(a) != 0 || len(g.Responses) != 2 {
		t.Fatalf("missing items: want an empty list per table, got %v", g.Responses)
	}
	_, err = batchGet(c, map[string]types.KeysAndAttributes{"aaa": {Keys: []avMap{pk("k")}, ProjectionExpression: aws.String("pk"), AttributesToGet: []string{"pk"}}})
	wantAPIError(t, err, "ValidationException", "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {AttributesToGet} Expression parameters: {ProjectionExpression}")
	_, err = batchGet(c, map[string]types.KeysAndAttributes{"aaa": {Keys: []avMap{pk("k")}, ProjectionExpression: aws.String("pk"), ExpressionAttributeNames: map[string]string{"#u": "unused"}}})
	wantAPIError(t, err, "ValidationException", "Value provided in ExpressionAttributeNames unused in expressions: keys: {#u}")
}

// TestBatchGetLeavesKeysPastSixteenMegabytesUnprocessed reads 42 items of
// almost 400 KB: they do not all fit in one response, and what is left comes
// back with the table's settings, ready to be sent again.
func TestBatchGetLeavesKeysPastSixteenMegabytesUnprocessed(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "big")
	blob := s(strings.Repeat("x", 399*1024))
	var keys []avMap
	for batch := 0; batch < 2; batch++ {
		var ws []types.WriteRequest
		for i := 0; i < 21; i++ {
			k := fmt.Sprintf("k%02d", batch*21+i)
			keys = append(keys, pk(k))
			ws = append(ws, putReq(avMap{"pk": s(k), "payload": blob}))
		}
		if _, err := batchWrite(c, map[string][]types.WriteRequest{"big": ws}); err != nil {
			t.Fatal(err)
		}
	}
	req := types.KeysAndAttributes{Keys: keys, ConsistentRead: aws.Bool(true), ProjectionExpression: aws.String("pk, payload")}
	first, err := batchGet(c, map[string]types.KeysAndAttributes{"big": req})
	if err != nil {
		t.Fatal(err)
	}
	rest, ok := first.UnprocessedKeys["big"]
	got := len(first.Responses["big"])
	if !ok || got == 0 || got+len(rest.Keys) != 42 || *rest.ProjectionExpression != "pk, payload" || !*rest.ConsistentRead {
		t.Fatalf("first page: %d items, unprocessed %+v", got, rest)
	}
	second, err := batchGet(c, first.UnprocessedKeys)
	if err != nil || len(second.Responses["big"]) != len(rest.Keys) || len(second.UnprocessedKeys) != 0 {
		t.Fatalf("second page: %v", err)
	}
	keysOnly, err := batchGet(c, map[string]types.KeysAndAttributes{"big": {Keys: keys, ProjectionExpression: aws.String("pk")}})
	if err != nil || len(keysOnly.Responses["big"]) != 42 {
		t.Fatalf("the limit counts projected items: %v", err)
	}
}

// TestBatchGetReturns52ItemsOf300KB is the API Reference's example: asked
// for 100 items of 300 KB, BatchGetItem returns 52 and leaves 48 in
// UnprocessedKeys, in the order they were asked for.
func TestBatchGetReturns52ItemsOf300KB(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "big")
	var keys []avMap
	for batch := range 4 {
		var ws []types.WriteRequest
		for i := range 25 {
			k := fmt.Sprintf("k%02d", batch*25+i)
			keys = append(keys, pk(k))
			// pk (2) + k00 (3) + payload (7) + value: 300 KB in all.
			ws = append(ws, putReq(avMap{"pk": s(k), "payload": s(strings.Repeat("x", 300*1024-12))}))
		}
		if _, err := batchWrite(c, map[string][]types.WriteRequest{"big": ws}); err != nil {
			t.Fatal(err)
		}
	}
	out, err := batchGet(c, map[string]types.KeysAndAttributes{"big": {Keys: keys}})
	if err != nil {
		t.Fatal(err)
	}
	rest := out.UnprocessedKeys["big"].Keys
	if len(out.Responses["big"]) != 52 || len(rest) != 48 || str(rest[0]["pk"]) != "k52" {
		t.Fatalf("got %d items and %d unprocessed keys, want 52 and 48 from k52", len(out.Responses["big"]), len(rest))
	}
}

func TestBatchDuplicatesRefused(t *testing.T) {
	c := sortkeytest.New(t).Client()
	arn := createMusic(t, c, "Music").TableArn
	createSimple(t, c, "aaa")
	song := avMap{"Artist": s("Acme"), "SongTitle": s("One")}
	const dup = "Provided list of item keys contains duplicates"
	_, err := batchGet(c, map[string]types.KeysAndAttributes{"aaa": {Keys: []avMap{pk("k"), pk("j"), pk("k")}}})
	wantAPIError(t, err, "ValidationException", dup)
	_, err = batchGet(c, map[string]types.KeysAndAttributes{"Music": {Keys: []avMap{song}}, *arn: {Keys: []avMap{song}}})
	wantAPIError(t, err, "ValidationException", dup)
	// A key with the wrong types is still reported as a duplicate first.
	_, err = batchGet(c, map[string]types.KeysAndAttributes{"aaa": {Keys: []avMap{{"pk": n("1")}, {"pk": n("1.0")}}}})
	wantAPIError(t, err, "ValidationException", dup)
	for _, ws := range [][]types.WriteRequest{
		{putReq(avMap{"pk": s("k"), "v": n("1")}), putReq(avMap{"pk": s("k"), "v": n("2")})},
		{putReq(pk("j")), putReq(pk("k")), delReq(pk("k"))},
		{delReq(pk("k")), delReq(pk("k"))},
	} {
		_, err = batchWrite(c, map[string][]types.WriteRequest{"aaa": ws})
		wantAPIError(t, err, "ValidationException", dup)
	}
	_, err = batchWrite(c, map[string][]types.WriteRequest{"Music": {putReq(song)}, *arn: {delReq(song)}})
	wantAPIError(t, err, "ValidationException", dup)
	wantItemCount(t, c, "aaa", 0)
	wantItemCount(t, c, "Music", 0)
}

func wantItemCount(t *testing.T, c *dynamodb.Client, table string, want int64) {
	t.Helper()
	d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	if err != nil || *d.Table.ItemCount != want {
		t.Fatalf("%s: want %d items, describe says %v (%v)", table, want, d, err)
	}
}

func TestBatchLimits(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "aaa")
	createSimple(t, c, "bbb")
	writes := func(prefix string, n int) []types.WriteRequest {
		var ws []types.WriteRequest
		for i := 0; i < n; i++ {
			ws = append(ws, putReq(pk(fmt.Sprintf("%s%d", prefix, i))))
		}
		return ws
	}
	keys := func(n int) []avMap {
		var ks []avMap
		for i := 0; i < n; i++ {
			ks = append(ks, pk(fmt.Sprint(i)))
		}
		return ks
	}
	_, err := batchWrite(c, map[string][]types.WriteRequest{"aaa": writes("k", 26)})
	wantAPIError(t, err, "ValidationException", "1 validation error detected: Value '{aaa=["+strings.Repeat("WriteRequest, ", 25)+"WriteRequest]}' at 'requestItems' failed to satisfy constraint: "+
		"Map value must satisfy constraint: [Member must have length less than or equal to 25, Member must have length greater than or equal to 1]")
	_, err = batchWrite(c, map[string][]types.WriteRequest{"aaa": writes("k", 13), "bbb": writes("k", 13)})
	wantAPIError(t, err, "ValidationException", "Too many items requested for the BatchWriteItem call")
	_, err = batchGet(c, map[string]types.KeysAndAttributes{"aaa": {Keys: keys(101)}})
	wantAPIError(t, err, "ValidationException", "1 validation error detected: Value at 'RequestItems.aaa.member.Keys' failed to satisfy constraint: Member must have length less than or equal to 100")
	_, err = batchGet(c, map[string]types.KeysAndAttributes{"aaa": {Keys: keys(60)}, "bbb": {Keys: keys(41)}})
	wantAPIError(t, err, "ValidationException", "Too many items requested for the BatchGetItem call")
	if _, err := batchWrite(c, map[string][]types.WriteRequest{"aaa": writes("k", 12), "bbb": writes("k", 13)}); err != nil {
		t.Fatalf("25 writes are allowed: %v", err)
	}
	if _, err := batchGet(c, map[string]types.KeysAndAttributes{"aaa": {Keys: keys(60)}, "bbb": {Keys: keys(40)}}); err != nil {
		t.Fatalf("100 keys are allowed: %v", err)
	}
	wantItemCount(t, c, "aaa", 12)
}

// TestBatchWriteInvalidRequestWritesNothing puts a bad request after good
// ones: the whole batch is refused with PutItem's or DeleteItem's error.
func TestBatchWriteInvalidRequestWritesNothing(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createMusic(t, c, "Music")
	createSimple(t, c, "aaa")
	if err := put(c, "aaa", pk("keep")); err != nil {
		t.Fatal(err)
	}
	song := func(title string, extra avMap) avMap {
		it := avMap{"Artist": s("Acme"), "SongTitle": s(title)}
		for k, v := range extra {
			it[k] = v
		}
		return it
	}
	cases := []struct {
		name string
		bad  types.WriteRequest
		msg  string
	}{
		{"key type", putReq(avMap{"Artist": n("1"), "SongTitle": s("x")}), "One or more parameter values were invalid: Type mismatch for key Artist expected: S actual: N"},
		{"missing key", putReq(avMap{"Artist": s("aaa")}), "One or more parameter values were invalid: Missing the key SongTitle in the item"},
		{"empty key", putReq(song("", nil)), "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: SongTitle"},
		{"index key type", putReq(song("x", avMap{"Genre": n("3")})), "One or more parameter values were invalid: Type mismatch for Index Key Genre Expected: S Actual: N IndexName: ByGenre"},
		{"too big", putReq(song("x", avMap{"big": s(strings.Repeat("x", 400*1024))})), "Item size has exceeded the maximum allowed size"},
		{"empty set", putReq(song("x", avMap{"ss": &types.AttributeValueMemberSS{Value: []string{}}})), "One or more parameter values were invalid: An string set  may not be empty"},
		{"delete partial key", delReq(avMap{"Artist": s("aaa")}), "The provided key element does not match the schema"},
		{"delete extra attribute", delReq(song("x", avMap{"v": n("1")})), "The provided key element does not match the schema"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := batchWrite(c, map[string][]types.WriteRequest{
				"Music": {putReq(song("first", nil)), tc.bad, putReq(song("last", nil))},
				"aaa":   {delReq(pk("keep")), putReq(pk("new"))},
			})
			wantAPIError(t, err, "ValidationException", tc.msg)
		})
	}
	got, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Music"), Key: song("first", nil)})
	if err != nil || got.Item != nil {
		t.Fatalf("an item before the bad request was written: %v %v", err, got)
	}
	wantItemCount(t, c, "Music", 0)
	wantItemCount(t, c, "aaa", 1)
}

func TestBatchUnknownTableAndKeySchema(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "aaa")
	_, err := batchWrite(c, map[string][]types.WriteRequest{"aaa": {putReq(pk("k"))}, "nope": {putReq(pk("k"))}})
	wantAPIError(t, err, "ResourceNotFoundException", "Requested resource not found")
	_, err = batchGet(c, map[string]types.KeysAndAttributes{"aaa": {Keys: []avMap{pk("k")}}, "nope": {Keys: []avMap{pk("k")}}})
	wantAPIError(t, err, "ResourceNotFoundException", "Requested resource not found")
	_, err = batchGet(c, map[string]types.KeysAndAttributes{"aaa": {Keys: []avMap{pk("k"), {"pk": n("1")}}}})
	wantAPIError(t, err, "ValidationException", "The provided key element does not match the schema")
	_, err = batchGet(c, map[string]types.KeysAndAttributes{"aaa": {Keys: []avMap{{"pk": s("k"), "other": s("x")}}}})
	wantAPIError(t, err, "ValidationException", "The provided key element does not match the schema")
	_, err = batchGet(c, map[string]types.KeysAndAttributes{"aaa": {Keys: []avMap{pk("")}}})
	wantAPIError(t, err, "ValidationException", "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: pk")
	_, err = batchGet(c, map[string]types.KeysAndAttributes{"arn:aws:dynamodb:eu-west-1:000000000000:table/aaa": {Keys: []avMap{pk("k")}}})
	wantAPIError(t, err, "ValidationException", "Invalid TableArn: Invalid ResourceArn provided as input arn:aws:dynamodb:eu-west-1:000000000000:table/aaa")
	wantItemCount(t, c, "aaa", 0)
}

func TestBatchWriteMaintainsIndexes(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSingleTable(t, c)
	pending := func(id string) avMap { return avMap{"PendingId": s(id)} }
	_, err := batchWrite(c, map[string][]types.WriteRequest{"app": {
		putReq(item("USER#1", "REQ#a", pending("p1"))), putReq(item("USER#2", "REQ#b", pending("p2"))),
		putReq(item("USER#3", "GROUP#x", nil)),
	}})
	if err != nil {
		t.Fatal(err)
	}
	p1 := map[string]types.AttributeValue{":p": s("p1")}
	if len(query(t, c, "Pending", "PendingId = :p", p1)) != 1 || len(query(t, c, "Inverted", "SK = :p", map[string]types.AttributeValue{":p": s("GROUP#x")})) != 1 {
		t.Fatal("batch puts did not reach the indexes")
	}
	_, err = batchWrite(c, map[string][]types.WriteRequest{"app": {
		delReq(avMap{"PK": s("USER#1"), "SK": s("REQ#a")}), putReq(item("USER#2", "REQ#b", pending("p9"))),
	}})
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]int{"p1": 0, "p2": 0, "p9": 1} {
		if got := query(t, c, "Pending", "PendingId = :p", map[string]types.AttributeValue{":p": s(id)}); len(got) != want {
			t.Fatalf("Pending %s: %d entries, want %d", id, len(got), want)
		}
	}
	d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("app")})
	if err != nil || *d.Table.ItemCount != 2 {
		t.Fatalf("describe: %v", err)
	}
}

// TestConcurrentBatchWritesOverlap has writers batch-write overlapping keys,
// each in its own order, deleting some as they go. Deadlock would hang the
// writers past their deadline; the table's count and size must match what
// is left, which holds only if every batch is applied atomically.
func TestConcurrentBatchWritesOverlap(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "hot")
	const writers, rounds, keys = 6, 12, 15
	deadline, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := 0; r < rounds; r++ {
				if _, err := c.BatchWriteItem(deadline, &dynamodb.BatchWriteItemInput{
					RequestItems: map[string][]types.WriteRequest{"hot": overlapping(w, r, keys)}}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	var all []avMap
	for i := 0; i < keys; i += 5 {
		var ks []avMap
		for j := i; j < i+5; j++ {
			ks = append(ks, pk(fmt.Sprintf("k%02d", j)))
		}
		g, err := batchGet(c, map[string]types.KeysAndAttributes{"hot": {Keys: ks}})
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, g.Responses["hot"]...)
	}
	var bytes int64
	for _, it := range all {
		bytes += int64(len("pk") + 3 + len("by") + len(it["by"].(*types.AttributeValueMemberS).Value))
	}
	d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("hot")})
	if err != nil || *d.Table.ItemCount != int64(len(all)) || *d.Table.TableSizeBytes != bytes {
		t.Fatalf("describe says %d items / %d bytes, table holds %d / %d (%v)",
			*d.Table.ItemCount, *d.Table.TableSizeBytes, len(all), bytes, err)
	}
}

// overlapping is writer w's round r: ten of the keys, starting at a
// different key for each writer and stepping through them in an order
// coprime with their number, every fourth one a delete.
func overlapping(w, r, keys int) []types.WriteRequest {
	var ws []types.WriteRequest
	for j := 0; j < 10; j++ {
		k := fmt.Sprintf("k%02d", (w*4+r+j*7)%keys)
		if (j+w)%4 == 3 {
			ws = append(ws, delReq(pk(k)))
			continue
		}
		ws = append(ws, putReq(avMap{"pk": s(k), "by": s(fmt.Sprintf("w%dr%d", w, r))}))
	}
	return ws
}
