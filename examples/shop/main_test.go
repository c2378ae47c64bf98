package main

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/segmentio/ksuid"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// TestRunTwiceOnOneServer runs the demo twice against one server, as
// `--endpoint` does: the second run finds the table and the sample there
// and prints the same results.
func TestRunTwiceOnOneServer(t *testing.T) {
	srv := sortkeytest.NewWithOptions(t, coverage.Options(nil))
	var first, second bytes.Buffer
	if err := run(ctx, &first, srv.URL, "shop"); err != nil {
		t.Fatal(err)
	}
	if err := run(ctx, &second, srv.URL, "shop"); err != nil {
		t.Fatal(err)
	}
	if first.String() != second.String() {
		t.Fatalf("second run differs:\n%s\nfirst run:\n%s", second.String(), first.String())
	}
	for _, p := range patterns(&Sample{}) {
		if !strings.Contains(first.String(), "## "+p.name+" (") {
			t.Errorf("no result printed for %q", p.name)
		}
	}
	for _, want := range []string{
		"   Query shop / GSI1  [GSI1PK = :pk AND GSI1SK >= :since]",
		"   Xperia 1 V  Sony   Phones      1199.99  8      2024-06-27 07:21:00",
	} {
		if !strings.Contains(first.String(), want) {
			t.Errorf("printout lacks %q:\n%s", want, first.String())
		}
	}
}

// TestCreateTablesAsDesigned checks the table's key schema and indexes
// as DynamoDB describes them.
func TestCreateTablesAsDesigned(t *testing.T) {
	db := sortkeytest.New(t).Client()
	for range 2 { // the second call finds the table there
		if err := CreateTables(ctx, db, "shop"); err != nil {
			t.Fatal(err)
		}
	}
	out, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("shop")})
	if err != nil {
		t.Fatal(err)
	}
	tbl := out.Table
	got := []string{keys(tbl.KeySchema)}
	for _, l := range tbl.LocalSecondaryIndexes {
		got = append(got, *l.IndexName+" "+keys(l.KeySchema)+" "+string(l.Projection.ProjectionType))
	}
	for _, g := range tbl.GlobalSecondaryIndexes {
		got = append(got, *g.IndexName+" "+keys(g.KeySchema)+" "+string(g.Projection.ProjectionType))
	}
	want := []string{"PK/SK", "LSI PK/SKU ALL", "GSI1 GSI1PK/GSI1SK ALL", "GSI2 GSI2PK/GSI2SK ALL", "GSI3 brand_id/category_id/created_at ALL"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("table %v, want %v", got, want)
	}
}

func keys(ks []types.KeySchemaElement) string {
	var names []string
	for _, k := range ks {
		names = append(names, *k.AttributeName)
	}
	return strings.Join(names, "/")
}

// TestNewStoreIDsAreKSUIDsOfCreation checks the ids of the real clock:
// KSUIDs of their created_at, so the table lists entities by creation.
func TestNewStoreIDsAreKSUIDsOfCreation(t *testing.T) {
	db := sortkeytest.New(t).Client()
	if err := CreateTables(ctx, db, "shop"); err != nil {
		t.Fatal(err)
	}
	s := NewStore(db, "shop")
	before := time.Now().Truncate(time.Second)
	b, err := s.CreateBrand(ctx, "Bose")
	if err != nil {
		t.Fatal(err)
	}
	id, err := ksuid.Parse(b.ID)
	if err != nil || !id.Time().Equal(b.CreatedAt) || b.CreatedAt.Before(before) || b.CreatedAt.After(time.Now()) {
		t.Fatalf("brand %+v: id %v (%v), want a KSUID of its created_at, now", b, id.Time(), err)
	}
}
