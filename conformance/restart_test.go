package conformance_test

import (
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/internal/storage"
)

func TestDataSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	c, stop := serveDir(t, dir)
	createMusic(t, c, "Music")
	createSimple(t, c, "gone")
	if err := put(c, "Music", everyType()); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("gone")}); err != nil {
		t.Fatal(err)
	}
	stop()

	c, stop = serveDir(t, dir)
	defer stop()
	got, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Music"), Key: musicKey()})
	if err != nil || !reflect.DeepEqual(got.Item, everyType()) {
		t.Fatalf("after restart: %v %v", err, got)
	}
	tables, err := c.ListTables(ctx, &dynamodb.ListTablesInput{})
	if err != nil || !reflect.DeepEqual(tables.TableNames, []string{"Music"}) {
		t.Fatalf("tables after restart: %v %v", err, tables)
	}
	d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("Music")})
	if err != nil || *d.Table.ItemCount != 1 || len(d.Table.GlobalSecondaryIndexes) != 1 {
		t.Fatalf("describe after restart: %v %+v", err, d)
	}
	createSimple(t, c, "new") // the id sequence survived too: no clash with old data
	if n, _ := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("new")}); *n.Table.ItemCount != 0 {
		t.Fatalf("new table sees %d old items", *n.Table.ItemCount)
	}
}

func TestSecondOpenOfDataDirFails(t *testing.T) {
	if storage.UnderTestStore() {
		t.Skip("a data directory's rule: under the test switch it is a PostgreSQL schema, which several processes share (internal/clustertest)")
	}
	dir := t.TempDir()
	db, err := sortkey.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := sortkey.Open(dir, nil); err == nil {
		t.Fatal("a second Open of the same directory succeeded")
	}
}
