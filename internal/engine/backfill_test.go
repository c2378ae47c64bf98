package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// These tests hold every item lock stripe to keep a backfill from making
// progress, which makes the CREATING state observable without timing.

func open(t *testing.T, dir string) *Engine {
	t.Helper()
	e, err := Open(Options{Dir: dir, InMemory: dir == ""})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// call decodes a JSON request into in and runs op, as the server does.
func call[I, O any](t testing.TB, op func(context.Context, *I) (*O, error), body string) (*O, error) {
	t.Helper()
	in := new(I)
	if err := protocol.Decode([]byte(body), in); err != nil {
		t.Fatal(err)
	}
	return op(context.Background(), in)
}

func must[O any](t testing.TB) func(*O, error) *O {
	return func(o *O, err error) *O {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
}

func wantCode(t *testing.T, err error, code apierr.Code, msg string) {
	t.Helper()
	var e *apierr.Error
	if !errors.As(err, &e) || e.Code != code || e.Message != msg {
		t.Fatalf("got %v\nwant %s %q", err, code, msg)
	}
}

const createTbl = `{"TableName":"tbl","BillingMode":"PAY_PER_REQUEST",
	"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
	"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`

func addIndex(name, attr string) string {
	return fmt.Sprintf(`{"TableName":"tbl","AttributeDefinitions":[{"AttributeName":%q,"AttributeType":"S"}],
		"GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":%q,"KeySchema":[{"AttributeName":%q,"KeyType":"HASH"}],
		"Projection":{"ProjectionType":"KEYS_ONLY"}}}]}`, attr, name, attr)
}

func dropIndexReq(name string) string {
	return fmt.Sprintf(`{"TableName":"tbl","GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":%q}}]}`, name)
}

func loadItems(t *testing.T, e *Engine, n int) {
	t.Helper()
	for i := range n {
		must[protocol.PutItemOutput](t)(call(t, e.PutItem, fmt.Sprintf(`{"TableName":"tbl","Item":{"pk":{"S":"k%d"},"g":{"S":"v%d"}}}`, i, i%3)))
	}
}

func (e *Engine) holdAllStripes() (release func()) {
	for i := range e.locks.stripes {
		e.locks.stripes[i].Lock()
	}
	return func() {
		for i := range e.locks.stripes {
			e.locks.stripes[i].Unlock()
		}
	}
}

func indexState(t *testing.T, e *Engine, name string) (status string, items int64) {
	t.Helper()
	d := must[protocol.DescribeTableOutput](t)(call(t, e.DescribeTable, `{"TableName":"tbl"}`))
	for _, g := range d.Table.GlobalSecondaryIndexes {
		if g.IndexName == name {
			return g.IndexStatus, g.ItemCount
		}
	}
	return "", 0
}

// waitBackfills waits for every running backfill to end.
func (e *Engine) waitBackfills() { e.bg.Wait() }

func TestBackfillingIndexRefusesReadsAndSecondCreate(t *testing.T) {
	e := open(t, "")
	defer e.Close()
	must[protocol.CreateTableOutput](t)(call(t, e.CreateTable, createTbl))
	loadItems(t, e, 30)
	release := e.holdAllStripes()
	must[protocol.UpdateTableOutput](t)(call(t, e.UpdateTable, addIndex("byG", "g")))
	_, err := call(t, e.Query, `{"TableName":"tbl","IndexName":"byG","KeyConditionExpression":"g = :v","ExpressionAttributeValues":{":v":{"S":"v1"}}}`)
	wantCode(t, err, apierr.Validation, "Cannot read from backfilling global secondary index: byG")
	_, err = call(t, e.UpdateTable, addIndex("byH", "h"))
	wantCode(t, err, apierr.LimitExceeded, "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table")
	if s, _ := indexState(t, e, "byG"); s != "CREATING" {
		t.Fatalf("status %s while backfill is held", s)
	}
	release()
	e.waitBackfills()
	if s, n := indexState(t, e, "byG"); s != "ACTIVE" || n != 30 {
		t.Fatalf("after backfill: %s with %d entries, want ACTIVE with 30", s, n)
	}
	out := must[protocol.ReadOutput](t)(call(t, e.Query, `{"TableName":"tbl","IndexName":"byG","KeyConditionExpression":"g = :v","ExpressionAttributeValues":{":v":{"S":"v1"}}}`))
	if out.Count != 10 {
		t.Fatalf("query after backfill counted %d, want 10", out.Count)
	}
}

func TestDeleteIndexDuringBackfillAndRecreate(t *testing.T) {
	e := open(t, "")
	defer e.Close()
	must[protocol.CreateTableOutput](t)(call(t, e.CreateTable, createTbl))
	loadItems(t, e, 12)
	release := e.holdAllStripes()
	must[protocol.UpdateTableOutput](t)(call(t, e.UpdateTable, addIndex("byG", "g")))
	out := must[protocol.UpdateTableOutput](t)(call(t, e.UpdateTable, dropIndexReq("byG")))
	if g := out.TableDescription.GlobalSecondaryIndexes; len(g) != 1 || g[0].IndexStatus != "DELETING" {
		t.Fatalf("delete answered indexes %+v, want byG DELETING", g)
	}
	if n := len(out.TableDescription.AttributeDefinitions); n != 1 {
		t.Fatalf("%d attribute definitions after delete, want only pk", n)
	}
	release()
	e.waitBackfills()
	if s, _ := indexState(t, e, "byG"); s != "" {
		t.Fatalf("deleted index still described, %s", s)
	}
	must[protocol.UpdateTableOutput](t)(call(t, e.UpdateTable, addIndex("byG", "g")))
	e.waitBackfills()
	if s, n := indexState(t, e, "byG"); s != "ACTIVE" || n != 12 {
		t.Fatalf("recreated index: %s with %d entries, want ACTIVE with 12", s, n)
	}
}

func TestIndexUpdateErrors(t *testing.T) {
	e := open(t, "")
	defer e.Close()
	must[protocol.CreateTableOutput](t)(call(t, e.CreateTable, createTbl))
	must[protocol.UpdateTableOutput](t)(call(t, e.UpdateTable, addIndex("byG", "g")))
	e.waitBackfills()
	_, err := call(t, e.UpdateTable, addIndex("byG", "g"))
	wantCode(t, err, apierr.Validation, "One or more parameter values were invalid: Index with name byG already exists on table tbl")
	_, err = call(t, e.UpdateTable, dropIndexReq("nope"))
	wantCode(t, err, apierr.ResourceNotFound, "Requested resource not found: Index: nope not found")
	_, err = call(t, e.UpdateTable, `{"TableName":"tbl","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"N"}],
		"GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":"byPk","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}}]}`)
	// facts 17.1: the redefinition names the schema that uses the attribute.
	wantCode(t, err, apierr.Validation, "One or more parameter values were invalid: Attributes cannot be redefined. Please check that your attribute has the same type as previously defined. "+
		"Existing schema: Schema:[SchemaElement: key{pk:S:HASH}] New schema: Schema:[SchemaElement: key{pk:N:HASH}]")
	_, err = call(t, e.UpdateTable, `{"TableName":"tbl","GlobalSecondaryIndexUpdates":[{"Update":{"IndexName":"byG","ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1}}}]}`)
	wantCode(t, err, apierr.Validation, "One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can be specified for index: byG when BillingMode is PAY_PER_REQUEST")
}

// TestBackfillResumesAfterRestart closes the engine in the middle of a
// backfill; the next Open must finish it.
func TestBackfillResumesAfterRestart(t *testing.T) {
	dir := t.TempDir()
	e := open(t, dir)
	must[protocol.CreateTableOutput](t)(call(t, e.CreateTable, createTbl))
	loadItems(t, e, 40)
	release := e.holdAllStripes()
	must[protocol.UpdateTableOutput](t)(call(t, e.UpdateTable, addIndex("byG", "g")))
	closed := make(chan error)
	go func() { closed <- e.Close() }()
	<-e.closing // Close has asked the backfill to stop; let it see that
	release()
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	e = open(t, dir)
	defer e.Close()
	e.waitBackfills()
	if s, n := indexState(t, e, "byG"); s != "ACTIVE" || n != 40 {
		t.Fatalf("after restart: %s with %d entries, want ACTIVE with 40", s, n)
	}
}

// A table created without secondary indexes, reopened, takes a new one:
// its stored definition has no index map to add to.
func TestAddIndexAfterReopen(t *testing.T) {
	dir := t.TempDir()
	e := open(t, dir)
	must[protocol.CreateTableOutput](t)(call(t, e.CreateTable, createTbl))
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	e = open(t, dir)
	defer e.Close()
	must[protocol.UpdateTableOutput](t)(call(t, e.UpdateTable, addIndex("byG", "g")))
	e.waitBackfills()
	if status, _ := indexState(t, e, "byG"); status != "ACTIVE" {
		t.Fatalf("the new index is %s, want ACTIVE", status)
	}
}

// TestBackfillingVectorIndexRefusesSearch: a vector index UpdateTable adds
// to a table with items refuses searches until its backfill is done, then
// holds exactly the items with a well-formed vector.
func TestBackfillingVectorIndexRefusesSearch(t *testing.T) {
	e := open(t, "")
	defer e.Close()
	must[protocol.CreateTableOutput](t)(call(t, e.CreateTable, createTbl))
	for i := range 5 {
		must[protocol.PutItemOutput](t)(call(t, e.PutItem, fmt.Sprintf(`{"TableName":"tbl","Item":{"pk":{"S":"k%d"},"v":{"L":[{"N":"1"},{"N":"%d"},{"N":"0"}]}}}`, i, i)))
	}
	must[protocol.PutItemOutput](t)(call(t, e.PutItem, `{"TableName":"tbl","Item":{"pk":{"S":"short"},"v":{"L":[{"N":"1"}]}}}`))
	must[protocol.PutItemOutput](t)(call(t, e.PutItem, `{"TableName":"tbl","Item":{"pk":{"S":"none"}}}`))
	release := sync.OnceFunc(e.holdAllStripes())
	defer release() // before Close, which waits for the backfill, if the test fails
	must[protocol.UpdateTableOutput](t)(call(t, e.UpdateTable, `{"TableName":"tbl","VectorIndexUpdates":[{"Create":{"IndexName":"vix",
		"VectorAttribute":{"AttributeName":"v"},"Dimensions":3,"DistanceFunction":"EUCLIDEAN","Projection":{"ProjectionType":"KEYS_ONLY"}}}]}`))
	search := `{"TableName":"tbl","IndexName":"vix","TopK":10,"SearchVector":[{"N":"1"},{"N":"0"},{"N":"0"}]}`
	_, err := call(t, e.SearchVectors, search)
	wantCode(t, err, apierr.Validation, "Cannot search backfilling vector index: vix")
	release()
	e.waitBackfills()
	out := must[protocol.SearchVectorsOutput](t)(call(t, e.SearchVectors, search))
	if got, want := resultKeys(out), []string{"k0", "k1", "k2", "k3", "k4"}; !slices.Equal(got, want) {
		t.Fatalf("after the backfill: %v, want %v", got, want)
	}
}
