package sortkey_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// The Streams API's request checks, as the DynamoDB Streams API Reference
// states its constraints (StreamArn 37..1024, ShardId 28..65,
// SequenceNumber 21..40, Limit's upper limits 100 and 1000) and as the
// service words its refusals.

const (
	// noShard is the service's answer for a shard id the stream lacks.
	noShard = "Requested resource not found: Shard does not exist"
	// aShardID has a shard id's form and length but names no shard.
	aShardID = "shardId-00000000000000000000-00000000"
)

// streamFixture is one table with a stream and its only shard.
type streamFixture struct {
	sc    *dynamodbstreams.Client
	arn   string
	shard string
}

func newStreamFixture(t *testing.T, table string) streamFixture {
	t.Helper()
	srv := sortkeytest.New(t)
	f := streamFixture{sc: srv.StreamsClient(), arn: createStreamed(t, srv.Client(), table, types.StreamViewTypeKeysOnly)}
	d, err := f.sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: &f.arn})
	if err != nil {
		t.Fatal(err)
	}
	f.shard = *d.StreamDescription.Shards[0].ShardId
	return f
}

func (f streamFixture) describe(in *dynamodbstreams.DescribeStreamInput) (*stypes.StreamDescription, error) {
	if in.StreamArn == nil {
		in.StreamArn = &f.arn
	}
	out, err := f.sc.DescribeStream(ctx, in)
	if err != nil {
		return nil, err
	}
	return out.StreamDescription, nil
}

func childShards(of string) *stypes.ShardFilter {
	return &stypes.ShardFilter{Type: stypes.ShardFilterTypeChildShards, ShardId: aws.String(of)}
}

// The only shard of a stream has no children: its stream is never split.
func TestDescribeStreamShardFilterChildShardsOfTheOnlyShardIsEmpty(t *testing.T) {
	f := newStreamFixture(t, "filter")
	d, err := f.describe(&dynamodbstreams.DescribeStreamInput{ShardFilter: childShards(f.shard)})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Shards) != 0 || aws.ToString(d.StreamArn) != f.arn {
		t.Fatalf("children of the only shard: %+v", d.Shards)
	}
}

func TestDescribeStreamShardFilterOfAShardThatDoesNotExist(t *testing.T) {
	f := newStreamFixture(t, "filter")
	_, err := f.describe(&dynamodbstreams.DescribeStreamInput{ShardFilter: childShards(aShardID)})
	wantAPIError(t, err, notFound, noShard)
}

func TestDescribeStreamShardFilterModelConstraints(t *testing.T) {
	f := newStreamFixture(t, "filter")
	cases := []struct {
		filter *stypes.ShardFilter
		msg    string
	}{
		{&stypes.ShardFilter{Type: "PARENT_SHARDS", ShardId: &f.shard},
			"1 validation error detected: Value 'PARENT_SHARDS' at 'shardFilter.type' failed to satisfy constraint: Member must satisfy enum value set: [CHILD_SHARDS]"},
		{childShards("shardId-1"),
			"1 validation error detected: Value 'shardId-1' at 'shardFilter.shardId' failed to satisfy constraint: Member must have length greater than or equal to 28"},
		{&stypes.ShardFilter{Type: stypes.ShardFilterTypeChildShards},
			"1 validation error detected: Value null at 'shardFilter.shardId' failed to satisfy constraint: Member must not be null"},
		{&stypes.ShardFilter{ShardId: &f.shard},
			"1 validation error detected: Value null at 'shardFilter.type' failed to satisfy constraint: Member must not be null"},
	}
	for _, tc := range cases {
		_, err := f.describe(&dynamodbstreams.DescribeStreamInput{ShardFilter: tc.filter})
		wantAPIError(t, err, validation, tc.msg)
	}
}

// An ExclusiveStartShardId of no shard is no error: the list after it is
// empty, as after the only shard (facts 31.2).
func TestDescribeStreamExclusiveStartShardIdThatDoesNotExist(t *testing.T) {
	f := newStreamFixture(t, "start")
	for _, start := range []string{aShardID, "zzzzzzzzzzzzzzzzzzzzzzzzsfasdgagadfadfgagkjsdfsfsdjfjks", f.shard} {
		d, err := f.describe(&dynamodbstreams.DescribeStreamInput{ExclusiveStartShardId: aws.String(start)})
		if err != nil || d.Shards == nil || len(d.Shards) != 0 {
			t.Fatalf("after %s: %+v (%v), want no shards", start, d, err)
		}
	}
}

func limitMessage(v, bound string, atMost bool) string {
	rel := "greater than or equal to "
	if atMost {
		rel = "less than or equal to "
	}
	return "1 validation error detected: Value '" + v + "' at 'limit' failed to satisfy constraint: Member must have value " + rel + bound
}

func TestDescribeStreamLimitBounds(t *testing.T) {
	f := newStreamFixture(t, "limits")
	_, err := f.describe(&dynamodbstreams.DescribeStreamInput{Limit: aws.Int32(0)})
	wantAPIError(t, err, validation, limitMessage("0", "1", false))
	_, err = f.describe(&dynamodbstreams.DescribeStreamInput{Limit: aws.Int32(101)})
	wantAPIError(t, err, validation, limitMessage("101", "100", true))
	if _, err := f.describe(&dynamodbstreams.DescribeStreamInput{Limit: aws.Int32(100)}); err != nil {
		t.Fatal(err)
	}
}

func TestListStreamsLimitBounds(t *testing.T) {
	f := newStreamFixture(t, "limits")
	_, err := f.sc.ListStreams(ctx, &dynamodbstreams.ListStreamsInput{Limit: aws.Int32(0)})
	wantAPIError(t, err, validation, limitMessage("0", "1", false))
	_, err = f.sc.ListStreams(ctx, &dynamodbstreams.ListStreamsInput{Limit: aws.Int32(101)})
	wantAPIError(t, err, validation, limitMessage("101", "100", true))
	out, err := f.sc.ListStreams(ctx, &dynamodbstreams.ListStreamsInput{Limit: aws.Int32(100)})
	if err != nil || len(out.Streams) != 1 {
		t.Fatalf("Limit 100: %v (%v)", out, err)
	}
}

func TestGetRecordsLimitBounds(t *testing.T) {
	f := newStreamFixture(t, "limits")
	it := f.iterator(t)
	_, err := f.sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it, Limit: aws.Int32(0)})
	wantAPIError(t, err, validation, limitMessage("0", "1", false))
	_, err = f.sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it, Limit: aws.Int32(1001)})
	wantAPIError(t, err, validation, limitMessage("1001", "1000", true))
	if _, err := f.sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it, Limit: aws.Int32(1000)}); err != nil {
		t.Fatal(err)
	}
}

func (f streamFixture) iterator(t *testing.T) *string {
	t.Helper()
	out, err := f.sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: &f.arn, ShardId: &f.shard,
		ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
	if err != nil {
		t.Fatal(err)
	}
	return out.ShardIterator
}

func TestGetRecordsMalformedShardIterator(t *testing.T) {
	f := newStreamFixture(t, "iter")
	for _, it := range []string{"x", "not-an-iterator", f.arn + "|1|AAAA"} {
		_, err := f.sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: aws.String(it)})
		wantAPIError(t, err, validation, "Invalid ShardIterator")
	}
	_, err := f.sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: aws.String(strings.Repeat("x", 2049))})
	wantAPIError(t, err, validation, "1 validation error detected: Value '"+strings.Repeat("x", 2049)+
		"' at 'shardIterator' failed to satisfy constraint: Member must have length less than or equal to 2048")
}

// A string too short for a stream ARN fails the model's length constraint;
// one long enough that is not a stream ARN is refused as invalid; a
// well-formed ARN that names no stream is not found.
func TestStreamArnMalformedIsValidationException(t *testing.T) {
	f := newStreamFixture(t, "arns")
	short := "arn:aws:dynamodb:table/arns"
	_, err := f.describe(&dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(short)})
	wantAPIError(t, err, validation, "1 validation error detected: Value '"+short+
		"' at 'streamArn' failed to satisfy constraint: Member must have length greater than or equal to 37")
	tableArn, _, _ := strings.Cut(f.arn, "/stream/")
	for _, bad := range []string{strings.Repeat("x", 40), tableArn + "/other/label", tableArn + "/stream/",
		strings.Replace(f.arn, ":dynamodb:", ":kinesis:", 1), strings.Replace(f.arn, ":000000000000:", ":12345:", 1)} {
		_, err := f.describe(&dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(bad)})
		wantAPIError(t, err, validation, "Invalid StreamArn")
		_, err = f.sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(bad), ShardId: &f.shard,
			ShardIteratorType: stypes.ShardIteratorTypeLatest})
		wantAPIError(t, err, validation, "Invalid StreamArn")
		_, err = f.sc.ListStreams(ctx, &dynamodbstreams.ListStreamsInput{ExclusiveStartStreamArn: aws.String(bad)})
		wantAPIError(t, err, validation, "Invalid StreamArn")
	}
}

func TestStreamArnWellFormedButUnknownIsResourceNotFound(t *testing.T) {
	f := newStreamFixture(t, "arns")
	tableArn, _, _ := strings.Cut(f.arn, "/stream/")
	for _, unknown := range []string{tableArn + "/stream/2000-01-01T00:00:00.000", strings.Replace(f.arn, "table/arns/", "table/other/", 1)} {
		msg := "Requested resource not found: Stream: " + unknown + " not found"
		_, err := f.describe(&dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(unknown)})
		wantAPIError(t, err, notFound, msg)
		_, err = f.sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(unknown), ShardId: &f.shard,
			ShardIteratorType: stypes.ShardIteratorTypeLatest})
		wantAPIError(t, err, notFound, msg)
	}
}

// A listing resumed after the stream of a table deleted since goes on
// with the streams after it (facts 31.1).
func TestListStreamsResumesAfterADeletedTablesStream(t *testing.T) {
	srv := sortkeytest.New(t)
	c, sc := srv.Client(), srv.StreamsClient()
	var arns []string
	for _, name := range []string{"page_a", "page_b", "page_c"} {
		arns = append(arns, createStreamed(t, c, name, types.StreamViewTypeKeysOnly))
	}
	for _, tc := range []struct {
		deleted string
		start   string
		want    []string
	}{
		{"page_a", arns[0], arns[1:2]},
		{"page_b", arns[1], arns[2:3]},
		{"page_c", arns[2], nil},
	} {
		if _, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(tc.deleted)}); err != nil {
			t.Fatal(err)
		}
		out, err := sc.ListStreams(ctx, &dynamodbstreams.ListStreamsInput{Limit: aws.Int32(1), ExclusiveStartStreamArn: aws.String(tc.start)})
		if err != nil {
			t.Fatalf("after %s: %v", tc.deleted, err)
		}
		var got []string
		for _, st := range out.Streams {
			got = append(got, *st.StreamArn)
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Fatalf("after %s: %v, want %v", tc.deleted, got, tc.want)
		}
	}
}

// Disabling a stream a table does not have is refused (facts 31.3).
func TestUpdateTableDisablingNoStream(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "nostream")
	_, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("nostream"),
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(false)}})
	wantAPIError(t, err, validation, "Table has no stream to disable: TableName: nostream")
}

// ListStreams pages by the last stream's ARN, one stream after another.
func TestListStreamsExclusiveStartStreamArnPages(t *testing.T) {
	srv := sortkeytest.New(t)
	c, sc := srv.Client(), srv.StreamsClient()
	var arns []string
	for _, name := range []string{"page_a", "page_b", "page_c"} {
		arns = append(arns, createStreamed(t, c, name, types.StreamViewTypeKeysOnly))
	}
	var got []string
	for start := (*string)(nil); ; {
		out, err := sc.ListStreams(ctx, &dynamodbstreams.ListStreamsInput{Limit: aws.Int32(2), ExclusiveStartStreamArn: start})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range out.Streams {
			got = append(got, *s.StreamArn)
		}
		if start = out.LastEvaluatedStreamArn; start == nil {
			break
		}
	}
	if strings.Join(got, " ") != strings.Join(arns, " ") {
		t.Fatalf("paged %v, want %v", got, arns)
	}
}

func TestGetShardIteratorShardIdThatDoesNotExist(t *testing.T) {
	f := newStreamFixture(t, "shards")
	_, err := f.sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: &f.arn, ShardId: aws.String(aShardID),
		ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
	wantAPIError(t, err, notFound, noShard)
	_, err = f.sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: &f.arn, ShardId: aws.String("shardId-1"),
		ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
	wantAPIError(t, err, validation, "1 validation error detected: Value 'shardId-1' at 'shardId' failed to satisfy constraint: Member must have length greater than or equal to 28")
}

// The enum is listed in the API Reference's order, as DynamoDB lists the
// members of ReturnConsumedCapacity in its own model order.
func TestGetShardIteratorInvalidIteratorType(t *testing.T) {
	f := newStreamFixture(t, "types")
	_, err := f.sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: &f.arn, ShardId: &f.shard,
		ShardIteratorType: "OLDEST"})
	wantAPIError(t, err, validation, "1 validation error detected: Value 'OLDEST' at 'shardIteratorType' failed to satisfy constraint: "+
		"Member must satisfy enum value set: [TRIM_HORIZON, LATEST, AT_SEQUENCE_NUMBER, AFTER_SEQUENCE_NUMBER]")
}

func TestGetShardIteratorSequenceNumberChecks(t *testing.T) {
	f := newStreamFixture(t, "seq")
	get := func(kind stypes.ShardIteratorType, seq *string) error {
		_, err := f.sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: &f.arn, ShardId: &f.shard,
			ShardIteratorType: kind, SequenceNumber: seq})
		return err
	}
	wantAPIError(t, get(stypes.ShardIteratorTypeAtSequenceNumber, aws.String("12345")), validation,
		"1 validation error detected: Value '12345' at 'sequenceNumber' failed to satisfy constraint: Member must have length greater than or equal to 21")
	wantAPIError(t, get(stypes.ShardIteratorTypeAtSequenceNumber, nil), validation, "Must provide a SequenceNumber for ShardIteratorType AT_SEQUENCE_NUMBER")
	far := strings.Repeat("9", 21)
	wantAPIError(t, get(stypes.ShardIteratorTypeLatest, &far), validation, "Must not provide a SequenceNumber for ShardIteratorType LATEST")
	wantAPIError(t, get(stypes.ShardIteratorTypeAfterSequenceNumber, &far), validation, "Invalid SequenceNumber "+far+" for shard "+f.shard)
	notNumber := strings.Repeat("z", 21)
	wantAPIError(t, get(stypes.ShardIteratorTypeAtSequenceNumber, &notNumber), validation, "Invalid SequenceNumber "+notNumber+" for shard "+f.shard)
}

// noopWrites are writes that change nothing in the item written: the
// Developer Guide has a stream record written only when an item is
// actually modified.
var noopWrites = []struct {
	name string
	run  func(c *dynamodb.Client, table string) error
}{
	{"PutItem identical", func(c *dynamodb.Client, table string) error { return put(c, table, noopItem("1.50", "y", "x")) }},
	{"UpdateItem same value", func(c *dynamodb.Client, table string) error {
		return update(c, table, "SET v = :v", avMap{":v": n("1.5")})
	}},
	{"UpdateItem REMOVE missing attribute", func(c *dynamodb.Client, table string) error { return update(c, table, "REMOVE nothing", nil) }},
	{"UpdateItem ADD zero", func(c *dynamodb.Client, table string) error { return update(c, table, "ADD v :z", avMap{":z": n("0")}) }},
	{"UpdateItem DELETE absent member", func(c *dynamodb.Client, table string) error {
		return update(c, table, "DELETE ss :m", avMap{":m": &types.AttributeValueMemberSS{Value: []string{"absent"}}})
	}},
	{"DeleteItem missing", func(c *dynamodb.Client, table string) error {
		_, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: &table, Key: pk("missing")})
		return err
	}},
	{"UpdateItem REMOVE only on a missing item", func(c *dynamodb.Client, table string) error {
		_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: &table, Key: pk("missing"), UpdateExpression: aws.String("REMOVE v")})
		return err
	}},
	{"BatchWriteItem identical and missing", func(c *dynamodb.Client, table string) error {
		_, err := batchWrite(c, map[string][]types.WriteRequest{table: {putReq(noopItem("1.5", "x", "y")), delReq(pk("missing"))}})
		return err
	}},
	{"TransactWriteItems identical and missing", func(c *dynamodb.Client, table string) error {
		_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			{Put: &types.Put{TableName: &table, Item: noopItem("1.5", "x", "y")}},
			{Delete: &types.Delete{TableName: &table, Key: pk("missing")}}}})
		return err
	}},
}

// noopItem is item a, its number and set members spelled as given.
func noopItem(v, m1, m2 string) avMap {
	return avMap{"pk": s("a"), "v": n(v), "ss": &types.AttributeValueMemberSS{Value: []string{m1, m2}}}
}

func update(c *dynamodb.Client, table, expr string, vals avMap) error {
	_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: &table, Key: pk("a"), UpdateExpression: &expr,
		ExpressionAttributeValues: vals})
	return err
}

func TestNoStreamRecordForAWriteThatChangesNothing(t *testing.T) {
	srv := sortkeytest.New(t)
	c, sc := srv.Client(), srv.StreamsClient()
	for i, w := range noopWrites {
		t.Run(w.name, func(t *testing.T) {
			table := "noop" + string(rune('a'+i))
			arn := createStreamed(t, c, table, types.StreamViewTypeNewAndOldImages)
			if err := put(c, table, noopItem("1.5", "x", "y")); err != nil {
				t.Fatal(err)
			}
			if err := w.run(c, table); err != nil {
				t.Fatal(err)
			}
			if err := put(c, table, pk("end")); err != nil {
				t.Fatal(err)
			}
			recs := readAll(t, sc, arn)
			if len(recs) != 2 || str2(recs[1].Dynamodb.Keys["pk"]) != "end" {
				t.Fatalf("%d records, want the setup's and the marker's only: %+v", len(recs), recs)
			}
		})
	}
}

func str2(v stypes.AttributeValue) string { return v.(*stypes.AttributeValueMemberS).Value }
