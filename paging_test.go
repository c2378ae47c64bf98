package sortkey_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// loadPaging writes 5 partitions of 30 items; every third item is "red".
// Items of partitions 0-2 carry the GSI key, so the index holds 90.
func loadPaging(t *testing.T, c *dynamodb.Client) {
	createSingleTable(t, c)
	for p := 0; p < 5; p++ {
		for i := 0; i < 30; i++ {
			extra := map[string]types.AttributeValue{"Color": s([]string{"red", "blue", "green"}[i%3]), "Created": n(fmt.Sprint(i))}
			if p < 3 {
				extra["Status"] = s("live")
			}
			if err := put(c, "app", item(fmt.Sprintf("P#%d", p), fmt.Sprintf("I#%02d", i), extra)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestPagingVisitsEachItemOnce(t *testing.T) {
	c := sortkeytest.New(t).Client()
	loadPaging(t, c)
	live := map[string]types.AttributeValue{":l": s("live")}
	red := map[string]types.AttributeValue{":r": s("red")}
	for _, tc := range []struct {
		name   string
		query  *dynamodb.QueryInput
		scan   *dynamodb.ScanInput
		expect int
	}{
		{name: "query table forward", expect: 30, query: &dynamodb.QueryInput{KeyConditionExpression: aws.String("PK = :p"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":p": s("P#1")}}},
		{name: "query table backward filtered", expect: 10, query: &dynamodb.QueryInput{KeyConditionExpression: aws.String("PK = :p"),
			FilterExpression: aws.String("Color = :r"), ScanIndexForward: aws.Bool(false),
			ExpressionAttributeValues: map[string]types.AttributeValue{":p": s("P#1"), ":r": s("red")}}},
		{name: "query GSI forward", expect: 90, query: &dynamodb.QueryInput{IndexName: aws.String("ByStatus"),
			KeyConditionExpression: aws.String("#s = :l"), ExpressionAttributeNames: map[string]string{"#s": "Status"}, ExpressionAttributeValues: live}},
		{name: "query GSI backward", expect: 90, query: &dynamodb.QueryInput{IndexName: aws.String("ByStatus"), ScanIndexForward: aws.Bool(false),
			KeyConditionExpression: aws.String("#s = :l"), ExpressionAttributeNames: map[string]string{"#s": "Status"}, ExpressionAttributeValues: live}},
		{name: "query LSI", expect: 30, query: &dynamodb.QueryInput{IndexName: aws.String("ByCreated"), KeyConditionExpression: aws.String("PK = :p"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":p": s("P#4")}}},
		{name: "scan table", expect: 150, scan: &dynamodb.ScanInput{}},
		{name: "scan table filtered", expect: 50, scan: &dynamodb.ScanInput{FilterExpression: aws.String("Color = :r"), ExpressionAttributeValues: red}},
		{name: "scan GSI", expect: 90, scan: &dynamodb.ScanInput{IndexName: aws.String("ByStatus")}},
	} {
		for _, limit := range []int32{1, 7, 1000} {
			t.Run(fmt.Sprintf("%s/limit %d", tc.name, limit), func(t *testing.T) {
				seen := map[string]int{}
				for _, it := range pages(t, c, tc.query, tc.scan, limit) {
					seen[strs([]map[string]types.AttributeValue{it}, "PK")+"/"+strs([]map[string]types.AttributeValue{it}, "SK")]++
				}
				if len(seen) != tc.expect {
					t.Fatalf("%d distinct items, want %d", len(seen), tc.expect)
				}
				for k, n := range seen {
					if n != 1 {
						t.Fatalf("%s seen %d times", k, n)
					}
				}
			})
		}
	}
}

// pages walks every page of a query or scan with the given Limit.
func pages(t *testing.T, c *dynamodb.Client, q *dynamodb.QueryInput, sc *dynamodb.ScanInput, limit int32) []map[string]types.AttributeValue {
	t.Helper()
	var all []map[string]types.AttributeValue
	var start map[string]types.AttributeValue
	for i := 0; ; i++ {
		if i > 1000 {
			t.Fatal("paging does not end")
		}
		var items, lek []map[string]types.AttributeValue
		if q != nil {
			in := *q
			in.TableName, in.Limit, in.ExclusiveStartKey = aws.String("app"), aws.Int32(limit), start
			out, err := c.Query(ctx, &in)
			if err != nil {
				t.Fatal(err)
			}
			items, lek = out.Items, []map[string]types.AttributeValue{out.LastEvaluatedKey}
		} else {
			in := *sc
			in.TableName, in.Limit, in.ExclusiveStartKey = aws.String("app"), aws.Int32(limit), start
			out, err := c.Scan(ctx, &in)
			if err != nil {
				t.Fatal(err)
			}
			items, lek = out.Items, []map[string]types.AttributeValue{out.LastEvaluatedKey}
		}
		all = append(all, items...)
		if start = lek[0]; start == nil {
			return all
		}
	}
}

func TestParallelScanSegmentsPartitionTheTable(t *testing.T) {
	c := sortkeytest.New(t).Client()
	loadPaging(t, c)
	for _, total := range []int32{1, 3, 7, 1000000} {
		seen := map[string]int{}
		segments := []int32{0, 1, 2, 3, 4, 5, 6}
		if total == 1000000 {
			segments = nil // spot-check: the union over all is covered by the others
		}
		for _, seg := range segments {
			if seg >= total {
				break
			}
			in := &dynamodb.ScanInput{TableName: aws.String("app"), Segment: aws.Int32(seg), TotalSegments: aws.Int32(total)}
			p := dynamodb.NewScanPaginator(c, in)
			for p.HasMorePages() {
				out, err := p.NextPage(ctx)
				if err != nil {
					t.Fatal(err)
				}
				for _, it := range out.Items {
					seen[strs([]map[string]types.AttributeValue{it}, "PK")+strs([]map[string]types.AttributeValue{it}, "SK")]++
				}
			}
		}
		if segments == nil {
			out, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("app"), Segment: aws.Int32(999999), TotalSegments: aws.Int32(total)})
			if err != nil || out.Count > 150 {
				t.Fatalf("last of a million segments: %v", err)
			}
			continue
		}
		if len(seen) != 150 {
			t.Fatalf("%d segments cover %d items, want 150", total, len(seen))
		}
		for k, n := range seen {
			if n != 1 {
				t.Fatalf("%d segments: %s in %d segments", total, k, n)
			}
		}
	}
}

func TestScanOrderIsDeterministic(t *testing.T) {
	a, b := sortkeytest.New(t).Client(), sortkeytest.New(t).Client()
	createSimple(t, a, "ord")
	createSimple(t, b, "ord")
	for i := 0; i < 40; i++ {
		put(a, "ord", map[string]types.AttributeValue{"pk": s(fmt.Sprint(i))})
		put(b, "ord", map[string]types.AttributeValue{"pk": s(fmt.Sprint(39 - i))})
	}
	sa, err := a.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("ord")})
	if err != nil {
		t.Fatal(err)
	}
	sb, _ := b.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("ord")})
	if x, y := strs(sa.Items, "pk"), strs(sb.Items, "pk"); x != y || strings.Count(x, ",") != 39 {
		t.Fatalf("scan order depends on insertion order:\n%s\n%s", x, y)
	}
}

// TestScanOrderBetweenPartitions (facts file, section 12): a Scan paged
// three items at a time returns all of partition A before all of B, each
// partition in sort-key order (byte-wise for S, numeric for N), whatever
// the order the items were put in.
func TestScanOrderBetweenPartitions(t *testing.T) {
	c := sortkeytest.New(t).Client()
	for _, tc := range []struct {
		skType types.ScalarAttributeType
		want   string
	}{
		{"S", "[A/1 A/16 A/17] [A/18 A/19 A/20] [A/3 A/5 A/7] [B/0 B/2 B/4] [B/6]"},
		{"N", "[A/1 A/3 A/5] [A/7 A/16 A/17] [A/18 A/19 A/20] [B/0 B/2 B/4] [B/6]"},
	} {
		table := "order" + string(tc.skType)
		_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String(table), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: "S"}, {AttributeName: aws.String("sk"), AttributeType: tc.skType}},
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange}}})
		if err != nil {
			t.Fatal(err)
		}
		for i, sk := range []string{"0", "1", "2", "3", "4", "5", "6", "7", "20", "19", "18", "17", "16"} {
			pk := map[bool]string{true: "B", false: "A"}[i < 8 && i%2 == 0]
			var v types.AttributeValue = s(sk)
			if tc.skType == "N" {
				v = n(sk)
			}
			if err := put(c, table, avMap{"pk": s(pk), "sk": v}); err != nil {
				t.Fatal(err)
			}
		}
		if got := scanPages(t, c, table, 3); got != tc.want {
			t.Errorf("sk %s: pages %s\nwant %s", tc.skType, got, tc.want)
		}
	}
}

// scanPages pages through a Scan, limit items a page, and writes each
// page's items as [pk/sk ...].
func scanPages(t *testing.T, c *dynamodb.Client, table string, limit int32) string {
	t.Helper()
	in := &dynamodb.ScanInput{TableName: aws.String(table), Limit: aws.Int32(limit)}
	var pages []string
	for {
		out, err := c.Scan(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		var page []string
		for _, it := range out.Items {
			sk := it["sk"]
			if num, ok := sk.(*types.AttributeValueMemberN); ok {
				sk = s(num.Value)
			}
			page = append(page, str(it["pk"])+"/"+str(sk))
		}
		pages = append(pages, "["+strings.Join(page, " ")+"]")
		if out.LastEvaluatedKey == nil {
			return strings.Join(pages, " ")
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// TestQueryPageStopsOnceOneMegabyteIsRead: a page ends with the item that
// takes the data read past 1 MB (1,048,576 bytes), sizing items by the
// Developer Guide's rules and counting them before any filter or
// projection, as the guide describes Query's and Scan's page limit.
func TestQueryPageStopsOnceOneMegabyteIsRead(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createPKSK(t, c, "big")
	for i := range 12 {
		// PK (2) + p (1) + SK (2) + sNN (3) + P (1) + value: 100 KB in all.
		if err := put(c, "big", avMap{"PK": s("p"), "SK": s(fmt.Sprintf("s%02d", i)), "P": s(strings.Repeat("x", 100*1024-9))}); err != nil {
			t.Fatal(err)
		}
	}
	q := &dynamodb.QueryInput{TableName: aws.String("big"), KeyConditionExpression: aws.String("PK = :p"),
		ExpressionAttributeValues: avMap{":p": s("p")}}
	for _, filtered := range []bool{false, true} {
		if filtered {
			q.FilterExpression, q.ProjectionExpression = aws.String("attribute_exists(nothing)"), aws.String("SK")
		}
		out, err := c.Query(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if out.ScannedCount != 11 || out.LastEvaluatedKey == nil || str(out.LastEvaluatedKey["SK"]) != "s10" {
			t.Fatalf("filtered %v: page read %d items, want 11 ending at s10", filtered, out.ScannedCount)
		}
	}
}

// TestScanPageStopsOnceOneMegabyteIsRead: Scan's page ends where Query's
// does, with the item that takes the data read past 1 MB, counted before
// the filter and the projection.
func TestScanPageStopsOnceOneMegabyteIsRead(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createPKSK(t, c, "big")
	for i := range 12 {
		// As in the Query test: 100 KB per item, all in one partition.
		if err := put(c, "big", avMap{"PK": s("p"), "SK": s(fmt.Sprintf("s%02d", i)), "P": s(strings.Repeat("x", 100*1024-9))}); err != nil {
			t.Fatal(err)
		}
	}
	in := &dynamodb.ScanInput{TableName: aws.String("big")}
	for _, filtered := range []bool{false, true} {
		if filtered {
			in.FilterExpression, in.ProjectionExpression = aws.String("attribute_exists(nothing)"), aws.String("SK")
		}
		out, err := c.Scan(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		if out.ScannedCount != 11 || out.LastEvaluatedKey == nil || str(out.LastEvaluatedKey["SK"]) != "s10" {
			t.Fatalf("filtered %v: page read %d items, want 11 ending at s10", filtered, out.ScannedCount)
		}
	}
}
