package engine

import (
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// TestPlainPutDecodesOldWhenAnIndexAppeared: a plain PutItem decided, on
// the definition it first saw, to size the old item only; an index
// published before its commit still gets the old entry removed, since the
// commit follows the definition it holds.
func TestPlainPutDecodesOldWhenAnIndexAppeared(t *testing.T) {
	e := open(t, "")
	defer e.Close()
	must[protocol.CreateTableOutput](t)(call(t, e.CreateTable, createTbl))
	must[protocol.PutItemOutput](t)(call(t, e.PutItem, `{"TableName":"tbl","Item":{"pk":{"S":"a"},"g":{"S":"old"}}}`))
	before, err := e.itemTable("tbl")
	if err != nil {
		t.Fatal(err)
	}
	must[protocol.UpdateTableOutput](t)(call(t, e.UpdateTable, addIndex("byG", "g")))
	e.waitBackfills()
	k, err := before.keyFromItem(attr.Item{"pk": attr.Str("a")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.replace(before, k, attr.Item{"pk": attr.Str("a"), "g": attr.Str("new")}); err != nil {
		t.Fatal(err)
	}
	for v, want := range map[string]int{"old": 0, "new": 1} {
		out := must[protocol.ReadOutput](t)(call(t, e.Query, `{"TableName":"tbl","IndexName":"byG","KeyConditionExpression":"g = :v","ExpressionAttributeValues":{":v":{"S":"`+v+`"}}}`))
		if out.Count != int64(want) {
			t.Errorf("index entries for g=%s: %d, want %d", v, out.Count, want)
		}
	}
	if _, n := indexState(t, e, "byG"); n != 1 {
		t.Errorf("index holds %d entries, want 1", n)
	}
}

// TestPlainPutKeepsTableSize: overwriting with plain puts of other sizes
// keeps the table's size exact without decoding what they replace.
func TestPlainPutKeepsTableSize(t *testing.T) {
	e := open(t, "")
	defer e.Close()
	must[protocol.CreateTableOutput](t)(call(t, e.CreateTable, createTbl))
	for _, v := range []string{"a-longer-value", "b", "12345"} {
		must[protocol.PutItemOutput](t)(call(t, e.PutItem, `{"TableName":"tbl","Item":{"pk":{"S":"k"},"v":{"S":"`+v+`"},"n":{"N":"100"}}}`))
	}
	d := must[protocol.DescribeTableOutput](t)(call(t, e.DescribeTable, `{"TableName":"tbl"}`))
	want := attr.Item{"pk": attr.Str("k"), "v": attr.Str("12345"), "n": attr.Num("100")}.Size()
	if d.Table.ItemCount != 1 || d.Table.TableSizeBytes != int64(want) {
		t.Fatalf("count %d size %d, want 1 and %d", d.Table.ItemCount, d.Table.TableSizeBytes, want)
	}
}

// TestPlainPutReportsCapacityOfTheLargerItem: a PutItem that replaces a
// larger item is charged the larger one's size, as DynamoDB charges, with
// the old item only sized.
func TestPlainPutReportsCapacityOfTheLargerItem(t *testing.T) {
	e := open(t, "")
	defer e.Close()
	must[protocol.CreateTableOutput](t)(call(t, e.CreateTable, createTbl))
	big := strings.Repeat("x", 2500)
	must[protocol.PutItemOutput](t)(call(t, e.PutItem, `{"TableName":"tbl","Item":{"pk":{"S":"k"},"v":{"S":"`+big+`"}}}`))
	out := must[protocol.PutItemOutput](t)(call(t, e.PutItem, `{"TableName":"tbl","Item":{"pk":{"S":"k"}},"ReturnConsumedCapacity":"INDEXES"}`))
	c := out.ConsumedCapacity
	if c == nil || c.CapacityUnits == nil || *c.CapacityUnits != 3 || c.Table == nil || *c.Table.CapacityUnits != 3 {
		t.Fatalf("replacing a 2.5 KB item: consumed %+v, want 3 units, all the table's", c)
	}
	out = must[protocol.PutItemOutput](t)(call(t, e.PutItem, `{"TableName":"tbl","Item":{"pk":{"S":"k"}},"ReturnConsumedCapacity":"TOTAL"}`))
	if c := out.ConsumedCapacity; c == nil || *c.CapacityUnits != 1 || c.Table != nil {
		t.Fatalf("replacing a small item: consumed %+v, want 1 unit in total", c)
	}
}
