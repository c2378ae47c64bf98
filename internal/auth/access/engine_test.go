package access_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey/internal/auth/access"
	"github.com/sortkeydb/sortkey/internal/engine"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// The engine's Catalog, on a real table with a GSI, an LSI and a stream.
func TestEngineCatalog(t *testing.T) {
	e, err := engine.Open(engine.Options{InMemory: true, Region: "eu-west-2", TTLInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	ctx := context.Background()
	create := `{"TableName":"Games","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"user","AttributeType":"S"},{"AttributeName":"game","AttributeType":"S"},
			{"AttributeName":"top","AttributeType":"N"},{"AttributeName":"when","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"user","KeyType":"HASH"},{"AttributeName":"game","KeyType":"RANGE"}],
		"GlobalSecondaryIndexes":[{"IndexName":"ByGame","KeySchema":[{"AttributeName":"game","KeyType":"HASH"},
			{"AttributeName":"top","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}],
		"LocalSecondaryIndexes":[{"IndexName":"ByWhen","KeySchema":[{"AttributeName":"user","KeyType":"HASH"},
			{"AttributeName":"when","KeyType":"RANGE"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}],
		"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"KEYS_ONLY"}}`
	var in protocol.CreateTableInput
	if err := protocol.Decode([]byte(create), &in); err != nil {
		t.Fatal(err)
	}
	out, err := e.CreateTable(ctx, &in)
	if err != nil {
		t.Fatal(err)
	}
	cat := e.AuthCatalog()
	tableArn := out.TableDescription.TableArn
	if got := cat.TableArn("Games"); got != tableArn || !strings.Contains(got, ":eu-west-2:") {
		t.Errorf("TableArn = %q, want %q", got, tableArn)
	}
	if name, ok := cat.TableOfArn(tableArn); name != "Games" || !ok {
		t.Errorf("TableOfArn = %q, %v", name, ok)
	}
	if _, ok := cat.TableOfArn(tableArn + "/index/ByGame"); ok {
		t.Error("TableOfArn took an index ARN for a table's")
	}
	want := access.Schema{Partition: []string{"user"}, Sort: "game", StreamArn: out.TableDescription.LatestStreamArn,
		Indexes: map[string]access.IndexSchema{
			"ByGame": {Partition: []string{"game"}, Sort: []string{"top"}},
			"ByWhen": {Partition: []string{"user"}, Sort: []string{"when"}, Local: true}}}
	if got, ok := cat.Schema("Games"); !ok || !reflect.DeepEqual(got, want) {
		t.Errorf("Schema = %+v, %v\nwant %+v", got, ok, want)
	}
	if _, ok := cat.Schema("Nope"); ok {
		t.Error("Schema of a missing table")
	}

	// A Query on the GSI is authorised on the index, for the game's partition.
	var q protocol.QueryInput
	_ = protocol.Decode([]byte(`{"TableName":"Games","IndexName":"ByGame","KeyConditionExpression":"game = :g",
		"ExpressionAttributeValues":{":g":{"S":"chess"}}}`), &q)
	checks, err := access.Describe("Query", &q, cat)
	if err != nil || len(checks) != 1 || checks[0].Resource != tableArn+"/index/ByGame" ||
		!reflect.DeepEqual(checks[0].Keys[access.KeyLeadingKeys], []string{"chess"}) {
		t.Errorf("Query on the GSI: %+v, %v", checks, err)
	}

	// GetRecords is authorised on the stream its iterator came from.
	desc, err := e.DescribeStream(ctx, &protocol.DescribeStreamInput{StreamArn: &want.StreamArn})
	if err != nil {
		t.Fatal(err)
	}
	kind := "TRIM_HORIZON"
	it, err := e.GetShardIterator(ctx, &protocol.GetShardIteratorInput{StreamArn: &want.StreamArn,
		ShardId: &desc.StreamDescription.Shards[0].ShardId, ShardIteratorType: &kind})
	if err != nil {
		t.Fatal(err)
	}
	checks, err = access.Describe("GetRecords", &protocol.GetRecordsInput{ShardIterator: &it.ShardIterator}, cat)
	wantCheck := []access.Check{{Action: "dynamodb:GetRecords", Resource: want.StreamArn}}
	if err != nil || !reflect.DeepEqual(checks, wantCheck) {
		t.Errorf("GetRecords: %+v, %v; want %+v", checks, err, wantCheck)
	}
	if arn, ok := cat.StreamOfIterator("not-an-iterator"); ok {
		t.Errorf("StreamOfIterator of junk = %q", arn)
	}
}

// BenchmarkDescribeGetItemEngine is BenchmarkDescribeGetItem with the
// engine's Catalog, as the server will run it.
func BenchmarkDescribeGetItemEngine(b *testing.B) {
	e, err := engine.Open(engine.Options{InMemory: true, TTLInterval: -1})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { e.Close() })
	var in protocol.CreateTableInput
	_ = protocol.Decode([]byte(`{"TableName":"Tab","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`), &in)
	if _, err := e.CreateTable(context.Background(), &in); err != nil {
		b.Fatal(err)
	}
	var get protocol.GetItemInput
	_ = protocol.Decode([]byte(`{"TableName":"Tab","Key":{"pk":{"S":"a"}}}`), &get)
	cat := e.AuthCatalog()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := access.Describe("GetItem", &get, cat); err != nil {
			b.Fatal(err)
		}
	}
}
