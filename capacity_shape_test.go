package sortkey_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// Which members a ConsumedCapacity has, as the AWS CLI's examples of
// DynamoDB's answers show them (see split and checkCapacity).

var total = types.ReturnConsumedCapacityTotal

// TOTAL: the table's name and CapacityUnits; ReadCapacityUnits or
// WriteCapacityUnits beside them only in a transaction's answer.
func TestCapacityReadWriteUnitsOnlyInTransactions(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "tbl")
	tbl := aws.String("tbl")
	p, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: tbl, Item: pk("a"), ReturnConsumedCapacity: total})
	if err != nil {
		t.Fatal(err)
	}
	checkTotal(t, "PutItem", p.ConsumedCapacity, unitsOnly, 1)
	g, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: tbl, Key: pk("a"), ReturnConsumedCapacity: total})
	if err != nil {
		t.Fatal(err)
	}
	checkTotal(t, "GetItem", g.ConsumedCapacity, unitsOnly, 0.5)
	q, err := c.Query(ctx, &dynamodb.QueryInput{TableName: tbl, KeyConditionExpression: aws.String("pk = :a"),
		ExpressionAttributeValues: avMap{":a": s("a")}, ReturnConsumedCapacity: total})
	if err != nil {
		t.Fatal(err)
	}
	checkTotal(t, "Query", q.ConsumedCapacity, unitsOnly, 0.5)
	u, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: tbl, Key: pk("a"), UpdateExpression: aws.String("SET v = :v"),
		ExpressionAttributeValues: avMap{":v": s("x")}, ReturnConsumedCapacity: total})
	if err != nil {
		t.Fatal(err)
	}
	checkTotal(t, "UpdateItem", u.ConsumedCapacity, unitsOnly, 1)
	sc, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: tbl, ReturnConsumedCapacity: total})
	if err != nil {
		t.Fatal(err)
	}
	checkTotal(t, "Scan", sc.ConsumedCapacity, unitsOnly, 2) // facts 30.2: a whole-table Scan costs at least 4, eventually 2
	checkBatchTotals(t, c)
	checkTransactTotals(t, c)
	d, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: tbl, Key: pk("c"), ReturnConsumedCapacity: total})
	if err != nil {
		t.Fatal(err)
	}
	checkTotal(t, "DeleteItem", d.ConsumedCapacity, unitsOnly, 1)
}

func checkBatchTotals(t *testing.T, c *dynamodb.Client) {
	t.Helper()
	bw, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{ReturnConsumedCapacity: total,
		RequestItems: map[string][]types.WriteRequest{"tbl": {putReq(pk("b"))}}})
	if err != nil || len(bw.ConsumedCapacity) != 1 {
		t.Fatal(err, bw)
	}
	checkTotal(t, "BatchWriteItem", &bw.ConsumedCapacity[0], unitsOnly, 1)
	bg, err := c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{ReturnConsumedCapacity: total,
		RequestItems: map[string]types.KeysAndAttributes{"tbl": {Keys: []avMap{pk("a")}}}})
	if err != nil || len(bg.ConsumedCapacity) != 1 {
		t.Fatal(err, bg)
	}
	checkTotal(t, "BatchGetItem", &bg.ConsumedCapacity[0], unitsOnly, 0.5)
}

func checkTransactTotals(t *testing.T, c *dynamodb.Client) {
	t.Helper()
	w, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{ReturnConsumedCapacity: total,
		TransactItems: []types.TransactWriteItem{{Put: &types.Put{TableName: aws.String("tbl"), Item: pk("c")}}}})
	if err != nil || len(w.ConsumedCapacity) != 1 {
		t.Fatal(err, w)
	}
	checkTotal(t, "TransactWriteItems", &w.ConsumedCapacity[0], writeSplit, 2)
	g, err := c.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{ReturnConsumedCapacity: total,
		TransactItems: []types.TransactGetItem{{Get: &types.Get{TableName: aws.String("tbl"), Key: pk("c")}}}})
	if err != nil || len(g.ConsumedCapacity) != 1 {
		t.Fatal(err, g)
	}
	checkTotal(t, "TransactGetItems", &g.ConsumedCapacity[0], readSplit, 2)
}

// checkTotal checks a ConsumedCapacity asked for with TOTAL: no breakdown.
func checkTotal(t *testing.T, op string, cc *types.ConsumedCapacity, sp split, want float64) {
	t.Helper()
	if cc == nil || aws.ToString(cc.TableName) != "tbl" || cc.Table != nil || cc.GlobalSecondaryIndexes != nil || cc.LocalSecondaryIndexes != nil {
		t.Fatalf("%s: %+v, want the table name and units only", op, cc)
	}
	checkUnits(t, op, cc.CapacityUnits, cc.ReadCapacityUnits, cc.WriteCapacityUnits, sp, want)
}

// INDEXES: the Table entry is there when only an index was read, with 0
// units, as in the AWS CLI's example of a Query on a local secondary index.
func TestCapacityIndexesReportsTheTableEvenWhenUnread(t *testing.T) {
	c := sortkeytest.New(t).Client()
	for i, tc := range []struct {
		name string
		read func(f *capFixture) (*types.ConsumedCapacity, error)
		want cu
	}{
		{"Query GSI", (*capFixture).queryGSI, cu{gsi: 0.5}},
		{"Scan GSI", (*capFixture).scanGSI, cu{gsi: 0.5}},
		{"Query LSI projected", func(f *capFixture) (*types.ConsumedCapacity, error) {
			return f.query(aws.String("byL"), "k", "a", types.SelectAllProjectedAttributes, false)
		}, cu{lsi: 0.5}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newCapFixture(t, c, "unread"+string(rune('a'+i)), true, sizeRows[0])
			got, err := tc.read(f)
			if err != nil {
				t.Fatal(err)
			}
			if got.Table == nil || got.Table.CapacityUnits == nil || *got.Table.CapacityUnits != 0 {
				t.Fatalf("Table %+v, want CapacityUnits 0", got.Table)
			}
			checkCapacity(t, got, f.table, unitsOnly, tc.want)
		})
	}
}

// The API Reference orders TransactWriteItems' ConsumedCapacity by the
// TransactItems; TransactGetItems' follows the same order.
func TestCapacityTransactionEntriesInRequestOrder(t *testing.T) {
	c := sortkeytest.New(t).Client()
	tables := []string{"zeta", "alpha", "mid"}
	var puts []types.TransactWriteItem
	var gets []types.TransactGetItem
	for _, name := range tables {
		createSimple(t, c, name)
		puts = append(puts, types.TransactWriteItem{Put: &types.Put{TableName: aws.String(name), Item: pk("a")}})
		gets = append(gets, types.TransactGetItem{Get: &types.Get{TableName: aws.String(name), Key: pk("a")}})
	}
	puts = append(puts, types.TransactWriteItem{Put: &types.Put{TableName: aws.String("zeta"), Item: pk("b")}})
	w, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: puts, ReturnConsumedCapacity: total})
	if err != nil {
		t.Fatal(err)
	}
	g, err := c.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: gets, ReturnConsumedCapacity: total})
	if err != nil {
		t.Fatal(err)
	}
	for _, cc := range [][]types.ConsumedCapacity{w.ConsumedCapacity, g.ConsumedCapacity} {
		var got []string
		for _, e := range cc {
			got = append(got, aws.ToString(e.TableName))
		}
		if len(got) != 3 || got[0] != "zeta" || got[1] != "alpha" || got[2] != "mid" {
			t.Fatalf("entries for %v, want [zeta alpha mid]", got)
		}
	}
}

// With INDEXES, a transaction's Table and index entries carry the same
// split as its total.
func TestCapacityTransactionIndexesBreakdownCarriesTheSplit(t *testing.T) {
	c := sortkeytest.New(t).Client()
	f := newCapFixture(t, c, "txsplit", true, sizeRows[0])
	got, err := f.transactPut()
	if err != nil {
		t.Fatal(err)
	}
	checkCapacity(t, got, "txsplit", writeSplit, cu{table: 2, gsi: 1, lsi: 1})
	got, err = f.transactGet()
	if err != nil {
		t.Fatal(err)
	}
	checkCapacity(t, got, "txsplit", readSplit, cu{table: 2})
}
