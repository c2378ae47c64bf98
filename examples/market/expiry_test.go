package main

import (
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// TestCartExpiresOnTheVirtualClock runs Market on a server whose clock
// moves only when told (`sortkey serve --clock virtual`, here
// sortkey.Options.Clock). The store tells time by the same clock; the
// test never sleeps and never asks for a sweep: a day after its last
// change the cart is gone from the table the moment Advance returns, and
// the table's stream says the TTL service deleted it, as a consumer
// releasing the cart's reserved stock would see on DynamoDB.
func TestCartExpiresOnTheVirtualClock(t *testing.T) {
	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{Clock: sortkey.NewVirtualClock(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)),
		TTLInterval: -1}) // no background sweeper: only the clock's moves delete
	back := dynamodb.NewFromConfig(srv.NetworkAWSConfig())
	if err := CreateTables(ctx, back); err != nil {
		t.Fatal(err)
	}
	stream := enableCartStream(t, back)
	s := NewStore(back, nil, srv.Now).As(Okafor)
	cart, err := shop(ctx, s, []CartLine{Grinder})
	if err != nil {
		t.Fatal(err)
	}

	srv.Advance(CartLifetime - time.Minute)
	if _, err := s.Cart(ctx, cart.Key); err != nil {
		t.Fatalf("a cart a minute before its expiry: %v", err)
	}
	srv.Advance(2 * time.Minute)
	out, err := back.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(MarketTable), Key: key(cart.PK, cart.Key.String()), ConsistentRead: aws.Bool(true)})
	if err != nil || out.Item != nil {
		t.Fatalf("a minute past its expiry the cart is still stored: %v (%v)", out.Item, err)
	}
	if _, err := s.AddToCart(ctx, cart.Key, Filters); !errors.Is(err, ErrNotFound) {
		t.Fatalf("AddToCart on an expired cart: %v", err)
	}
	last := lastRecord(t, dynamodbstreams.NewFromConfig(srv.NetworkAWSConfig()), stream)
	if last.EventName != stypes.OperationTypeRemove || last.UserIdentity == nil ||
		aws.ToString(last.UserIdentity.Type) != "Service" || aws.ToString(last.UserIdentity.PrincipalId) != "dynamodb.amazonaws.com" {
		t.Fatalf("last stream record: %s by %+v, want the TTL service's REMOVE", last.EventName, last.UserIdentity)
	}
	if sk := last.Dynamodb.Keys["sk"].(*stypes.AttributeValueMemberS).Value; sk != cart.Key.String() || len(last.Dynamodb.OldImage["lines"].(*stypes.AttributeValueMemberL).Value) != 1 {
		t.Fatalf("the REMOVE record is of %s with old image %v", sk, last.Dynamodb.OldImage)
	}
}

// enableCartStream turns on the Market table's stream with old images,
// for a consumer that needs the expired cart's lines, and returns its ARN.
func enableCartStream(t *testing.T, db *dynamodb.Client) string {
	t.Helper()
	out, err := db.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String(MarketTable),
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeOldImage}})
	if err != nil {
		t.Fatal(err)
	}
	return aws.ToString(out.TableDescription.LatestStreamArn)
}

// lastRecord reads the stream's only shard from its start and returns
// its last record.
func lastRecord(t *testing.T, sc *dynamodbstreams.Client, arn string) stypes.Record {
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
	recs, err := sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it.ShardIterator})
	if err != nil || len(recs.Records) == 0 {
		t.Fatalf("the stream holds %v (%v)", recs, err)
	}
	return recs.Records[len(recs.Records)-1]
}
