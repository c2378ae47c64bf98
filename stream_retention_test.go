package sortkey_test

import (
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
)

// shardIterator is an iterator of the stream's only shard.
func shardIterator(t *testing.T, sc *dynamodbstreams.Client, arn string, kind stypes.ShardIteratorType, seq *string) (*string, error) {
	t.Helper()
	d, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn)})
	if err != nil {
		t.Fatal(err)
	}
	out, err := sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn),
		ShardId: d.StreamDescription.Shards[0].ShardId, ShardIteratorType: kind, SequenceNumber: seq})
	if err != nil {
		return nil, err
	}
	return out.ShardIterator, nil
}

func keysOf(recs []stypes.Record) []string {
	var out []string
	for _, r := range recs {
		out = append(out, r.Dynamodb.Keys["pk"].(*stypes.AttributeValueMemberS).Value)
	}
	return out
}

// TestStreamRecordsAreTrimmedAfterADay: a consumer 25 hours behind finds
// its records gone: TRIM_HORIZON starts after them, and asking for one by
// sequence number is a TrimmedDataAccessException.
func TestStreamRecordsAreTrimmedAfterADay(t *testing.T) {
	srv, c, sc := virtualServer(t)
	arn := createStreamed(t, c, "events", types.StreamViewTypeKeysOnly)
	for _, k := range []string{"old1", "old2"} {
		if err := put(c, "events", map[string]types.AttributeValue{"pk": s(k)}); err != nil {
			t.Fatal(err)
		}
	}
	first := readAll(t, sc, arn)[0].Dynamodb.SequenceNumber
	srv.Advance(25 * time.Hour)
	if err := put(c, "events", map[string]types.AttributeValue{"pk": s("new")}); err != nil {
		t.Fatal(err)
	}
	if got := keysOf(readAll(t, sc, arn)); len(got) != 1 || got[0] != "new" {
		t.Fatalf("from TRIM_HORIZON after 25 hours: %v, want only the new record", got)
	}
	for _, kind := range []stypes.ShardIteratorType{stypes.ShardIteratorTypeAtSequenceNumber, stypes.ShardIteratorTypeAfterSequenceNumber} {
		_, err := shardIterator(t, sc, arn, kind, first)
		var trimmed *stypes.TrimmedDataAccessException
		if !errors.As(err, &trimmed) {
			t.Errorf("%s a trimmed record: %v", kind, err)
		}
	}
}

// TestIteratorOverRecordsThatAgeOut: an iterator made while its records
// were readable, used once they have aged past a day (but before the
// iterator's own 15 minutes are up), meets TrimmedDataAccessException.
func TestIteratorOverRecordsThatAgeOut(t *testing.T) {
	srv, c, sc := virtualServer(t)
	arn := createStreamed(t, c, "events", types.StreamViewTypeKeysOnly)
	if err := put(c, "events", map[string]types.AttributeValue{"pk": s("a")}); err != nil {
		t.Fatal(err)
	}
	srv.Advance(24*time.Hour - 5*time.Minute)
	it, err := shardIterator(t, sc, arn, stypes.ShardIteratorTypeTrimHorizon, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv.Advance(10 * time.Minute)
	_, err = sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it})
	var trimmed *stypes.TrimmedDataAccessException
	if !errors.As(err, &trimmed) {
		t.Fatalf("GetRecords over a record 24h05m old: %v", err)
	}
	latest, err := shardIterator(t, sc, arn, stypes.ShardIteratorTypeLatest, nil)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: latest}); err != nil || len(out.Records) != 0 {
		t.Fatalf("LATEST on a stream whose records all aged out: %v (%v)", out, err)
	}
}
