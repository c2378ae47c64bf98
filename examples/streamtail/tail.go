package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
)

// pollEvery is how long the consumer waits after an empty GetRecords.
const pollEvery = 200 * time.Millisecond

// streamOf returns the ARN of a table's current stream.
func streamOf(ctx context.Context, db *dynamodb.Client, table string) (string, error) {
	out, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	if err != nil {
		return "", err
	}
	if out.Table.StreamSpecification == nil || out.Table.LatestStreamArn == nil {
		return "", fmt.Errorf("table %s has no stream enabled", table)
	}
	return *out.Table.LatestStreamArn, nil
}

// Tail calls fn for every record the stream receives from now on, shard
// by shard, until ctx ends or every shard is closed and read. It starts
// each open shard at LATEST, as a live consumer does, and renews an
// iterator that expires.
func Tail(ctx context.Context, sc *dynamodbstreams.Client, arn string, fn func(types.Record)) error {
	d, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn)})
	if err != nil {
		return err
	}
	for _, shard := range d.StreamDescription.Shards {
		if shard.SequenceNumberRange.EndingSequenceNumber != nil {
			continue // closed before we started: nothing live to tail
		}
		if err := tailShard(ctx, sc, arn, *shard.ShardId, fn); err != nil {
			return err
		}
	}
	return nil
}

func tailShard(ctx context.Context, sc *dynamodbstreams.Client, arn, shard string, fn func(types.Record)) error {
	it, err := iterator(ctx, sc, arn, shard, types.ShardIteratorTypeLatest, nil)
	var last *string
	for err == nil && it != nil {
		var page *dynamodbstreams.GetRecordsOutput
		page, err = sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it})
		var expired *types.ExpiredIteratorException
		if errors.As(err, &expired) {
			it, err = resume(ctx, sc, arn, shard, last)
			continue
		}
		if err != nil {
			break
		}
		for _, r := range page.Records {
			fn(r)
			last = r.Dynamodb.SequenceNumber
		}
		it = page.NextShardIterator
		if len(page.Records) == 0 {
			err = sleep(ctx, pollEvery)
		}
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return nil
	}
	return err
}

// resume gets a fresh iterator just after the last record delivered.
func resume(ctx context.Context, sc *dynamodbstreams.Client, arn, shard string, last *string) (*string, error) {
	if last == nil {
		return iterator(ctx, sc, arn, shard, types.ShardIteratorTypeLatest, nil)
	}
	return iterator(ctx, sc, arn, shard, types.ShardIteratorTypeAfterSequenceNumber, last)
}

func iterator(ctx context.Context, sc *dynamodbstreams.Client, arn, shard string, kind types.ShardIteratorType, seq *string) (*string, error) {
	out, err := sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn),
		ShardId: aws.String(shard), ShardIteratorType: kind, SequenceNumber: seq})
	if err != nil {
		return nil, err
	}
	return out.ShardIterator, nil
}

func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}
