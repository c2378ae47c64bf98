package apply

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/internal/design"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

var ctx = context.Background()

// market is the package's worked example with a stream and an LSI, so
// that one apply exercises every part of a table.
func market(t *testing.T) *design.Design {
	t.Helper()
	d, err := design.Load("../testdata/market.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m := &d.Tables[0]
	m.Stream = "NEW_AND_OLD_IMAGES"
	m.LSIs = []design.Index{{Name: "ByTotal", PartitionKey: design.KeyAttrs{{Name: "pk", Type: "S"}},
		SortKey: design.KeyAttrs{{Name: "total", Type: "N"}}, Projection: design.Projection{Type: "INCLUDE", Attributes: []string{"status", "id"}}}}
	return d
}

// steppingClock moves a second each time the server reads it, so a
// server with a transient delay finishes its changes while Apply polls,
// without the test waiting on the wall clock.
func steppingClock() func() time.Time {
	var mu sync.Mutex
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(time.Second)
		return now
	}
}

func server(t *testing.T) *dynamodb.Client {
	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{Now: steppingClock(), TransientDelay: 5 * time.Second})
	return srv.Client()
}

func apply(t *testing.T, c API, d *design.Design, o Options) *Report {
	t.Helper()
	o.Poll = time.Millisecond
	r, err := Apply(ctx, c, d, o)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	return r
}

func describe(t *testing.T, c *dynamodb.Client, name string) *types.TableDescription {
	t.Helper()
	out, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if err != nil {
		t.Fatal(err)
	}
	return out.Table
}

func gsi(td *types.TableDescription, name string) *types.GlobalSecondaryIndexDescription {
	for i, g := range td.GlobalSecondaryIndexes {
		if aws.ToString(g.IndexName) == name {
			return &td.GlobalSecondaryIndexes[i]
		}
	}
	return nil
}

func ttlOf(t *testing.T, c *dynamodb.Client, name string) (types.TimeToLiveStatus, string) {
	t.Helper()
	out, err := c.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(name)})
	if err != nil {
		t.Fatal(err)
	}
	return out.TimeToLiveDescription.TimeToLiveStatus, aws.ToString(out.TimeToLiveDescription.AttributeName)
}

func TestApplyCreatesEverything(t *testing.T) {
	c := server(t)
	r := apply(t, c, market(t), Options{})
	if !r.Matches() || len(r.Differences) != 0 {
		t.Fatalf("report:\n%s", r)
	}
	td := describe(t, c, "Market")
	types := liveTypes(td.AttributeDefinitions)
	if got := schemaText(td.KeySchema, types); got != "partition pk (S), sort sk (S)" {
		t.Errorf("table keys: %s", got)
	}
	rev, id := gsi(td, "ReverseIndex"), gsi(td, "IdLookupIndex")
	if rev == nil || id == nil || len(td.GlobalSecondaryIndexes) != 2 {
		t.Fatalf("GSIs: %+v", td.GlobalSecondaryIndexes)
	}
	if got := schemaText(rev.KeySchema, types) + " " + projectionText(rev.Projection); got != "partition sk (S), sort pk (S) KEYS_ONLY" {
		t.Errorf("ReverseIndex: %s", got)
	}
	if got := schemaText(id.KeySchema, types) + " " + projectionText(id.Projection); got != "partition id (S), sort tp (S) ALL" {
		t.Errorf("IdLookupIndex: %s", got)
	}
	if len(td.LocalSecondaryIndexes) != 1 || projectionText(td.LocalSecondaryIndexes[0].Projection) != "INCLUDE (id, status)" ||
		schemaText(td.LocalSecondaryIndexes[0].KeySchema, types) != "partition pk (S), sort total (N)" {
		t.Errorf("LSIs: %+v", td.LocalSecondaryIndexes)
	}
	if s := td.StreamSpecification; s == nil || !aws.ToBool(s.StreamEnabled) || s.StreamViewType != "NEW_AND_OLD_IMAGES" {
		t.Errorf("stream: %+v", s)
	}
	if liveBilling(td) != "PAY_PER_REQUEST" {
		t.Errorf("billing: %s", liveBilling(td))
	}
	if st, attr := ttlOf(t, c, "Market"); st != "ENABLED" || attr != "ttl" {
		t.Errorf("TTL %s on %q", st, attr)
	}
}

func TestApplyTwiceChangesNothing(t *testing.T) {
	c := server(t)
	d := market(t)
	apply(t, c, d, Options{})
	r := apply(t, c, d, Options{})
	if len(r.Changes) != 0 || len(r.Differences) != 0 || !r.Matches() {
		t.Fatalf("second apply:\n%s", r)
	}
	if !strings.Contains(r.String(), msgNoChanges) {
		t.Errorf("second apply says %q", r)
	}
}

func TestApplyAddsNewGSIs(t *testing.T) {
	c := server(t)
	d := market(t)
	apply(t, c, d, Options{})
	m := &d.Tables[0]
	for _, name := range []string{"ByStatus", "ByEmail"} {
		m.GSIs = append(m.GSIs, design.Index{Name: name, PartitionKey: design.KeyAttrs{{Name: strings.ToLower(name[2:]), Type: "S"}},
			Projection: design.Projection{Type: "INCLUDE", Attributes: []string{"total"}}})
	}
	r := apply(t, c, d, Options{})
	var added []string
	for _, ch := range r.Changes {
		added = append(added, ch.Index+": "+ch.Action)
	}
	if !slices.Equal(added, []string{"ByStatus: " + actAddGSI, "ByEmail: " + actAddGSI}) || !r.Matches() {
		t.Fatalf("report:\n%s", r)
	}
	td := describe(t, c, "Market")
	for _, name := range []string{"ByStatus", "ByEmail"} {
		g := gsi(td, name)
		if g == nil || g.IndexStatus != types.IndexStatusActive || projectionText(g.Projection) != "INCLUDE (total)" {
			t.Errorf("%s: %+v", name, g)
		}
	}
	if r := apply(t, c, d, Options{}); len(r.Changes) != 0 {
		t.Errorf("third apply:\n%s", r)
	}
}

// TestApplyReportsWhatItWillNotChange builds a live table unlike its
// design in every way Apply leaves alone.
func TestApplyReportsWhatItWillNotChange(t *testing.T) {
	c := server(t)
	s := types.ScalarAttributeTypeS
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("Market"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: s},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeN}, {AttributeName: aws.String("id"), AttributeType: s},
			{AttributeName: aws.String("extra"), AttributeType: s}},
		KeySchema:   keySchema(design.KeyAttrs{{Name: "pk"}}, design.KeyAttrs{{Name: "sk"}}),
		BillingMode: types.BillingModePayPerRequest,
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			{IndexName: aws.String("ReverseIndex"), KeySchema: keySchema(design.KeyAttrs{{Name: "sk"}}, design.KeyAttrs{{Name: "pk"}}),
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}},
			{IndexName: aws.String("IdLookupIndex"), KeySchema: keySchema(design.KeyAttrs{{Name: "id"}}, nil),
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}},
			{IndexName: aws.String("Extra"), KeySchema: keySchema(design.KeyAttrs{{Name: "extra"}}, nil),
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}}})
	if err != nil {
		t.Fatal(err)
	}
	d := market(t)
	d.Tables[0].Stream = ""
	r := apply(t, c, d, Options{})
	got := map[string]bool{}
	for _, diff := range r.Differences {
		got[diff.String()] = true
	}
	want := []string{
		"table Market: " + "the keys are partition pk (S), sort sk (N), the design has partition pk (S), sort sk (S): a table's keys are fixed at creation; recreate the table or change the design",
		"table Market, index ReverseIndex: the keys are partition sk (N), sort pk (S), the design has partition sk (S), sort pk (S): delete the index and apply again, or change the design",
		"table Market, index ReverseIndex: the projection is ALL, the design has KEYS_ONLY: an index's projection cannot be changed; delete the index and apply again, or change the design",
		"table Market, index IdLookupIndex: the keys are partition id (S), the design has partition id (S), sort tp (S): delete the index and apply again, or change the design",
		"table Market, index Extra: " + msgGSIExtra,
		"table Market, index ByTotal: " + msgLSIMissing,
	}
	for _, w := range want {
		if !got[w] {
			t.Errorf("missing difference %q", w)
		}
	}
	if len(r.Differences) != len(want) || r.Matches() {
		t.Errorf("report:\n%s", r)
	}
}

func TestApplyReportsBillingAndTTL(t *testing.T) {
	c := server(t)
	d := &design.Design{File: "d.yaml", Tables: []design.Table{{Name: "Things", PartitionKey: design.KeyAttr{Name: "pk", Type: "S"}, TTL: "expires"}}}
	d.Tables[0].BillingMode = "PROVISIONED"
	apply(t, c, d, Options{})
	if td := describe(t, c, "Things"); liveBilling(td) != "PROVISIONED" || aws.ToInt64(td.ProvisionedThroughput.ReadCapacityUnits) != defaultCapacity {
		t.Fatalf("created %+v", td)
	}
	d.Tables[0].BillingMode, d.Tables[0].TTL = "", "gone"
	r := apply(t, c, d, Options{})
	want := []Difference{{Table: "Things", Message: "the billing mode is PROVISIONED, the design has PAY_PER_REQUEST: apply does not change billing; use UpdateTable or change the design"},
		{Table: "Things", Message: "Time to Live is enabled on expires, the design has gone: DynamoDB moves TTL only by disabling it first (one change an hour); do that, or change the design"}}
	if !slices.Equal(r.Differences, want) || len(r.Changes) != 0 {
		t.Errorf("report:\n%s", r)
	}
	// A GSI added to the provisioned table gets capacity, as DynamoDB
	// requires, though the design now asks for on-demand billing.
	d.Tables[0].GSIs = []design.Index{{Name: "ByOwner", PartitionKey: design.KeyAttrs{{Name: "owner", Type: "S"}}, Projection: design.Projection{Type: "KEYS_ONLY"}}}
	r = apply(t, c, d, Options{})
	g := gsi(describe(t, c, "Things"), "ByOwner")
	if len(r.Changes) != 1 || g == nil || g.ProvisionedThroughput == nil || aws.ToInt64(g.ProvisionedThroughput.WriteCapacityUnits) != defaultCapacity {
		t.Errorf("report:\n%s\nindex %+v", r, g)
	}
}

func TestApplyChangesTheStream(t *testing.T) {
	c := server(t)
	d := market(t)
	apply(t, c, d, Options{})
	d.Tables[0].Stream = "KEYS_ONLY"
	r := apply(t, c, d, Options{})
	if len(r.Changes) != 2 || !r.Matches() {
		t.Fatalf("report:\n%s", r)
	}
	if s := describe(t, c, "Market").StreamSpecification; s == nil || s.StreamViewType != "KEYS_ONLY" {
		t.Errorf("stream %+v", s)
	}
	d.Tables[0].Stream = ""
	apply(t, c, d, Options{})
	if s := describe(t, c, "Market").StreamSpecification; s != nil && aws.ToBool(s.StreamEnabled) {
		t.Errorf("stream left on: %+v", s)
	}
}

func TestDryRunChangesNothing(t *testing.T) {
	c := server(t)
	d := market(t)
	r := apply(t, c, d, Options{DryRun: true})
	if len(r.Changes) != 2 || r.Matches() || !strings.Contains(r.String(), "would change: table Market: create the table") {
		t.Fatalf("report:\n%s", r)
	}
	out, err := c.ListTables(ctx, &dynamodb.ListTablesInput{})
	if err != nil || len(out.TableNames) != 0 {
		t.Fatalf("tables after a dry run: %v %v", out.TableNames, err)
	}
	apply(t, c, d, Options{})
	if r := apply(t, c, d, Options{DryRun: true}); !r.Matches() {
		t.Errorf("dry run of an applied design:\n%s", r)
	}
}

func TestApplyRefusesBadDesigns(t *testing.T) {
	c := server(t)
	d := market(t)
	d.Tables[0].GSIs[0].Projection.Type = "SOME"
	d.Tables[0].LSIs[0].SortKey[0].Type = "BOOL"
	d.Tables = append(d.Tables, design.Table{Name: "Market", PartitionKey: design.KeyAttr{Name: "pk", Type: "N"}, Stream: "ALL"}, design.Table{Name: "x", PartitionKey: design.KeyAttr{Name: "pk", Type: "S"}})
	_, err := Apply(ctx, c, d, Options{})
	if !errors.Is(err, ErrInvalid) {
		t.Fatalf("got %v", err)
	}
	for _, want := range []string{"../testdata/market.yaml:6:5: table Market: index ReverseIndex: projection type \"SOME\"",
		`key attribute "total"`, "table Market is designed twice", `stream "ALL"`, `table x: table name "x"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%v\nlacks %q", err, want)
		}
	}
	if out, _ := c.ListTables(ctx, &dynamodb.ListTablesInput{}); len(out.TableNames) != 0 {
		t.Errorf("a refused design created %v", out.TableNames)
	}
}
