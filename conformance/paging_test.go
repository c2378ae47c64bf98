package conformance_test

import (
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// The rest of the paging tests are transcripts now, in
// conformance/testdata/paging/ (scan_order*.txt, megabyte_page.txt). These
// two walk every page to its end, with Limits of 1 to 1000 and the SDK's
// paginator, and check each item is seen once: loops that end when the
// answers say so, which a transcript cannot write.

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
