package main

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey/examples/internal/runner"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

var ctx = context.Background()

// shop is a Store on a fresh sortkeytest server with the sample loaded,
// and the recorder of its requests.
type shop struct {
	*Store
	sample *Sample
	rec    *runner.Recorder
}

func newShop(t *testing.T) *shop {
	t.Helper()
	return newShopOn(t, sortkeytest.NewWithOptions(t, coverage.Options(nil)))
}

func newShopOn(t *testing.T, srv *sortkeytest.Server) *shop {
	t.Helper()
	return newShopWith(t, srv, LoadSample)
}

// newShopWith is newShopOn with the sample, or the part of it a test
// needs, loaded by load.
func newShopWith(t *testing.T, srv *sortkeytest.Server, load func(context.Context, *Store) (*Sample, error)) *shop {
	t.Helper()
	env, err := runner.Start(ctx, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(env.Close)
	if err := CreateTables(ctx, env.Client, "shop"); err != nil {
		t.Fatal(err)
	}
	s := sampleStore(env.Client, "shop")
	sm, err := load(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	env.Recorder.Take() // the access pattern's own requests start here
	return &shop{Store: s, sample: sm, rec: env.Recorder}
}

// served checks the requests made since the last check.
func (sh *shop) served(t *testing.T, want ...runner.Call) {
	t.Helper()
	if got := sh.rec.Take(); !reflect.DeepEqual(got, want) {
		t.Fatalf("requests %+v\nwant     %+v", got, want)
	}
}

func getItem() runner.Call { return runner.Call{Op: "GetItem", Table: "shop"} }

func queryOn(index, cond string) runner.Call {
	return runner.Call{Op: "Query", Table: "shop", Index: index, KeyCondition: cond}
}

// same checks a read's result item by item, in order.
func same[T any](t *testing.T, got []T, err error, want ...T) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %s\nwant %s", labels(got), labels(want))
	}
}

// labels prints entities one per line, so a failure shows which differ.
func labels[T any](items []T) string {
	var out []string
	for _, v := range items {
		out = append(out, fmt.Sprintf("%+v", v))
	}
	return "[" + strings.Join(out, "\n      ") + "]"
}

func (sh *shop) users(names ...string) []User {
	var out []User
	for _, n := range names {
		out = append(out, sh.sample.Users[n])
	}
	return out
}

func (sh *shop) categories(names ...string) []Category {
	var out []Category
	for _, n := range names {
		out = append(out, sh.sample.Categories[n])
	}
	return out
}

func (sh *shop) brands(names ...string) []Brand {
	var out []Brand
	for _, n := range names {
		out = append(out, sh.sample.Brands[n])
	}
	return out
}

func (sh *shop) products(names ...string) []Product {
	var out []Product
	for _, n := range names {
		out = append(out, sh.sample.Products[n])
	}
	return out
}

func (sh *shop) orders(labels ...string) []Order {
	var out []Order
	for _, l := range labels {
		out = append(out, sh.sample.Orders[l])
	}
	return out
}
