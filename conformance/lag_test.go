package conformance_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// The index-lag tests are transcripts now (conformance/testdata/lag/);
// these need a stale-read window (Options.StaleReadWindow), which the
// transcript runner's server does not set, or call sortkey.Open itself.

// lagged is a server on a virtual clock with the given index lag and
// stale-read window, and a table "lag": PK/SK, a GSI ByGroup (Group, SK)
// projecting ALL and an LSI ByRank (PK, Rank) projecting KEYS_ONLY.
func lagged(t *testing.T, index, stale time.Duration) (*sortkeytest.Server, *dynamodb.Client) {
	t.Helper()
	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{Clock: sortkey.NewVirtualClock(time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)),
		IndexLag: index, StaleReadWindow: stale, TTLInterval: -1})
	c := srv.Client()
	def := func(n string, ty types.ScalarAttributeType) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: ty}
	}
	ks := func(h, r string) []types.KeySchemaElement {
		return []types.KeySchemaElement{{AttributeName: aws.String(h), KeyType: types.KeyTypeHash}, {AttributeName: aws.String(r), KeyType: types.KeyTypeRange}}
	}
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("lag"),
		AttributeDefinitions: []types.AttributeDefinition{def("PK", "S"), def("SK", "S"), def("Group", "S"), def("Rank", "N")},
		KeySchema:            ks("PK", "SK"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("ByGroup"), KeySchema: ks("Group", "SK"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{{IndexName: aws.String("ByRank"), KeySchema: ks("PK", "Rank"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}},
		BillingMode: types.BillingModePayPerRequest,
	})
	if err != nil {
		t.Fatal(err)
	}
	return srv, c
}

func putLag(t *testing.T, c *dynamodb.Client, pk, sk, group, v string) {
	t.Helper()
	it := map[string]types.AttributeValue{"PK": s(pk), "SK": s(sk), "V": s(v), "Rank": n("1")}
	if group != "" {
		it["Group"] = s(group)
	}
	if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("lag"), Item: it}); err != nil {
		t.Fatal(err)
	}
}

func deleteLag(t *testing.T, c *dynamodb.Client, pk, sk string) {
	t.Helper()
	key := map[string]types.AttributeValue{"PK": s(pk), "SK": s(sk)}
	if _, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("lag"), Key: key}); err != nil {
		t.Fatal(err)
	}
}

// groupVs queries ByGroup for group and returns each item's SK=V, in
// order, checking that Count agrees.
func groupVs(t *testing.T, c *dynamodb.Client, group string) []string {
	t.Helper()
	out, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("lag"), IndexName: aws.String("ByGroup"),
		KeyConditionExpression: aws.String("#g = :g"), ExpressionAttributeNames: map[string]string{"#g": "Group"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":g": s(group)}})
	if err != nil {
		t.Fatal(err)
	}
	if int(out.Count) != len(out.Items) || out.ScannedCount != out.Count {
		t.Fatalf("Query %s: Count %d, ScannedCount %d, %d items", group, out.Count, out.ScannedCount, len(out.Items))
	}
	return skVs(out.Items)
}

func skVs(items []map[string]types.AttributeValue) []string {
	vs := []string{}
	for _, it := range items {
		vs = append(vs, lagStr(it["SK"])+"="+lagStr(it["V"]))
	}
	return vs
}

func lagStr(v types.AttributeValue) string {
	if s, ok := v.(*types.AttributeValueMemberS); ok {
		return s.Value
	}
	return "-"
}

// getV reads item pk/sk's V, or "absent".
func getV(t *testing.T, c *dynamodb.Client, pk, sk string, consistent bool) string {
	t.Helper()
	out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("lag"), ConsistentRead: aws.Bool(consistent),
		Key: map[string]types.AttributeValue{"PK": s(pk), "SK": s(sk)}})
	if err != nil {
		t.Fatal(err)
	}
	if out.Item == nil {
		return "absent"
	}
	return lagStr(out.Item["V"])
}

func wantVs(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if want == nil {
		want = []string{}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("%s = %q, want %q", what, got, want)
	}
}

func TestStaleReadsServeThePreviousVersionToEventualReadsOnly(t *testing.T) {
	srv, c := lagged(t, 0, time.Second)
	putLag(t, c, "u1", "a", "", "1")
	putLag(t, c, "u1", "gone", "", "1")
	srv.Advance(time.Second)
	putLag(t, c, "u1", "a", "", "2")
	putLag(t, c, "u1", "new", "", "2")
	deleteLag(t, c, "u1", "gone")
	for _, k := range []struct{ sk, old, cur string }{{"a", "1", "2"}, {"new", "absent", "2"}, {"gone", "1", "absent"}} {
		if got := getV(t, c, "u1", k.sk, false); got != k.old {
			t.Errorf("eventually consistent GetItem %s = %s, want %s", k.sk, got, k.old)
		}
		if got := getV(t, c, "u1", k.sk, true); got != k.cur {
			t.Errorf("strongly consistent GetItem %s = %s, want %s", k.sk, got, k.cur)
		}
	}
	wantVs(t, "eventually consistent Query", queryLag(t, c, "", false), "a=1", "gone=1")
	wantVs(t, "strongly consistent Query", queryLag(t, c, "", true), "a=2", "new=2")
	wantVs(t, "eventually consistent LSI Query", queryLag(t, c, "ByRank", false), "a=1", "gone=1")
	wantVs(t, "strongly consistent LSI Query", queryLag(t, c, "ByRank", true), "a=2", "new=2")
	wantVs(t, "TransactGetItems", transactGetLag(t, c, "a", "new", "gone"), "a=2", "new=2")
	wantVs(t, "eventually consistent BatchGetItem", batchGetLag(t, c, false, "a", "new", "gone"), "a=1", "gone=1")
	wantVs(t, "strongly consistent BatchGetItem", batchGetLag(t, c, true, "a", "new", "gone"), "a=2", "new=2")
	srv.Advance(time.Second)
	if got := getV(t, c, "u1", "a", false); got != "2" {
		t.Fatalf("eventually consistent GetItem after the window = %s, want 2", got)
	}
	wantVs(t, "eventually consistent Query after the window", queryLag(t, c, "", false), "a=2", "new=2")
}

func TestStaleReadsAreTheIndexLagAtLeast(t *testing.T) {
	srv, c := lagged(t, 0, time.Second)
	putLag(t, c, "u1", "a", "g", "1")
	wantVs(t, "GSI within the stale window", groupVs(t, c, "g"))
	srv.Advance(time.Second)
	wantVs(t, "GSI after it", groupVs(t, c, "g"), "a=1")
}

// queryLag reads partition u1 of the table or an index, sorted by SK;
// the LSI's KEYS_ONLY entries fetch V from the table.
func queryLag(t *testing.T, c *dynamodb.Client, index string, consistent bool) []string {
	t.Helper()
	in := &dynamodb.QueryInput{TableName: aws.String("lag"), ConsistentRead: aws.Bool(consistent),
		KeyConditionExpression:    aws.String("PK = :p"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":p": s("u1")}}
	if index != "" {
		in.IndexName, in.Select = aws.String(index), types.SelectAllAttributes
	}
	out, err := c.Query(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	vs := skVs(out.Items)
	slices.Sort(vs)
	return vs
}

func transactGetLag(t *testing.T, c *dynamodb.Client, sks ...string) []string {
	t.Helper()
	var in dynamodb.TransactGetItemsInput
	for _, sk := range sks {
		in.TransactItems = append(in.TransactItems, types.TransactGetItem{Get: &types.Get{TableName: aws.String("lag"),
			Key: map[string]types.AttributeValue{"PK": s("u1"), "SK": s(sk)}}})
	}
	out, err := c.TransactGetItems(ctx, &in)
	if err != nil {
		t.Fatal(err)
	}
	var items []map[string]types.AttributeValue
	for _, r := range out.Responses {
		if r.Item != nil {
			items = append(items, r.Item)
		}
	}
	return skVs(items)
}

func batchGetLag(t *testing.T, c *dynamodb.Client, consistent bool, sks ...string) []string {
	t.Helper()
	ka := types.KeysAndAttributes{ConsistentRead: aws.Bool(consistent)}
	for _, sk := range sks {
		ka.Keys = append(ka.Keys, map[string]types.AttributeValue{"PK": s("u1"), "SK": s(sk)})
	}
	out, err := c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"lag": ka}})
	if err != nil {
		t.Fatal(err)
	}
	vs := skVs(out.Responses["lag"])
	slices.Sort(vs)
	return vs
}

// A stale Scan or Query, forwards or backwards, pages through the previous
// versions: deleted items are counted where they were, new ones are not,
// and every page's Count and ScannedCount agree with its items.
func TestStaleReadsPageThroughThePreviousVersions(t *testing.T) {
	srv, c := lagged(t, 0, time.Second)
	for _, sk := range []string{"a", "b", "c", "d", "e"} {
		putLag(t, c, "u1", sk, "", "1")
	}
	srv.Advance(time.Second)
	deleteLag(t, c, "u1", "b")
	deleteLag(t, c, "u1", "e")
	putLag(t, c, "u1", "bb", "", "2")
	putLag(t, c, "u1", "c", "", "2")
	scan := func(start map[string]types.AttributeValue) (*dynamodb.ScanOutput, error) {
		return c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("lag"), Limit: aws.Int32(2), ExclusiveStartKey: start})
	}
	wantVs(t, "stale Scan", lagPages(t, scan), "a=1", "b=1", "c=1", "d=1", "e=1")
	backwards := func(start map[string]types.AttributeValue) (*dynamodb.ScanOutput, error) {
		out, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("lag"), Limit: aws.Int32(2), ExclusiveStartKey: start,
			ScanIndexForward: aws.Bool(false), KeyConditionExpression: aws.String("PK = :p"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":p": s("u1")}})
		if err != nil {
			return nil, err
		}
		return &dynamodb.ScanOutput{Items: out.Items, Count: out.Count, ScannedCount: out.ScannedCount, LastEvaluatedKey: out.LastEvaluatedKey}, nil
	}
	wantVs(t, "stale Query backwards", lagPages(t, backwards), "e=1", "d=1", "c=1", "b=1", "a=1")
}

// lagPages reads every page of a read limited to 2 items, checking each
// page's counts, and returns the items' SK=V.
func lagPages(t *testing.T, read func(start map[string]types.AttributeValue) (*dynamodb.ScanOutput, error)) []string {
	t.Helper()
	var got []string
	var scanned int32
	var start map[string]types.AttributeValue
	for page := 0; ; page++ {
		out, err := read(start)
		if err != nil {
			t.Fatal(err)
		}
		if int(out.Count) != len(out.Items) || out.ScannedCount != out.Count || out.Count > 2 {
			t.Fatalf("page %d: Count %d, ScannedCount %d, %d items", page, out.Count, out.ScannedCount, len(out.Items))
		}
		got, scanned = append(got, skVs(out.Items)...), scanned+out.ScannedCount
		if start = out.LastEvaluatedKey; start == nil {
			break
		}
	}
	if int(scanned) != len(got) {
		t.Fatalf("ScannedCount summed to %d for %d items", scanned, len(got))
	}
	return got
}

func TestNegativeLagIsRefused(t *testing.T) {
	for _, o := range []sortkey.Options{{InMemory: true, IndexLag: -time.Second}, {InMemory: true, StaleReadWindow: -time.Second}} {
		if db, err := sortkey.Open("", &o); !errors.Is(err, sortkey.ErrNegativeLag) {
			if db != nil {
				db.Close()
			}
			t.Fatalf("Open(%+v) = %v, want ErrNegativeLag", o, err)
		}
	}
}
