package sortkey_test

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sync"
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

// applyChanges writes a fixed history: inserts, modifications, an update
// that changes nothing (no record), a delete and a delete of nothing.
func applyChanges(t *testing.T, c *dynamodb.Client, table string) {
	t.Helper()
	steps := []func() error{
		func() error { return put(c, table, map[string]types.AttributeValue{"pk": s("a"), "v": n("1")}) },
		func() error { return put(c, table, map[string]types.AttributeValue{"pk": s("b"), "v": n("1")}) },
		func() error { return put(c, table, map[string]types.AttributeValue{"pk": s("a"), "v": n("2")}) },
		func() error {
			_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: pk("b"),
				UpdateExpression: aws.String("SET v = :one"), ExpressionAttributeValues: map[string]types.AttributeValue{":one": n("1")}})
			return err
		},
		func() error {
			_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: pk("c"),
				UpdateExpression: aws.String("SET w = :x"), ExpressionAttributeValues: map[string]types.AttributeValue{":x": s("x")}})
			return err
		},
		func() error {
			_, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(table), Key: pk("b")})
			return err
		},
		func() error {
			_, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(table), Key: pk("zz")})
			return err
		},
	}
	for _, step := range steps {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestStreamReplayRebuildsTheTable(t *testing.T) {
	srv := sortkeytest.New(t)
	c, sc := srv.Client(), srv.StreamsClient()
	for _, view := range []types.StreamViewType{types.StreamViewTypeKeysOnly, types.StreamViewTypeNewImage,
		types.StreamViewTypeOldImage, types.StreamViewTypeNewAndOldImages} {
		t.Run(string(view), func(t *testing.T) {
			table := "s_" + string(view)
			arn := createStreamed(t, c, table, view)
			applyChanges(t, c, table)
			recs := readAll(t, sc, arn)
			var events []string
			for _, r := range recs {
				events = append(events, string(r.EventName)+" "+r.Dynamodb.Keys["pk"].(*stypes.AttributeValueMemberS).Value)
				if r.Dynamodb.StreamViewType != stypes.StreamViewType(view) || r.Dynamodb.SequenceNumber == nil || r.EventSource == nil {
					t.Fatalf("record fields: %+v", r)
				}
			}
			if fmt.Sprint(events) != "[INSERT a INSERT b MODIFY a INSERT c REMOVE b]" {
				t.Fatalf("events %v", events)
			}
			checkReplay(t, c, table, view, recs)
		})
	}
}

// checkReplay rebuilds what each view type allows and compares it with the
// table: the whole table from new images, the key set from keys, and each
// old image against the state the replay had reached.
func checkReplay(t *testing.T, c *dynamodb.Client, table string, view types.StreamViewType, recs []stypes.Record) {
	state := map[string]map[string]stypes.AttributeValue{}
	for _, r := range recs {
		k := r.Dynamodb.Keys["pk"].(*stypes.AttributeValueMemberS).Value
		hasOld, hasNew := r.Dynamodb.OldImage != nil, r.Dynamodb.NewImage != nil
		wantOld := (view == types.StreamViewTypeOldImage || view == types.StreamViewTypeNewAndOldImages) && r.EventName != stypes.OperationTypeInsert
		wantNew := (view == types.StreamViewTypeNewImage || view == types.StreamViewTypeNewAndOldImages) && r.EventName != stypes.OperationTypeRemove
		if hasOld != wantOld || hasNew != wantNew {
			t.Fatalf("%s %s: old image %v, new image %v", r.EventName, k, hasOld, hasNew)
		}
		if hasOld && !oldImageRight(view, r.Dynamodb.OldImage, state[k]) {
			t.Fatalf("old image of %s: %v", k, r.Dynamodb.OldImage)
		}
		switch {
		case r.EventName == stypes.OperationTypeRemove:
			delete(state, k)
		case hasNew:
			state[k] = r.Dynamodb.NewImage
		default:
			state[k] = r.Dynamodb.Keys
		}
	}
	items := scanAll(t, c, &dynamodb.ScanInput{TableName: aws.String(table)})
	if len(items) != len(state) || fmt.Sprint(slices.Sorted(maps.Keys(state))) != "[a c]" {
		t.Fatalf("replay has %v, table has %d items", slices.Sorted(maps.Keys(state)), len(items))
	}
	if view == types.StreamViewTypeNewImage || view == types.StreamViewTypeNewAndOldImages {
		for _, it := range items {
			k := str(it["pk"])
			if len(state[k]) != len(it) {
				t.Fatalf("replayed %s has %d attributes, table %d", k, len(state[k]), len(it))
			}
		}
	}
}

// oldImageRight compares an old image with the replayed item when the
// replay holds whole items; with OLD_IMAGE alone it holds only keys, and
// every item the history modifies or removes had v = 1 before.
func oldImageRight(view types.StreamViewType, old, replayed map[string]stypes.AttributeValue) bool {
	if view == types.StreamViewTypeNewAndOldImages {
		return reflect.DeepEqual(old, replayed)
	}
	v, ok := old["v"].(*stypes.AttributeValueMemberN)
	return ok && v.Value == "1"
}

func TestTTLDeletionRecordNamesTheService(t *testing.T) {
	clock := newClock()
	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{InMemory: true, Now: clock.Now, TTLInterval: -1})
	c, sc := srv.Client(), srv.StreamsClient()
	arn := createStreamed(t, c, "ttlstream", types.StreamViewTypeNewAndOldImages)
	if _, err := c.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("ttlstream"),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{Enabled: aws.Bool(true), AttributeName: aws.String("exp")}}); err != nil {
		t.Fatal(err)
	}
	if err := put(c, "ttlstream", map[string]types.AttributeValue{"pk": s("gone"), "exp": n(fmt.Sprint(clock.Now().Unix() + 5))}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("ttlstream"), Key: pk("other")}); err != nil {
		t.Fatal(err)
	}
	clock.Advance(10 * time.Second)
	if n, err := srv.DB.SweepExpired(); err != nil || n != 1 {
		t.Fatalf("sweep: %d, %v", n, err)
	}
	recs := readAll(t, sc, arn)
	last := recs[len(recs)-1]
	if len(recs) != 2 || last.EventName != stypes.OperationTypeRemove || last.UserIdentity == nil ||
		*last.UserIdentity.Type != "Service" || *last.UserIdentity.PrincipalId != "dynamodb.amazonaws.com" {
		t.Fatalf("TTL delete record: %d records, last %+v", len(recs), last)
	}
	if recs[0].UserIdentity != nil {
		t.Fatal("a user's write carries the service identity")
	}
}

func TestStreamLifecycle(t *testing.T) {
	clock := newClock()
	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{InMemory: true, Now: clock.Now, TTLInterval: -1})
	c, sc := srv.Client(), srv.StreamsClient()
	first := createStreamed(t, c, "life", types.StreamViewTypeKeysOnly)
	if err := put(c, "life", map[string]types.AttributeValue{"pk": s("a")}); err != nil {
		t.Fatal(err)
	}
	d, _ := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(first)})
	shard := d.StreamDescription.Shards[0]
	latest, _ := sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(first), ShardId: shard.ShardId,
		ShardIteratorType: stypes.ShardIteratorTypeLatest})
	if err := put(c, "life", map[string]types.AttributeValue{"pk": s("b")}); err != nil {
		t.Fatal(err)
	}
	got, err := sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: latest.ShardIterator})
	if err != nil || len(got.Records) != 1 || got.Records[0].Dynamodb.Keys["pk"].(*stypes.AttributeValueMemberS).Value != "b" {
		t.Fatalf("LATEST iterator read %v (%v)", got.Records, err)
	}
	after, _ := sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(first), ShardId: shard.ShardId,
		ShardIteratorType: stypes.ShardIteratorTypeAfterSequenceNumber, SequenceNumber: got.Records[0].Dynamodb.SequenceNumber})
	clock.Advance(16 * time.Minute)
	_, err = sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: after.ShardIterator})
	var expired *stypes.ExpiredIteratorException
	if !errors.As(err, &expired) {
		t.Fatalf("a 16-minute-old iterator: %v", err)
	}
	checkDisableAndReenable(t, c, sc, first)
}

func setStream(c *dynamodb.Client, on bool) (*dynamodb.UpdateTableOutput, error) {
	spec := &types.StreamSpecification{StreamEnabled: aws.Bool(on)}
	if on {
		spec.StreamViewType = types.StreamViewTypeNewImage
	}
	return c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("life"), StreamSpecification: spec})
}

// checkDisableAndReenable closes the first stream, whose shard then ends,
// and opens a second one with a new ARN; both are listed.
func checkDisableAndReenable(t *testing.T, c *dynamodb.Client, sc *dynamodbstreams.Client, first string) {
	if _, err := setStream(c, false); err != nil {
		t.Fatal(err)
	}
	d, _ := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(first)})
	if d.StreamDescription.StreamStatus != stypes.StreamStatusDisabled || d.StreamDescription.Shards[0].SequenceNumberRange.EndingSequenceNumber == nil {
		t.Fatalf("disabled stream: %s, range %+v", d.StreamDescription.StreamStatus, d.StreamDescription.Shards[0].SequenceNumberRange)
	}
	if n := len(readAllClosed(t, sc, first)); n != 2 {
		t.Fatalf("closed shard holds %d records, want 2", n)
	}
	out, err := setStream(c, true)
	if err != nil {
		t.Fatal(err)
	}
	second := *out.TableDescription.LatestStreamArn
	if second == first {
		t.Fatal("a re-enabled stream kept the old ARN")
	}
	list, err := sc.ListStreams(ctx, &dynamodbstreams.ListStreamsInput{TableName: aws.String("life")})
	if err != nil || len(list.Streams) != 2 {
		t.Fatalf("ListStreams: %v (%v)", list, err)
	}
	if err := put(c, "life", map[string]types.AttributeValue{"pk": s("c")}); err != nil {
		t.Fatal(err)
	}
	if recs := readAll(t, sc, second); len(recs) != 1 || recs[0].Dynamodb.NewImage == nil {
		t.Fatalf("the new stream holds %d records", len(recs))
	}
}

// readAllClosed reads a closed shard to its end, which GetRecords marks by
// returning no next iterator.
func readAllClosed(t *testing.T, sc *dynamodbstreams.Client, arn string) []stypes.Record {
	d, _ := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn)})
	it, err := sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn),
		ShardId: d.StreamDescription.Shards[0].ShardId, ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
	if err != nil {
		t.Fatal(err)
	}
	var out []stypes.Record
	for iter, pages := it.ShardIterator, 0; iter != nil; pages++ {
		if pages > 10 {
			t.Fatal("a closed shard never ended")
		}
		page, err := sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: iter})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, page.Records...)
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
