package main

import (
	"slices"
	"testing"
)

func TestDisplayBonuses(t *testing.T) {
	f := newFixture(t)
	var got []Reward
	var err error
	calls := f.calls(func() { got, err = f.store.As(Rabinovich).Bonuses(ctx) })
	if err != nil {
		t.Fatal(err)
	}
	wantCalls(t, calls, queryShard)
	want := slices.Clone(f.sample.Rewards[Rabinovich])
	slices.Reverse(want)
	wantEqual(t, "bonuses, newest first", got, want)
	var reasons []string
	for _, r := range got {
		reasons = append(reasons, r.Reason)
	}
	orders := f.sample.Orders[Rabinovich]
	wantEqual(t, "reasons", reasons, []string{"Order " + orders[2].Number, "Order " + orders[1].Number,
		"Order " + orders[0].Number, "Welcome bonus"})
	if b := Balance(got); b != 100+55+129+99 {
		t.Fatalf("balance %d", b)
	}
}

func TestBonusesAreEachUsersOwn(t *testing.T) {
	f := newFixture(t)
	got, err := f.store.As(Okafor).Bonuses(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := slices.Clone(f.sample.Rewards[Okafor])
	slices.Reverse(want)
	wantEqual(t, "Okafor's bonuses", got, want)
	if Balance(got) != 100+127 {
		t.Fatalf("balance %d", Balance(got))
	}
}
