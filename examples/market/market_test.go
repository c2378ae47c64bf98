package main

import (
	"context"
	"net/http"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

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

// Stranger is a signed-in user who never signed up: the auth file knows
// them, the table holds nothing of theirs.
const Stranger UserID = "00000000-0000-4000-8000-000000000000"

// Bulk is a user some tests sign up to give many orders.
const Bulk UserID = "0b7c3a6e-1f3d-4e8a-9c2b-5d6e7f8a9b0c"

// testUsers are the users of the tests' auth file.
var testUsers = []UserID{Rabinovich, Okafor, Stranger, Bulk}

// fixture is a sortkeytest server with access control on, the Market
// table and the sample data, a store on the test's clock, and clients
// acting as the back end (back) and as each user, whose requests are
// recorded.
type fixture struct {
	srv    *sortkeytest.Server
	env    *runner.Env
	back   *dynamodb.Client
	clock  *testClock
	store  *Store
	sample *Sample
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	return newFixtureOn(t, coverage.Options)
}

// newUncoveredFixture is newFixture on a server whose requests are not
// held to the design, for tests that send requests the application never
// makes on purpose: a tenant's probes of another's partitions (and the
// back end's same requests, to show they are well formed), a decoy item,
// and reads of the whole table to compare before and after. Coverage
// would rightly count each as undeclared.
func newUncoveredFixture(t *testing.T) *fixture {
	t.Helper()
	return newFixtureOn(t, func(o *sortkey.Options) *sortkey.Options { return o })
}

func newFixtureOn(t *testing.T, options func(*sortkey.Options) *sortkey.Options) *fixture {
	t.Helper()
	f := &fixture{clock: newClock()}
	f.srv = sortkeytest.NewWithOptions(t, options(&sortkey.Options{Now: f.clock.Now, TTLInterval: -1, Auth: authFile(t, TenantPolicy)}))
	env, err := runner.Start(ctx, f.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(env.Close)
	f.env = env
	var users UserClients
	f.back, users = principals(env, f.clock.signing)
	if err := CreateTables(ctx, f.back); err != nil {
		t.Fatal(err)
	}
	f.store = NewStore(f.back, users, f.clock.Now)
	if f.sample, err = LoadSample(ctx, f.store, f.clock.Advance); err != nil {
		t.Fatal(err)
	}
	env.Recorder.Take()
	return f
}

// authFile is the tests' auth file with tenantPolicy for every user.
func authFile(t *testing.T, tenantPolicy string) []byte {
	t.Helper()
	doc, err := AuthFile(tenantPolicy, testUsers...)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// user is a raw client acting as u, for requests the app would never make.
func (f *fixture) user(u UserID) *dynamodb.Client {
	return f.env.ClientWith(UserKeys(u).Provider(), f.clock.signing)
}

// signing makes a client sign with the test's clock: the server checks
// signatures by its clock, which the test moves days ahead.
func (c *testClock) signing(o *dynamodb.Options) { o.HTTPSignerV4 = clockSigner{c.Now, v4.NewSigner()} }

type clockSigner struct {
	now func() time.Time
	v4  *v4.Signer
}

func (s clockSigner) SignHTTP(ctx context.Context, creds aws.Credentials, r *http.Request, payloadHash, service, region string,
	_ time.Time, optFns ...func(*v4.SignerOptions)) error {
	return s.v4.SignHTTP(ctx, creds, r, payloadHash, service, region, s.now(), optFns...)
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
