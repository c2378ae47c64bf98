package conformance_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

func createStreamed(t *testing.T, c *dynamodb.Client, name string, view types.StreamViewType) string {
	t.Helper()
	out, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: "S"}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: view}})
	if err != nil {
		t.Fatal(err)
	}
	return *out.TableDescription.LatestStreamArn
}

// readAll reads a stream's only shard from TRIM_HORIZON in pages of 3
// until it has caught up.
func readAll(t *testing.T, sc *dynamodbstreams.Client, arn string) []stypes.Record {
	t.Helper()
	d, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn)})
	if err != nil {
		t.Fatal(err)
	}
	it, err := sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn),
		ShardId: d.StreamDescription.Shards[0].ShardId, ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
	if err != nil {
		t.Fatal(err)
	}
	var out []stypes.Record
	for iter := it.ShardIterator; iter != nil; {
		page, err := sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: iter, Limit: aws.Int32(3)})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, page.Records...)
		if len(page.Records) == 0 {
			break // caught up with an open shard
		}
		iter = page.NextShardIterator
	}
	return out
}

// TestStreamUnderConcurrentWriters has 8 clients overwrite 10 items; the
// stream's sequence numbers must rise strictly, and the last new image of
// each key must be the item in the table.
func TestStreamUnderConcurrentWriters(t *testing.T) {
	srv := sortkeytest.New(t)
	c, sc := srv.Client(), srv.StreamsClient()
	arn := createStreamed(t, c, "busy", types.StreamViewTypeNewImage)
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range 30 {
				it := map[string]types.AttributeValue{"pk": s(fmt.Sprint(i % 10)), "by": n(fmt.Sprint(w*100 + i))}
				if err := put(c, "busy", it); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	last := map[string]string{}
	prev := ""
	for _, r := range readAll(t, sc, arn) {
		if seq := *r.Dynamodb.SequenceNumber; seq <= prev {
			t.Fatalf("sequence number %s after %s", seq, prev)
		} else {
			prev = seq
		}
		last[r.Dynamodb.Keys["pk"].(*stypes.AttributeValueMemberS).Value] = r.Dynamodb.NewImage["by"].(*stypes.AttributeValueMemberN).Value
	}
	for _, it := range scanAll(t, c, &dynamodb.ScanInput{TableName: aws.String("busy")}) {
		if by := it["by"].(*types.AttributeValueMemberN).Value; last[str(it["pk"])] != by {
			t.Fatalf("item %s holds %s, its last stream record %s", str(it["pk"]), by, last[str(it["pk"])])
		}
	}
}
