package validate

import (
	"strings"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// The Streams API's refusals beyond its model constraints, as the service
// words them.
const (
	msgInvalidStreamArn      = "Invalid StreamArn"
	msgSequenceNumberMissing = "Must provide a SequenceNumber for ShardIteratorType %s"
	msgSequenceNumberExtra   = "Must not provide a SequenceNumber for ShardIteratorType %s"
)

// The largest page each listing returns: the API Reference's "upper limit"
// of each Limit, which the service enforces though its model states only
// the lower bound.
const (
	MaxStreamsPage = 100
	MaxShardsPage  = 100
	MaxRecordsPage = 1000
)

// The enum sets in the API Reference's order, which is the model's.
var (
	shardIteratorTypes = []string{"TRIM_HORIZON", "LATEST", "AT_SEQUENCE_NUMBER", "AFTER_SEQUENCE_NUMBER"}
	shardFilterTypes   = []string{"CHILD_SHARDS"}
)

// ListStreams checks a ListStreams request: model constraints, then the
// form of ExclusiveStartStreamArn.
func ListStreams(in *protocol.ListStreamsInput) error {
	var v violations
	if in.TableName != nil {
		tableNameModel(&v, in.TableName, "tableName")
	}
	pageLimit(&v, in.Limit, MaxStreamsPage)
	if in.ExclusiveStartStreamArn != nil {
		v.length(*in.ExclusiveStartStreamArn, "exclusiveStartStreamArn", 37, 1024)
	}
	if err := v.err(); err != nil {
		return err
	}
	return streamArnForm(in.ExclusiveStartStreamArn)
}

// DescribeStream checks a DescribeStream request: model constraints, then
// the form of the stream ARN.
func DescribeStream(in *protocol.DescribeStreamInput) error {
	var v violations
	streamArnModel(&v, in.StreamArn)
	pageLimit(&v, in.Limit, MaxShardsPage)
	if in.ExclusiveStartShardId != nil {
		v.length(*in.ExclusiveStartShardId, "exclusiveStartShardId", 28, 65)
	}
	shardFilterModel(&v, in.ShardFilter)
	if err := v.err(); err != nil {
		return err
	}
	return streamArnForm(in.StreamArn)
}

// shardFilterModel checks a ShardFilter. The model marks neither member
// required, but a filter means nothing without both, so each missing one
// is refused as a required member is.
func shardFilterModel(v *violations, f *protocol.ShardFilter) {
	if f == nil {
		return
	}
	if v.present(f.Type == nil, "shardFilter.type") {
		v.enum(f.Type, "shardFilter.type", shardFilterTypes)
	}
	if v.present(f.ShardId == nil, "shardFilter.shardId") {
		v.length(*f.ShardId, "shardFilter.shardId", 28, 65)
	}
}

// GetShardIterator checks a GetShardIterator request: model constraints,
// the form of the stream ARN, then that the sequence-number types, and
// only they, name a sequence number.
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
	if err := streamArnForm(in.StreamArn); err != nil {
		return err
	}
	return sequenceNumberRequired(in)
}

func sequenceNumberRequired(in *protocol.GetShardIteratorInput) error {
	t := *in.ShardIteratorType
	needs := t == "AT_SEQUENCE_NUMBER" || t == "AFTER_SEQUENCE_NUMBER"
	if needs && in.SequenceNumber == nil {
		return apierr.Validationf(msgSequenceNumberMissing, t)
	}
	if !needs && in.SequenceNumber != nil {
		return apierr.Validationf(msgSequenceNumberExtra, t)
	}
	return nil
}

// GetRecords checks a GetRecords request's model constraints.
func GetRecords(in *protocol.GetRecordsInput) error {
	var v violations
	if v.present(in.ShardIterator == nil, "shardIterator") {
		v.length(*in.ShardIterator, "shardIterator", 1, 2048)
	}
	pageLimit(&v, in.Limit, MaxRecordsPage)
	return v.err()
}

// pageLimit checks a listing's Limit: at least 1, at most the page size.
func pageLimit(v *violations, limit *int64, max int64) {
	v.atLeast(limit, "limit", 1)
	v.atMost(limit, "limit", max)
}

func streamArnModel(v *violations, arn *string) {
	if v.present(arn == nil, "streamArn") {
		v.length(*arn, "streamArn", 37, 1024)
	}
}

// streamArnForm refuses a stream ARN parameter that is not a stream's ARN
// at all; whether the stream exists is the engine's question.
func streamArnForm(arn *string) error {
	if arn != nil && !validStreamArn(*arn) {
		return apierr.Validationf(msgInvalidStreamArn)
	}
	return nil
}

// validStreamArn reports whether s has a stream ARN's form:
// arn:<partition>:dynamodb:<region>:<12-digit account>:table/<name>/stream/<label>.
func validStreamArn(s string) bool {
	p := strings.SplitN(s, ":", 6)
	if len(p) != 6 || p[0] != "arn" || p[1] == "" || p[2] != "dynamodb" || p[3] == "" || !accountID(p[4]) {
		return false
	}
	name, label, ok := strings.Cut(strings.TrimPrefix(p[5], "table/"), "/stream/")
	return ok && strings.HasPrefix(p[5], "table/") && validName(name) && len(name) >= 3 && len(name) <= 255 &&
		label != "" && !strings.Contains(label, "/")
}

func accountID(s string) bool {
	if len(s) != 12 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
