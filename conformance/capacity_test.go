package conformance_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// Every expected number here comes from the Developer Guide's rules,
// written out, never from sortkey's own functions:
//
//   - a write costs 1 WCU per 1 KB started of the larger of the item before
//     and after, at least 1 ("Capacity unit consumption for write
//     operations"); a transactional write costs double ("Capacity
//     management for transactions");
//   - a read costs 1 RCU per 4 KB started, at least 1; half for an
//     eventually consistent read, double for a transactional one
//     ("Capacity unit consumption for read operations");
//   - Query and Scan sum the sizes of the items read and round once;
//   - a secondary index is charged for each entry a write puts, rewrites or
//     deletes, by the entry's projected size, and a key change is a delete
//     plus a put ("Provisioned throughput considerations" for GSIs and
//     LSIs); reads of an index are charged to it.

// sizeRow is one item size of the capacity table, with its units written
// out by those rules.
type sizeRow struct {
	name string
	size int     // bytes by the item-size rules; 0 is the tiny item (see capFixture.item)
	w    float64 // write units: per 1 KB started
	r    float64 // strongly consistent read units: per 4 KB started
}

// A 1 B item cannot exist: a key attribute needs a name and a non-empty
// value. The tiny item (8 B in the plain table, 10 B in the indexed one)
// stands for it: like 1 B, it is under 1 KB and under 4 KB.
var sizeRows = []sizeRow{
	{"tiny (for 1 B)", 0, 1, 1},      // up to 1 KB: 1 WCU; up to 4 KB: 1 RCU
	{"1 KB", 1024, 1, 1},             // exactly 1 KB: 1 WCU; 1 RCU
	{"1 KB + 1 B", 1025, 2, 1},       // 1 KB + 1 B starts a 2nd KB: 2 WCU; still 1 RCU
	{"4 KB", 4096, 4, 1},             // 4 WCU; exactly 4 KB: 1 RCU
	{"4 KB + 1 B", 4097, 5, 2},       // 5 WCU; starts a 2nd 4 KB: 2 RCU
	{"400 KB", 400 * 1024, 400, 100}, // the largest item: 400 WCU, 100 RCU
}

// cu is an expected ConsumedCapacity: the table's part and each index's; a
// zero index part is not reported, a zero table part is reported as 0. The indexed table's GSI projects ALL, so its
// entry is as large as the item; its LSI projects only the keys and inc,
// so its entry (k, r, l: 6 B) always costs 1 WCU or 1 RCU.
type cu struct {
	table, gsi, lsi float64
}

func (c cu) total() float64 { return c.table + c.gsi + c.lsi }

// split is which of ReadCapacityUnits and WriteCapacityUnits a
// ConsumedCapacity carries beside CapacityUnits. Only transactions report
// either: the AWS CLI's examples show TransactGetItems with
// ReadCapacityUnits and TransactWriteItems with WriteCapacityUnits, and
// GetItem, PutItem, UpdateItem, DeleteItem, Query, BatchGetItem and
// BatchWriteItem (with INDEXES too) with CapacityUnits alone.
type split int

const (
	unitsOnly split = iota
	readSplit
	writeSplit
)

// capOp is one data operation of the table, run on a fresh table.
type capOp struct {
	name      string
	split     split
	indexOnly bool // reads an index, so only the indexed table has it
	run       func(f *capFixture) (*types.ConsumedCapacity, error)
	want      func(r sizeRow) cu // on the indexed table; the plain one has only the table part
}

func TestCapacityTable(t *testing.T) {
	c := sortkeytest.New(t).Client()
	n := 0
	for _, row := range sizeRows {
		for _, indexed := range []bool{false, true} {
			for _, op := range capOps {
				if op.indexOnly && !indexed {
					continue
				}
				n++
				f := newCapFixture(t, c, fmt.Sprintf("cap%d", n), indexed, row)
				t.Run(fmt.Sprintf("%s/%s/%s", row.name, f.kind(), op.name), func(t *testing.T) {
					f.t = t
					got, err := op.run(f)
					if err != nil {
						t.Fatal(err)
					}
					want := op.want(row)
					if !indexed {
						want = cu{table: want.table}
					}
					checkCapacity(t, got, f.table, op.split, want)
				})
			}
		}
	}
}

// capOps are every data operation, with what it costs an item of the row's
// size (the indexed table's parts; see cu).
var capOps = []capOp{
	{name: "PutItem new", run: (*capFixture).putNew,
		want: func(r sizeRow) cu { return cu{table: r.w, gsi: r.w, lsi: 1} }}, // a new entry in each index
	{name: "PutItem overwrite", run: (*capFixture).putOverwrite,
		want: func(r sizeRow) cu { return cu{table: r.w, gsi: r.w} }}, // only p changed: the GSI entry is rewritten, the LSI's is not (p is not projected)
	{name: "PutItem identical", run: (*capFixture).putIdentical,
		want: func(r sizeRow) cu { return cu{table: r.w} }}, // no index needs an update
	{name: "UpdateItem", run: (*capFixture).update,
		want: func(r sizeRow) cu { return cu{table: r.w, gsi: r.w} }}, // as the overwrite
	{name: "UpdateItem creates", run: (*capFixture).upsert,
		want: func(r sizeRow) cu { return cu{table: r.w, gsi: r.w, lsi: 1} }}, // as PutItem new
	{name: "UpdateItem GSI key", run: (*capFixture).moveGSI,
		want: func(r sizeRow) cu { return cu{table: r.w, gsi: 2 * r.w} }}, // delete the old entry, put the new one
	{name: "DeleteItem", run: (*capFixture).deletePresent,
		want: func(r sizeRow) cu { return cu{table: r.w, gsi: r.w, lsi: 1} }}, // each entry deleted
	{name: "DeleteItem missing", run: (*capFixture).deleteMissing,
		want: func(r sizeRow) cu { return cu{table: 1} }}, // the minimum; no index changes
	{name: "GetItem consistent", run: (*capFixture).getConsistent,
		want: func(r sizeRow) cu { return cu{table: r.r} }},
	{name: "GetItem eventual", run: (*capFixture).getEventual,
		want: func(r sizeRow) cu { return cu{table: r.r / 2} }}, // half
	{name: "Query consistent", run: (*capFixture).queryTable,
		want: func(r sizeRow) cu { return cu{table: r.r} }},
	{name: "Scan eventual", run: (*capFixture).scanTable,
		want: func(r sizeRow) cu { return cu{table: max(r.r, 4) / 2} }}, // facts 30.2: a whole-table Scan costs at least 4
	{name: "Query GSI", indexOnly: true, run: (*capFixture).queryGSI,
		want: func(r sizeRow) cu { return cu{gsi: r.r / 2} }}, // GSI reads are eventually consistent; the entry is the whole item
	{name: "Scan GSI", indexOnly: true, run: (*capFixture).scanGSI,
		want: func(r sizeRow) cu { return cu{gsi: r.r / 2} }},
	{name: "Query LSI", indexOnly: true, run: (*capFixture).queryLSI,
		want: func(r sizeRow) cu { return cu{lsi: 1} }}, // the 6 B entry, consistently
	{name: "Query LSI fetching", indexOnly: true, run: (*capFixture).queryLSIFetch,
		want: func(r sizeRow) cu { return cu{lsi: 1, table: r.r} }}, // the entry, plus the whole item from the table
	{name: "Query LSI fetching eventual", indexOnly: true, run: (*capFixture).queryLSIFetchEventual,
		want: func(r sizeRow) cu { return cu{lsi: 0.5, table: r.r / 2} }}, // both halved
	{name: "BatchGetItem", run: (*capFixture).batchGet,
		want: func(r sizeRow) cu { return cu{table: r.r + 1} }}, // the item, plus the minimum for a missing one
	{name: "BatchGetItem eventual", run: (*capFixture).batchGetEventual,
		want: func(r sizeRow) cu { return cu{table: (r.r + 1) / 2} }},
	{name: "BatchWriteItem", run: (*capFixture).batchWrite,
		want: func(r sizeRow) cu { return cu{table: r.w + 1, gsi: r.w, lsi: 1} }}, // a new item, and a delete of a missing one
	{name: "BatchWriteItem delete", run: (*capFixture).batchDelete,
		want: func(r sizeRow) cu { return cu{table: r.w, gsi: r.w, lsi: 1} }},
	{name: "TransactWriteItems Put", split: writeSplit, run: (*capFixture).transactPut,
		want: func(r sizeRow) cu { return cu{table: 2 * r.w, gsi: r.w, lsi: 1} }}, // the item twice, its entries once
	{name: "TransactWriteItems Update", split: writeSplit, run: (*capFixture).transactUpdate,
		want: func(r sizeRow) cu { return cu{table: 2 * r.w, gsi: r.w} }},
	{name: "TransactWriteItems Delete", split: writeSplit, run: (*capFixture).transactDelete,
		want: func(r sizeRow) cu { return cu{table: 2 * r.w, gsi: r.w, lsi: 1} }},
	{name: "TransactWriteItems ConditionCheck", split: writeSplit, run: (*capFixture).transactCheck,
		want: func(r sizeRow) cu { return cu{table: 2 * r.w} }}, // the item checked, twice; nothing written
	{name: "TransactWriteItems replayed", split: readSplit, run: (*capFixture).transactReplay,
		want: func(r sizeRow) cu { return cu{table: r.r} }}, // reading the item, not writing it
	{name: "TransactGetItems", split: readSplit, run: (*capFixture).transactGet,
		want: func(r sizeRow) cu { return cu{table: 2 * r.r} }}, // double a consistent read
}

// checkCapacity compares a ConsumedCapacity asked for with INDEXES. The
// Table entry is always there: the AWS CLI's example of a Query on a local
// secondary index reports "Table": {"CapacityUnits": 0.0} beside the index.
func checkCapacity(t *testing.T, got *types.ConsumedCapacity, table string, sp split, want cu) {
	t.Helper()
	if got == nil {
		t.Fatal("no ConsumedCapacity")
	}
	if aws.ToString(got.TableName) != table {
		t.Errorf("TableName %q, want %q", aws.ToString(got.TableName), table)
	}
	checkUnits(t, "total", got.CapacityUnits, got.ReadCapacityUnits, got.WriteCapacityUnits, sp, want.total())
	if got.Table == nil {
		t.Errorf("no Table entry, want %v units", want.table)
	} else {
		checkPart(t, "Table", got.Table, sp, want.table)
	}
	checkIndexes(t, got.GlobalSecondaryIndexes, "byG", sp, want.gsi)
	checkIndexes(t, got.LocalSecondaryIndexes, "byL", sp, want.lsi)
}

func checkIndexes(t *testing.T, m map[string]types.Capacity, name string, sp split, want float64) {
	t.Helper()
	c, ok := m[name]
	if len(m) > 1 || ok != (want != 0) {
		t.Errorf("indexes %v, want only %s (%v units)", m, name, want)
	}
	if ok {
		checkPart(t, name, &c, sp, want)
	}
}

// checkPart checks one table or index entry.
func checkPart(t *testing.T, what string, c *types.Capacity, sp split, want float64) {
	t.Helper()
	checkUnits(t, what, c.CapacityUnits, c.ReadCapacityUnits, c.WriteCapacityUnits, sp, want)
}

// checkUnits wants the total as CapacityUnits and, as the split says, the
// same number as read or write units, and nothing of the other kind.
func checkUnits(t *testing.T, what string, total, rcu, wcu *float64, sp split, want float64) {
	t.Helper()
	same := func(p *float64, present bool) bool { return (p != nil) == present && (p == nil || *p == want) }
	if !same(total, true) || !same(rcu, sp == readSplit) || !same(wcu, sp == writeSplit) {
		t.Errorf("%s: CapacityUnits %v, read %v, write %v; want %v (split %d)", what, fl(total), fl(rcu), fl(wcu), want, sp)
	}
}

func fl(p *float64) any {
	if p == nil {
		return "absent"
	}
	return *p
}

// capFixture is one fresh table, plain (key k) or indexed (keys k and r, a
// GSI byG on g projecting ALL and an LSI byL on l projecting inc).
type capFixture struct {
	t       *testing.T
	c       *dynamodb.Client
	table   string
	indexed bool
	row     sizeRow
}

func newCapFixture(t *testing.T, c *dynamodb.Client, table string, indexed bool, row sizeRow) *capFixture {
	f := &capFixture{t: t, c: c, table: table, indexed: indexed, row: row}
	in := &dynamodb.CreateTableInput{TableName: aws.String(table), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: attrDefs("k"), KeySchema: keySchema("k", "")}
	if indexed {
		in.AttributeDefinitions = attrDefs("k", "r", "g", "l")
		in.KeySchema = keySchema("k", "r")
		in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{{IndexName: aws.String("byG"), KeySchema: keySchema("g", ""),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}
		in.LocalSecondaryIndexes = []types.LocalSecondaryIndex{{IndexName: aws.String("byL"), KeySchema: keySchema("k", "l"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"inc"}}}}
	}
	if _, err := c.CreateTable(ctx, in); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *capFixture) kind() string {
	if f.indexed {
		return "indexed"
	}
	return "plain"
}

func attrDefs(names ...string) []types.AttributeDefinition {
	var out []types.AttributeDefinition
	for _, n := range names {
		out = append(out, types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS})
	}
	return out
}

func keySchema(hash, rng string) []types.KeySchemaElement {
	ks := []types.KeySchemaElement{{AttributeName: aws.String(hash), KeyType: types.KeyTypeHash}}
	if rng != "" {
		ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(rng), KeyType: types.KeyTypeRange})
	}
	return ks
}

// item is the row's item with key k = id, padded with pad: its size is
// each attribute's name plus its value, one byte per ASCII character. The
// fixed attributes k, g, l (and r in the indexed table) are 2 B each, so
// the pad p takes size - 6 (or 8) - 1 characters; the tiny item's pad is
// one character.
func (f *capFixture) item(id, pad string) avMap {
	it := avMap{"k": s(id), "g": s("g"), "l": s("l")}
	fixed := 6
	if f.indexed {
		it["r"] = s("r")
		fixed = 8
	}
	n := 1
	if f.row.size > 0 {
		n = f.row.size - fixed - len("p")
	}
	it["p"] = s(strings.Repeat(pad, n))
	return it
}

func (f *capFixture) key(id string) avMap {
	if f.indexed {
		return avMap{"k": s(id), "r": s("r")}
	}
	return avMap{"k": s(id)}
}

// setup puts the row's item "a" without asking for capacity.
func (f *capFixture) setup() {
	f.t.Helper()
	if err := put(f.c, f.table, f.item("a", "x")); err != nil {
		f.t.Fatal(err)
	}
}

var indexes = types.ReturnConsumedCapacityIndexes

// one is a batch's only ConsumedCapacity entry.
func one(cc []types.ConsumedCapacity) (*types.ConsumedCapacity, error) {
	if len(cc) != 1 {
		return nil, fmt.Errorf("ConsumedCapacity %v, want one entry", cc)
	}
	return &cc[0], nil
}

// The index rules step by step, on one tiny item of the indexed table
// ("Provisioned throughput considerations" for GSIs and LSIs): an entry
// put, rewritten, moved (a delete and a put) or deleted is charged to its
// index, by its projected size; an index the write does not change is not
// charged.
func TestCapacityIndexWrites(t *testing.T) {
	c := sortkeytest.New(t).Client()
	f := newCapFixture(t, c, "idx", true, sizeRows[0])
	inc := strings.Repeat("i", 1024-6-len("inc")) // the LSI entry (k, r, l: 6 B, and inc) is exactly 1 KB
	steps := []struct {
		name string
		run  func() (*types.ConsumedCapacity, error)
		want cu
	}{
		{"keys only: in no index", func() (*types.ConsumedCapacity, error) { return f.putItem(f.key("a")) }, cu{table: 1}},
		{"g set: put into the GSI", f.set("g", "g"), cu{table: 1, gsi: 1}},
		{"l set: put into the LSI, GSI entry rewritten", f.set("l", "l"), cu{table: 1, gsi: 1, lsi: 1}},
		// The item is now 1,026 B; the LSI entry 1,024 B, 1 WCU: the 100 B
		// an entry adds to the index's size is storage, not a write.
		{"inc set: both entries rewritten", f.set("inc", inc), cu{table: 2, gsi: 2, lsi: 1}},
		{"p set: not projected into the LSI", f.set("p", "x"), cu{table: 2, gsi: 2}},
		{"l changed: LSI delete and put", f.set("l", "m"), cu{table: 2, gsi: 2, lsi: 2}},
		{"g removed: GSI delete only", func() (*types.ConsumedCapacity, error) { return f.updateItem("a", "REMOVE g", nil) }, cu{table: 2, gsi: 2}},
		{"deleted: LSI delete", func() (*types.ConsumedCapacity, error) { return f.deleteItem("a") }, cu{table: 2, lsi: 1}},
	}
	for _, st := range steps {
		got, err := st.run()
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		t.Run(st.name, func(t *testing.T) { checkCapacity(t, got, "idx", unitsOnly, st.want) })
	}
}

// set returns an update of item a setting name to v.
func (f *capFixture) set(name, v string) func() (*types.ConsumedCapacity, error) {
	return func() (*types.ConsumedCapacity, error) {
		return f.updateItem("a", "SET #n = :v", avMap{":v": s(v)}, name)
	}
}

// ReturnConsumedCapacity: NONE or absent returns nothing; TOTAL returns
// the table and the total, index writes included, without a breakdown.
func TestCapacityModes(t *testing.T) {
	c := sortkeytest.New(t).Client()
	f := newCapFixture(t, c, "modes", true, sizeRows[1]) // 1 KB
	for _, mode := range []types.ReturnConsumedCapacity{"", types.ReturnConsumedCapacityNone} {
		out, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: &f.table, Item: f.item("a", "x"), ReturnConsumedCapacity: mode})
		if err != nil || out.ConsumedCapacity != nil {
			t.Fatalf("mode %q: %v, ConsumedCapacity %+v", mode, err, out.ConsumedCapacity)
		}
	}
	out, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: &f.table, Key: f.key("a"), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	if err != nil {
		t.Fatal(err)
	}
	got := out.ConsumedCapacity
	// 1 WCU for the item, 1 for its GSI entry (1 KB), 1 for its LSI entry.
	checkUnits(t, "TOTAL", got.CapacityUnits, got.ReadCapacityUnits, got.WriteCapacityUnits, unitsOnly, 3)
	if aws.ToString(got.TableName) != "modes" || got.Table != nil || got.GlobalSecondaryIndexes != nil || got.LocalSecondaryIndexes != nil {
		t.Fatalf("TOTAL: %+v, want the table name and units only", got)
	}
}

// The API Reference's ConsumedCapacity: a request that names its table by
// ARN gets the ARN back as TableName, in batches too.
func TestCapacityTableNameIsAsRequested(t *testing.T) {
	c := sortkeytest.New(t).Client()
	arn := aws.ToString(createMusic(t, c, "Music").TableArn)
	out, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: &arn, Item: musicKey(), ReturnConsumedCapacity: indexes})
	if err != nil {
		t.Fatal(err)
	}
	checkCapacity(t, out.ConsumedCapacity, arn, unitsOnly, cu{table: 1})
	g, err := c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{ReturnConsumedCapacity: indexes,
		RequestItems: map[string]types.KeysAndAttributes{arn: {Keys: []avMap{musicKey()}, ConsistentRead: aws.Bool(true)}}})
	if err != nil || len(g.ConsumedCapacity) != 1 {
		t.Fatal(err, g.ConsumedCapacity)
	}
	checkCapacity(t, &g.ConsumedCapacity[0], arn, unitsOnly, cu{table: 1})
	other := avMap{"Artist": s("Other"), "SongTitle": s("Song")}
	w, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{ReturnConsumedCapacity: indexes,
		RequestItems: map[string][]types.WriteRequest{arn: {putReq(musicKey())}, "Music": {putReq(other)}}})
	if err != nil || len(w.ConsumedCapacity) != 2 {
		t.Fatal(err, w.ConsumedCapacity)
	}
	checkCapacity(t, &w.ConsumedCapacity[0], "Music", unitsOnly, cu{table: 1}) // "M" sorts before "a"
	checkCapacity(t, &w.ConsumedCapacity[1], arn, unitsOnly, cu{table: 1})
}
