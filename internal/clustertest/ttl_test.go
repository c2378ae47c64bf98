package clustertest_test

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	streamtypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/sortkeydb/sortkey/internal/clustertest"
)

const ttlItems = 300

// A table with Time to Live on, served by every node: each expired item
// is deleted once, with one REMOVE record in the stream, which every node
// serves alike.
func TestTTLDeletesOnceAcrossNodes(t *testing.T) {
	c := clustertest.Start(t, testStore(t), clustertest.Options{Nodes: *nodeCount, Flags: []string{"--ttl-interval", "300ms"}})
	ctx := context.Background()
	client := c.Client(0)
	if _, err := client.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("expiring"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("k"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("k"), KeyType: types.KeyTypeHash}},
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeKeysOnly}}); err != nil {
		t.Fatal(err)
	}
	c.WaitTable(t, "expiring")
	if _, err := c.Client(1).UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("expiring"),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("exp"), Enabled: aws.Bool(true)}}); err != nil {
		t.Fatal(err)
	}
	past := strconv.FormatInt(time.Now().Add(-time.Hour).Unix(), 10)
	for i := range ttlItems {
		it := map[string]types.AttributeValue{"k": &types.AttributeValueMemberS{Value: fmt.Sprint("item", i)},
			"exp": &types.AttributeValueMemberN{Value: past}}
		if _, err := c.Client(i%c.Len()).PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("expiring"), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	waitEmpty(t, c.Client(2), "expiring", time.Minute)
	for i := range c.Len() {
		events := streamEvents(t, c, i, "expiring")
		for k, n := range events {
			if n != 2 {
				t.Fatalf("node %d's stream has %d records of %s, want its INSERT and one REMOVE", i, n, k)
			}
		}
		if len(events) != ttlItems {
			t.Fatalf("node %d's stream names %d items, want %d", i, len(events), ttlItems)
		}
	}
	t.Logf("%d expired items deleted once each, %d stream records, the same on %d nodes", ttlItems, 2*ttlItems, c.Len())
}

func waitEmpty(t *testing.T, client *dynamodb.Client, table string, limit time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(300 * time.Millisecond) {
		out, err := client.Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String(table), Select: types.SelectCount, ConsistentRead: aws.Bool(true)})
		if err != nil {
			t.Fatal(err)
		}
		if out.Count == 0 {
			return
		}
	}
	t.Fatalf("expired items still in %s after %s", table, limit)
}

// streamEvents counts, per item, the records node i serves from the
// table's stream; a REMOVE must be the TTL service's.
func streamEvents(t *testing.T, c *clustertest.Cluster, i int, table string) map[string]int {
	t.Helper()
	ctx := context.Background()
	desc, err := c.Client(i).DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	if err != nil {
		t.Fatal(err)
	}
	sc := dynamodbstreams.New(dynamodbstreams.Options{Region: "us-east-1", BaseEndpoint: aws.String(c.URL(i)),
		Credentials: aws.AnonymousCredentials{}})
	stream, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: desc.Table.LatestStreamArn})
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, shard := range stream.StreamDescription.Shards {
		it, err := sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: desc.Table.LatestStreamArn,
			ShardId: shard.ShardId, ShardIteratorType: streamtypes.ShardIteratorTypeTrimHorizon})
		if err != nil {
			t.Fatal(err)
		}
		readShard(t, sc, it.ShardIterator, counts)
	}
	return counts
}

func readShard(t *testing.T, sc *dynamodbstreams.Client, iter *string, counts map[string]int) {
	for iter != nil {
		out, err := sc.GetRecords(context.Background(), &dynamodbstreams.GetRecordsInput{ShardIterator: iter})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range out.Records {
			k := r.Dynamodb.Keys["k"].(*streamtypes.AttributeValueMemberS).Value
			counts[k]++
			if r.EventName == streamtypes.OperationTypeRemove && (r.UserIdentity == nil || aws.ToString(r.UserIdentity.PrincipalId) != "dynamodb.amazonaws.com") {
				t.Fatalf("a REMOVE of %s not by the TTL service: %+v", k, r.UserIdentity)
			}
		}
		if len(out.Records) == 0 {
			return // an open shard's iterator never ends: stop at its present end
		}
		iter = out.NextShardIterator
	}
}
