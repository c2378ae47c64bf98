package main

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/sortkeydb/sortkey/examples/internal/capacity"
	"github.com/sortkeydb/sortkey/examples/internal/runner"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

var ctx = context.Background()

// testNow is the sample's clock in tests: 1 June 2025, 09:00 UTC.
var testNow = time.Date(2025, 6, 1, 9, 0, 0, 0, time.UTC)

// fixture is the sample loaded on a fresh sortkeytest server, with a
// recorder of every request and a clock the test can move.
type fixture struct {
	s    *Store
	db   *dynamodb.Client
	rec  *runner.Recorder
	link InvitationLink // the Sato family's invitation link
	now  time.Time
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	return newFixtureOn(t, sortkeytest.NewWithOptions(t, coverage.Options(nil)))
}

// newUncoveredFixture is newFixture on a server whose requests are not
// held to the design: for a test's read of the whole table, which the
// application never makes.
func newUncoveredFixture(t *testing.T) *fixture {
	t.Helper()
	return newFixtureOn(t, sortkeytest.New(t))
}

func newFixtureOn(t *testing.T, srv *sortkeytest.Server) *fixture {
	t.Helper()
	env, err := runner.Start(ctx, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(env.Close)
	f := &fixture{db: env.Client, rec: env.Recorder, now: testNow}
	f.s = NewStore(env.Client, DevTable)
	f.s.Now = func() time.Time { return f.now }
	if err := CreateTable(ctx, env.Client, DevTable); err != nil {
		t.Fatal(err)
	}
	if f.link, err = loadSample(ctx, f.s); err != nil {
		t.Fatal(err)
	}
	f.rec.Take()
	return f
}

// calls checks that the requests since the last check were exactly want.
func (f *fixture) calls(t *testing.T, want ...runner.Call) {
	t.Helper()
	if got := f.rec.Take(); !reflect.DeepEqual(got, want) {
		t.Fatalf("requests %+v\nwant     %+v", got, want)
	}
}

func getItem() runner.Call { return runner.Call{Op: "GetItem", Table: DevTable} }

func updateItem() runner.Call { return runner.Call{Op: "UpdateItem", Table: DevTable} }

func transact() runner.Call { return runner.Call{Op: "TransactWriteItems"} }

// prefixQuery is a query of one partition's sort keys by prefix.
func prefixQuery() runner.Call {
	return runner.Call{Op: "Query", Table: DevTable, KeyCondition: "PK = :pk AND begins_with(SK, :prefix)"}
}

func indexQuery(index, attr string) runner.Call {
	return runner.Call{Op: "Query", Table: DevTable, Index: index, KeyCondition: attr + " = :v"}
}

// equal fails the test unless got is want and err is nil.
func equal[T any](t *testing.T, what string, got T, err error, want T) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\n got %+v\nwant %+v", what, got, want)
	}
}

// fails fails the test unless err is target.
func fails(t *testing.T, what string, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("%s: error %v, want %v", what, err, target)
	}
}

// sameCapacity fails the test unless the native form of an access pattern
// succeeded and its PartiQL form consumed the same capacity units.
func sameCapacity(t *testing.T, what string, nativeErr error, native, partiql float64) {
	t.Helper()
	if nativeErr != nil {
		t.Fatalf("%s: %v", what, nativeErr)
	}
	capacity.Same(t, what, native, partiql)
}
