package sortkey_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// warm and maxes build the request shapes; nil leaves a member out.
func warm(r, w *int64) *types.WarmThroughput {
	return &types.WarmThroughput{ReadUnitsPerSecond: r, WriteUnitsPerSecond: w}
}

func maxes(r, w *int64) *types.OnDemandThroughput {
	return &types.OnDemandThroughput{MaxReadRequestUnits: r, MaxWriteRequestUnits: w}
}

// throughput is what a description says of one table or index.
type throughput struct {
	warmRead, warmWrite int64
	maxRead, maxWrite   *int64
}

func tableThroughput(d *types.TableDescription) throughput {
	return describedThroughput(d.WarmThroughput.ReadUnitsPerSecond, d.WarmThroughput.WriteUnitsPerSecond, d.WarmThroughput.Status == types.TableStatusActive, d.OnDemandThroughput)
}

func indexThroughput(g types.GlobalSecondaryIndexDescription) throughput {
	return describedThroughput(g.WarmThroughput.ReadUnitsPerSecond, g.WarmThroughput.WriteUnitsPerSecond, g.WarmThroughput.Status == types.IndexStatusActive, g.OnDemandThroughput)
}

func describedThroughput(r, w *int64, active bool, odt *types.OnDemandThroughput) throughput {
	got := throughput{warmRead: aws.ToInt64(r), warmWrite: aws.ToInt64(w)}
	if !active {
		got.warmRead = -1 // shows in the comparison
	}
	if odt != nil {
		got.maxRead, got.maxWrite = odt.MaxReadRequestUnits, odt.MaxWriteRequestUnits
		if odt.MaxReadRequestUnits == nil && odt.MaxWriteRequestUnits == nil {
			got.maxRead = aws.Int64(0) // an empty description shows too
		}
	}
	return got
}

func wantThroughput(t *testing.T, what string, got, want throughput) {
	t.Helper()
	if got.warmRead != want.warmRead || got.warmWrite != want.warmWrite ||
		aws.ToInt64(got.maxRead) != aws.ToInt64(want.maxRead) || aws.ToInt64(got.maxWrite) != aws.ToInt64(want.maxWrite) ||
		(got.maxRead == nil) != (want.maxRead == nil) || (got.maxWrite == nil) != (want.maxWrite == nil) {
		t.Errorf("%s: warm %d/%d, max %v/%v; want warm %d/%d, max %v/%v", what,
			got.warmRead, got.warmWrite, fmtUnits(got.maxRead), fmtUnits(got.maxWrite),
			want.warmRead, want.warmWrite, fmtUnits(want.maxRead), fmtUnits(want.maxWrite))
	}
}

func fmtUnits(n *int64) any {
	if n == nil {
		return "none"
	}
	return *n
}

// createCapped creates an on-demand table with warm throughput and a
// maximum on both the table and its GSI, each naming one member only.
func createCapped(t *testing.T, c *dynamodb.Client) *types.TableDescription {
	t.Helper()
	out, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: aws.String("capped"),
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("gk"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema:          []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		BillingMode:        types.BillingModePayPerRequest,
		WarmThroughput:     warm(aws.Int64(15000), aws.Int64(5000)),
		OnDemandThroughput: maxes(aws.Int64(100), nil),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:          aws.String("byG"),
			KeySchema:          []types.KeySchemaElement{{AttributeName: aws.String("gk"), KeyType: types.KeyTypeHash}},
			Projection:         &types.Projection{ProjectionType: types.ProjectionTypeAll},
			WarmThroughput:     warm(aws.Int64(13000), nil),
			OnDemandThroughput: maxes(nil, aws.Int64(50)),
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return out.TableDescription
}

func describe(t *testing.T, c *dynamodb.Client, name string) *types.TableDescription {
	t.Helper()
	out, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if err != nil {
		t.Fatal(err)
	}
	return out.Table
}

func TestWarmAndOnDemandThroughputOnCreate(t *testing.T) {
	c := sortkeytest.New(t).Client()
	for what, d := range map[string]*types.TableDescription{"CreateTable": createCapped(t, c), "DescribeTable": describe(t, c, "capped")} {
		wantThroughput(t, what+" table", tableThroughput(d), throughput{warmRead: 15000, warmWrite: 5000, maxRead: aws.Int64(100)})
		wantThroughput(t, what+" index", indexThroughput(d.GlobalSecondaryIndexes[0]), throughput{warmRead: 13000, warmWrite: 4000, maxWrite: aws.Int64(50)})
	}
	// Every table has warm throughput: an on-demand one starts at the
	// documented 12,000 / 4,000; a provisioned one at its throughput.
	createSimple(t, c, "plain")
	wantThroughput(t, "on-demand default", tableThroughput(describe(t, c, "plain")), throughput{warmRead: 12000, warmWrite: 4000})
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:             aws.String("provisioned"),
		AttributeDefinitions:  []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:             []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(5), WriteCapacityUnits: aws.Int64(3)},
	})
	if err != nil {
		t.Fatal(err)
	}
	wantThroughput(t, "provisioned default", tableThroughput(describe(t, c, "provisioned")), throughput{warmRead: 5, warmWrite: 3})
}

func TestWarmAndOnDemandThroughputOnUpdate(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createCapped(t, c)
	update := func(in *dynamodb.UpdateTableInput) {
		t.Helper()
		in.TableName = aws.String("capped")
		if _, err := c.UpdateTable(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	// Each alone is something to update; a member left out is kept, and
	// -1 removes a maximum.
	update(&dynamodb.UpdateTableInput{WarmThroughput: warm(nil, aws.Int64(6000))})
	update(&dynamodb.UpdateTableInput{OnDemandThroughput: maxes(aws.Int64(-1), aws.Int64(200))})
	update(&dynamodb.UpdateTableInput{GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Update: &types.UpdateGlobalSecondaryIndexAction{
		IndexName: aws.String("byG"), OnDemandThroughput: maxes(aws.Int64(30), nil), WarmThroughput: warm(nil, aws.Int64(4500)),
	}}}})
	d := describe(t, c, "capped")
	wantThroughput(t, "table", tableThroughput(d), throughput{warmRead: 15000, warmWrite: 6000, maxWrite: aws.Int64(200)})
	wantThroughput(t, "index", indexThroughput(d.GlobalSecondaryIndexes[0]), throughput{warmRead: 13000, warmWrite: 4500, maxRead: aws.Int64(30), maxWrite: aws.Int64(50)})
	update(&dynamodb.UpdateTableInput{OnDemandThroughput: maxes(nil, aws.Int64(-1))})
	if d := describe(t, c, "capped"); d.OnDemandThroughput != nil {
		t.Errorf("every maximum removed, still described: %+v", d.OnDemandThroughput)
	}
}

func TestIndexCreatedWithWarmAndOnDemandThroughput(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "tbl")
	_, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{
		TableName:            aws.String("tbl"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("gk"), AttributeType: types.ScalarAttributeTypeS}},
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName:          aws.String("byG"),
			KeySchema:          []types.KeySchemaElement{{AttributeName: aws.String("gk"), KeyType: types.KeyTypeHash}},
			Projection:         &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
			WarmThroughput:     warm(aws.Int64(20000), nil),
			OnDemandThroughput: maxes(aws.Int64(10), aws.Int64(20)),
		}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	g := waitActive(t, c, "tbl", "byG")
	wantThroughput(t, "new index", indexThroughput(*g), throughput{warmRead: 20000, warmWrite: 4000, maxRead: aws.Int64(10), maxWrite: aws.Int64(20)})
}

// TestSwitchToProvisionedDropsMaximums: a provisioned table has no
// on-demand maximum, and provisioning above warm throughput raises it.
func TestSwitchToProvisionedDropsMaximums(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createCapped(t, c)
	pt := &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(20000), WriteCapacityUnits: aws.Int64(10)}
	_, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{
		TableName: aws.String("capped"), BillingMode: types.BillingModeProvisioned, ProvisionedThroughput: pt,
	})
	if err != nil {
		t.Fatal(err)
	}
	d := describe(t, c, "capped")
	wantThroughput(t, "table", tableThroughput(d), throughput{warmRead: 20000, warmWrite: 5000})
	wantThroughput(t, "index", indexThroughput(d.GlobalSecondaryIndexes[0]), throughput{warmRead: 13000, warmWrite: 4000})
	_, err = c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("capped"), OnDemandThroughput: maxes(aws.Int64(5), nil)})
	wantAPIError(t, err, "ValidationException", "One or more parameter values were invalid: OnDemandThroughput cannot be specified when BillingMode is PROVISIONED")
	_, err = c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("capped"), GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Update: &types.UpdateGlobalSecondaryIndexAction{
		IndexName: aws.String("byG"), ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(14000), WriteCapacityUnits: aws.Int64(1)},
	}}}})
	if err != nil {
		t.Fatal(err)
	}
	wantThroughput(t, "index provisioned above its warm throughput", indexThroughput(describe(t, c, "capped").GlobalSecondaryIndexes[0]), throughput{warmRead: 14000, warmWrite: 4000})
}

func TestWarmAndOnDemandThroughputRefused(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createCapped(t, c)
	before := describe(t, c, "capped")
	const invalid = "One or more parameter values were invalid: "
	cases := []struct {
		in   *dynamodb.UpdateTableInput
		want string
	}{
		{&dynamodb.UpdateTableInput{WarmThroughput: warm(aws.Int64(14999), nil)},
			invalid + "WarmThroughput ReadUnitsPerSecond cannot be lower than the current 15000; warm throughput can only be increased. Requested: 14999"},
		{&dynamodb.UpdateTableInput{GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Update: &types.UpdateGlobalSecondaryIndexAction{
			IndexName: aws.String("byG"), WarmThroughput: warm(nil, aws.Int64(3999)),
		}}}}, invalid + "WarmThroughput WriteUnitsPerSecond for index: byG cannot be lower than the current 4000; warm throughput can only be increased. Requested: 3999"},
		{&dynamodb.UpdateTableInput{OnDemandThroughput: maxes(aws.Int64(0), nil)},
			invalid + "OnDemandThroughput MaxReadRequestUnits must be at least 1, or -1 to remove the maximum; requested: 0"},
		{&dynamodb.UpdateTableInput{GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Update: &types.UpdateGlobalSecondaryIndexAction{
			IndexName: aws.String("byG"), OnDemandThroughput: maxes(nil, aws.Int64(-2)),
		}}}}, invalid + "OnDemandThroughput MaxWriteRequestUnits for index: byG must be at least 1, or -1 to remove the maximum; requested: -2"},
	}
	for _, tc := range cases {
		tc.in.TableName = aws.String("capped")
		_, err := c.UpdateTable(ctx, tc.in)
		wantAPIError(t, err, "ValidationException", tc.want)
	}
	after := describe(t, c, "capped")
	wantThroughput(t, "table after refused updates", tableThroughput(after), tableThroughput(before))
	wantThroughput(t, "index after refused updates", indexThroughput(after.GlobalSecondaryIndexes[0]), indexThroughput(before.GlobalSecondaryIndexes[0]))
}

func TestCreateTableThroughputRefused(t *testing.T) {
	c := sortkeytest.New(t).Client()
	table := func(mode types.BillingMode, pt *types.ProvisionedThroughput) *dynamodb.CreateTableInput {
		return &dynamodb.CreateTableInput{
			TableName:             aws.String("tbl"),
			AttributeDefinitions:  []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
			KeySchema:             []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
			BillingMode:           mode,
			ProvisionedThroughput: pt,
		}
	}
	in := table("", &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(1)})
	in.OnDemandThroughput = maxes(aws.Int64(10), nil)
	_, err := c.CreateTable(ctx, in)
	wantAPIError(t, err, "ValidationException", "One or more parameter values were invalid: OnDemandThroughput cannot be specified when BillingMode is PROVISIONED")
	in = table(types.BillingModePayPerRequest, nil)
	in.WarmThroughput = warm(aws.Int64(100), nil)
	_, err = c.CreateTable(ctx, in)
	wantAPIError(t, err, "ValidationException", "One or more parameter values were invalid: WarmThroughput ReadUnitsPerSecond cannot be lower than the current 12000; warm throughput can only be increased. Requested: 100")
	if tables, _ := c.ListTables(ctx, &dynamodb.ListTablesInput{}); len(tables.TableNames) != 0 {
		t.Errorf("refused requests created %v", tables.TableNames)
	}
}

func TestWarmAndOnDemandThroughputSurviveRestart(t *testing.T) {
	dir := t.TempDir()
	c, stop := serveDir(t, dir)
	createCapped(t, c)
	before := describe(t, c, "capped")
	stop()
	c, stop = serveDir(t, dir)
	defer stop()
	after := describe(t, c, "capped")
	wantThroughput(t, "table after restart", tableThroughput(after), tableThroughput(before))
	wantThroughput(t, "index after restart", indexThroughput(after.GlobalSecondaryIndexes[0]), indexThroughput(before.GlobalSecondaryIndexes[0]))
}
