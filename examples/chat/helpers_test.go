package main

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/examples/internal/runner"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// The tests run on the sample that main loads (sample.go), written with a
// stepping clock (a minute per write from 09:00) and ids id01, id02, ... in
// the order they are made. Its timeline, in minutes after 09:00:
//
//	00-03  users alice, bob, carol, dave
//	04-17  communities (created, founder joins, members join):
//	       sf-gophers 04, alice 05, bob 06, carol 07; bay-climbers 08, dave 09, alice 10;
//	       mission-books 11, bob 12, alice 13; atx-music 14, carol 15; toronto-devs 16, bob 17
//	18-20  group chats general (alice), core (alice), weekend (dave)
//	21-27  bob and carol join general; its messages id01-id05 (id04 edited, id01 reacted to)
//	28-32  private chat alice-bob: alice 28, bob 29; messages id06-id08 (id06 read)
//	33-37  chat requests bob->core (id09, pending id10), dave->core (id11, id12),
//	       carol->core (id13, id14), carol->weekend (id15, id16); bob accepted 37, dave declined
//	38-41  alice's notifications id17-id20; id17 read

type env struct {
	ctx context.Context
	s   *Store
	rec *runner.Recorder
}

// newEnv is a fresh sortkeytest server with the design's tables and the
// sample loaded, and a Store whose requests are recorded.
func newEnv(t *testing.T) *env {
	t.Helper()
	return newEnvOn(t, sortkeytest.NewWithOptions(t, coverage.Options(nil)))
}

// newUncoveredEnv is newEnv on a server whose requests are not held to
// the design: for tests that read items back by keys, or whole tables,
// which the application never does.
func newUncoveredEnv(t *testing.T) *env {
	t.Helper()
	return newEnvOn(t, sortkeytest.New(t))
}

func newEnvOn(t *testing.T, srv *sortkeytest.Server) *env {
	t.Helper()
	ctx := context.Background()
	r, err := runner.Start(ctx, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	s := NewStore(r.Client)
	s.now, s.newID = steppingClock(sampleStart), sequence()
	if err := CreateTables(ctx, r.Client); err != nil {
		t.Fatal(err)
	}
	if err := loadSample(ctx, s); err != nil {
		t.Fatal(err)
	}
	r.Recorder.Take()
	return &env{ctx: ctx, s: s, rec: r.Recorder}
}

func sequence() func() string {
	n := 0
	return func() string {
		n++
		return fmt.Sprintf("id%02d", n)
	}
}

// at is the sample clock's timestamp m minutes after it started.
func at(m int) string { return stamp(sampleStart.Add(time.Duration(m) * time.Minute)) }

// calls checks that exactly the wanted requests were made since the last check.
func (e *env) calls(t *testing.T, want ...runner.Call) {
	t.Helper()
	if got := e.rec.Take(); !reflect.DeepEqual(got, want) {
		t.Fatalf("requests:\n got %+v\nwant %+v", got, want)
	}
}

func getItem(table string) runner.Call { return runner.Call{Op: "GetItem", Table: table} }

func query(table, index, keyCondition string) runner.Call {
	return runner.Call{Op: "Query", Table: table, Index: index, KeyCondition: keyCondition}
}

const (
	byPrefix    = "PK = :pk AND begins_with(SK, :prefix)"
	byPartition = "PK = :pk"
)

// same fails the test unless got equals want, after a successful read.
func same[T any](t *testing.T, got T, err error, want T) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("\n got %+v\nwant %+v", got, want)
	}
}

// refused fails the test unless err is a refusal of a conditional write.
func refused(t *testing.T, err error) {
	t.Helper()
	if err == nil || !isConditionFailure(err) {
		t.Fatalf("want a failed condition, got %v", err)
	}
}

// isConditionFailure: a PutItem or UpdateItem whose condition failed, or a
// transaction cancelled because one of its conditions did.
func isConditionFailure(err error) bool {
	var failed *types.ConditionalCheckFailedException
	if errors.As(err, &failed) {
		return true
	}
	var cancelled *types.TransactionCanceledException
	if !errors.As(err, &cancelled) {
		return false
	}
	return slices.ContainsFunc(cancelled.CancellationReasons, func(r types.CancellationReason) bool {
		return aws.ToString(r.Code) == "ConditionalCheckFailed"
	})
}
