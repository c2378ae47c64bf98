package validate

import (
	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

var shardIteratorTypes = []string{"AFTER_SEQUENCE_NUMBER", "AT_SEQUENCE_NUMBER", "LATEST", "TRIM_HORIZON"}

// ListStreams checks a ListStreams request's model constraints.
func ListStreams(in *protocol.ListStreamsInput) error {
	var v violations
	if in.TableName != nil {
		tableNameModel(&v, in.TableName, "tableName")
	}
	v.atLeast(in.Limit, "limit", 1)
	if in.ExclusiveStartStreamArn != nil {
		v.length(*in.ExclusiveStartStreamArn, "exclusiveStartStreamArn", 37, 1024)
	}
	return v.err()
}

// DescribeStream checks a DescribeStream request's model constraints.
func DescribeStream(in *protocol.DescribeStreamInput) error {
	var v violations
	streamArnModel(&v, in.StreamArn)
	v.atLeast(in.Limit, "limit", 1)
	if in.ExclusiveStartShardId != nil {
		v.length(*in.ExclusiveStartShardId, "exclusiveStartShardId", 28, 65)
	}
	if err := v.err(); err != nil {
		return err
	}
	return Refused(in)
}

// GetShardIterator checks a GetShardIterator request, including that the
// sequence-number types name a sequence number.
func GetShardIterator(in *protocol.GetShardIteratorInput) error {
	var v violations
	streamArnModel(&v, in.StreamArn)
	if v.present(in.ShardId == nil, "shardId") {
		v.length(*in.ShardId, "shardId", 28, 65)
	}
	if v.present(in.ShardIteratorType == nil, "shardIteratorType") {
		v.enum(in.ShardIteratorType, "shardIteratorType", shardIteratorTypes)
	}
	if in.SequenceNumber != nil {
		v.length(*in.SequenceNumber, "sequenceNumber", 21, 40)
	}
	if err := v.err(); err != nil {
		return err
	}
	if err := Refused(in); err != nil {
		return err
	}
	return sequenceNumberRequired(in)
}

func sequenceNumberRequired(in *protocol.GetShardIteratorInput) error {
	t := *in.ShardIteratorType
	needs := t == "AT_SEQUENCE_NUMBER" || t == "AFTER_SEQUENCE_NUMBER"
	if needs && in.SequenceNumber == nil {
		return apierr.Validationf("Must provide a SequenceNumber for ShardIteratorType %s", t)
	}
	if !needs && in.SequenceNumber != nil {
		return apierr.Validationf("Must not provide a SequenceNumber for ShardIteratorType %s", t)
	}
	return nil
}

// GetRecords checks a GetRecords request's model constraints.
func GetRecords(in *protocol.GetRecordsInput) error {
	var v violations
	if v.present(in.ShardIterator == nil, "shardIterator") {
		v.length(*in.ShardIterator, "shardIterator", 1, 2048)
	}
	v.atLeast(in.Limit, "limit", 1)
	v.atMost(in.Limit, "limit", 1000)
	return v.err()
}

func streamArnModel(v *violations, arn *string) {
	if v.present(arn == nil, "streamArn") {
		v.length(*arn, "streamArn", 37, 1024)
	}
}
