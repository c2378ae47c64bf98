package main

import (
	"context"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/examples/internal/runner"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

var ctx = context.Background()

// testClock is the one clock of a test, shared by the server (which
// expires items by it) and the store (which writes ttl by it).
type testClock struct{ ns atomic.Int64 }

func newClock() *testClock {
	c := &testClock{}
	c.ns.Store(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC).UnixNano())
	return c
}

func (c *testClock) Now() time.Time { return time.Unix(0, c.ns.Load()).UTC() }

func (c *testClock) Advance(d time.Duration) { c.ns.Add(int64(d)) }

// fixture is a sortkeytest server with the Market table and the sample
// data, a store on the test's clock, and a client whose requests are
// recorded.
type fixture struct {
	srv    *sortkeytest.Server
	env    *runner.Env
	clock  *testClock
	store  *Store
	sample *Sample
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{clock: newClock()}
	f.srv = sortkeytest.NewWithOptions(t, &sortkey.Options{Now: f.clock.Now, TTLInterval: -1})
	env, err := runner.Start(ctx, f.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(env.Close)
	f.env = env
	if err := CreateTables(ctx, env.Client); err != nil {
		t.Fatal(err)
	}
	f.store = NewStore(env.Client, f.clock.Now)
	if f.sample, err = LoadSample(ctx, f.store, f.clock.Advance); err != nil {
		t.Fatal(err)
	}
	env.Recorder.Take()
	return f
}

// calls runs fn and returns the requests it made.
func (f *fixture) calls(fn func()) []runner.Call {
	f.env.Recorder.Take()
	fn()
	return f.env.Recorder.Take()
}

func wantCalls(t *testing.T, got []runner.Call, want ...runner.Call) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("requests:\n got  %+v\n want %+v", got, want)
	}
}

func wantEqual[T any](t *testing.T, what string, got, want T) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\n got  %+v\n want %+v", what, got, want)
	}
}

// Recorded requests of the access patterns and writes.
var (
	getItem     = runner.Call{Op: "GetItem", Table: MarketTable}
	queryShard  = runner.Call{Op: "Query", Table: MarketTable, KeyCondition: "pk = :pk"}
	queryOrder  = runner.Call{Op: "Query", Table: MarketTable, KeyCondition: "pk = :pk AND begins_with(sk, :sk)"}
	queryID     = runner.Call{Op: "Query", Table: MarketTable, Index: IdLookupIndex, KeyCondition: "id = :id AND tp = :tp"}
	queryByKey  = runner.Call{Op: "Query", Table: MarketTable, Index: ReverseIndex, KeyCondition: "sk = :sk"}
	updateItem  = runner.Call{Op: "UpdateItem", Table: MarketTable}
	transaction = runner.Call{Op: "TransactWriteItems"}
)

// headers is the orders without their items, as LastOrders returns them.
func headers(orders ...Order) []Order {
	var out []Order
	for _, o := range orders {
		o.Items = nil
		out = append(out, o)
	}
	return out
}
