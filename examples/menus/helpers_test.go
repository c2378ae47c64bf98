package main

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/examples/internal/runner"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// fixture is a store on a fresh sortkeytest server whose requests are
// recorded, and a plain client to look at the stored items.
type fixture struct {
	t   *testing.T
	ctx context.Context
	s   *Store
	rec *runner.Recorder
	log *wireLog
	raw *dynamodb.Client
}

// newFixture creates the table and, if sample, loads the sample data.
func newFixture(t *testing.T, sample bool) *fixture {
	t.Helper()
	return newFixtureOn(t, sortkeytest.NewWithOptions(t, coverage.Options(nil)), sample)
}

// newUncoveredFixture is newFixture on a server whose requests are not
// held to the design: for tests that read stored items back by key to
// check a write (name and id records, children under their parent: reads
// the application never makes, so coverage would rightly count them as
// undeclared), and for a read of the whole table. The program's run and
// the other tests exercise every pattern on covered servers.
func newUncoveredFixture(t *testing.T, sample bool) *fixture {
	t.Helper()
	return newFixtureOn(t, sortkeytest.New(t), sample)
}

func newFixtureOn(t *testing.T, srv *sortkeytest.Server, sample bool) *fixture {
	t.Helper()
	ctx := context.Background()
	env, err := runner.Start(ctx, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(env.Close)
	client, log := withWireLog(env)
	f := &fixture{t: t, ctx: ctx, s: NewStore(client, DefaultTable), rec: env.Recorder, log: log, raw: srv.Client()}
	f.must(CreateTable(ctx, env.Client, DefaultTable))
	if sample {
		f.must(LoadSample(ctx, f.s))
	}
	f.take()
	return f
}

func (f *fixture) must(err error) {
	f.t.Helper()
	if err != nil {
		f.t.Fatal(err)
	}
}

// take returns the requests made since it was last called.
func (f *fixture) take() ([]runner.Call, []Request) {
	return f.rec.Take(), f.log.Take()
}

// wantCalls checks the operation, table, index and key condition of each
// request made since the last take.
func (f *fixture) wantCalls(want ...runner.Call) []Request {
	f.t.Helper()
	calls, reqs := f.take()
	if !reflect.DeepEqual(calls, want) {
		f.t.Fatalf("requests:\n got %+v\nwant %+v", calls, want)
	}
	return reqs
}

// wantTransaction checks that the requests since the last take were
// reads, then one transaction with exactly these actions.
func (f *fixture) wantTransaction(reads []runner.Call, want ...Action) {
	f.t.Helper()
	reqs := f.wantCalls(append(reads, transact)...)
	if got := reqs[len(reqs)-1].Actions; !reflect.DeepEqual(got, want) {
		f.t.Fatalf("transaction actions:\n got %+v\nwant %+v", got, want)
	}
}

// The requests the access patterns may make.
var (
	getItem  = runner.Call{Op: "GetItem", Table: DefaultTable}
	transact = runner.Call{Op: "TransactWriteItems"}
	update   = runner.Call{Op: "UpdateItem", Table: DefaultTable}
	onGSI1   = runner.Call{Op: "Query", Table: DefaultTable, Index: GSI1, KeyCondition: "GSI1PK = :key"}
	onGSI2   = runner.Call{Op: "Query", Table: DefaultTable, Index: GSI2, KeyCondition: "GSI2PK = :key"}
	onTable  = runner.Call{Op: "Query", Table: DefaultTable, KeyCondition: "PK = :pk"}
)

func calls(cs ...runner.Call) []runner.Call { return cs }

// Transaction actions, as the wire log records them.
func putNew(pk, sk string) Action {
	return Action{Kind: "Put", Table: DefaultTable, PK: pk, SK: sk, Condition: "attribute_not_exists(PK)"}
}

func putName(key string) Action { return putNew(key, key) }

func dropRecord(key string) Action {
	return Action{Kind: "Delete", Table: DefaultTable, PK: key, SK: key, Condition: "id = :id"}
}

// counted is a counter of a collection's parent, countedIn of any item.
func counted(key, counter string) Action { return countedIn(key, key, counter) }

func countedIn(pk, sk, counter string) Action {
	return Action{Kind: "Update", Table: DefaultTable, PK: pk, SK: sk, Condition: "attribute_exists(PK)", Update: "ADD " + counter + " :d"}
}

func renamed(pk, sk string) Action {
	return Action{Kind: "Update", Table: DefaultTable, PK: pk, SK: sk, Condition: "#name = :from",
		Update: "SET #name = :to, GSI2PK = :key, GSI2SK = :key"}
}

func deleted(pk, sk, cond string) Action {
	return Action{Kind: "Delete", Table: DefaultTable, PK: pk, SK: sk, Condition: cond}
}

// stored is the item under pk/sk as the table holds it, nil if none.
func (f *fixture) stored(pk, sk string) map[string]any {
	f.t.Helper()
	out, err := f.raw.GetItem(f.ctx, &dynamodb.GetItemInput{TableName: aws.String(DefaultTable),
		Key: keys{PK: pk, SK: sk}.primary(), ConsistentRead: aws.Bool(true)})
	f.must(err)
	if out.Item == nil {
		return nil
	}
	var item map[string]any
	f.must(attributevalue.UnmarshalMap(out.Item, &item))
	return item
}

// wantStored checks the item under pk/sk, all its attributes; nil: none.
func (f *fixture) wantStored(pk, sk string, want map[string]any) {
	f.t.Helper()
	if got := f.stored(pk, sk); !reflect.DeepEqual(got, want) {
		f.t.Fatalf("item %s / %s:\n got %v\nwant %v", pk, sk, got, want)
	}
}

// nameRecord is a name record as stored.
func nameRecord(key, id, name string) map[string]any {
	return map[string]any{"PK": key, "SK": key, "id": id, "name": name}
}

func idRecord(key, id string) map[string]any {
	return map[string]any{"PK": key, "SK": key, "id": id}
}

// wantErr checks that err is want and, when reasons are given, that it
// is a cancelled transaction with these reason codes in this order.
func wantErr(t *testing.T, err, want error, reasons ...string) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("error %v, want %v", err, want)
	}
	if len(reasons) == 0 {
		return
	}
	var canceled *types.TransactionCanceledException
	if !errors.As(err, &canceled) {
		t.Fatalf("error %v is not a TransactionCanceledException", err)
	}
	got := make([]string, len(canceled.CancellationReasons))
	for i, r := range canceled.CancellationReasons {
		got[i] = aws.ToString(r.Code)
	}
	if !reflect.DeepEqual(got, reasons) {
		t.Fatalf("cancellation reasons %v, want %v", got, reasons)
	}
}

// wantEqual compares a read with what it should return.
func wantEqual[T any](t *testing.T, got T, err error, want T) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("\n got %+v\nwant %+v", got, want)
	}
}

func schema(ks []types.KeySchemaElement) string {
	s := ""
	for i, k := range ks {
		if i > 0 {
			s += ", "
		}
		s += *k.AttributeName + " " + string(k.KeyType)
	}
	return s
}

func runnerQuery(cond string) runner.Call {
	return runner.Call{Op: "Query", Table: DefaultTable, KeyCondition: cond}
}

// sampleIngredient is a sample ingredient as stored after LoadSample,
// with the number of sample recipes using it.
func sampleIngredient(id string) Ingredient {
	for _, i := range sampleIngredients {
		if i.ID == id {
			for _, ri := range sampleRecipeIngredients {
				if ri.IngredientID == id {
					i.UsedBy++
				}
			}
			return i
		}
	}
	panic("no sample ingredient " + id)
}
