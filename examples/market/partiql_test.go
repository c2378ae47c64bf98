package main

import (
	"errors"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/sortkeydb/sortkey/examples/internal/capacity"
)

// metered is f's store on a client that reports what each request
// consumes.
func (f *fixture) metered() (*Store, *capacity.Meter) {
	s := *f.store
	meter := &capacity.Meter{}
	s.db = capacity.MeteredBy(f.store.db, meter)
	users := f.store.users
	s.users = func(u UserID) *dynamodb.Client { return capacity.MeteredBy(users(u), meter) }
	return &s, meter
}

// TestReadsPartiQL: Profile and Bonuses written as PartiQL read the same
// items, bonuses newest first, at the same cost, for each sample user.
func TestReadsPartiQL(t *testing.T) {
	f := newFixture(t)
	s, meter := f.metered()
	for _, user := range []UserID{Rabinovich, Okafor} {
		session := s.As(user)
		want, err := session.Profile(ctx)
		if err != nil {
			t.Fatal(err)
		}
		nativeRCU := meter.Take()
		got, err := session.ProfilePartiQL(ctx)
		if err != nil {
			t.Fatal(err)
		}
		wantEqual(t, "ProfilePartiQL", got, want)
		capacity.Same(t, "Profile "+string(user), nativeRCU, meter.Take())

		bonuses, err := session.Bonuses(ctx)
		if err != nil {
			t.Fatal(err)
		}
		nativeRCU = meter.Take()
		gotBonuses, err := session.BonusesPartiQL(ctx)
		if err != nil {
			t.Fatal(err)
		}
		wantEqual(t, "BonusesPartiQL", gotBonuses, bonuses)
		capacity.Same(t, "Bonuses "+string(user), nativeRCU, meter.Take())
		newestFirst := slices.Clone(f.sample.Rewards[user])
		slices.Reverse(newestFirst)
		wantEqual(t, "BonusesPartiQL, newest first", gotBonuses, newestFirst)
	}
	stranger := s.As(Stranger)
	if _, err := stranger.ProfilePartiQL(ctx); !errors.Is(err, ErrNotFound) {
		t.Fatalf("ProfilePartiQL of an unknown user: %v, want ErrNotFound", err)
	}
}

// TestSaveProfilePartiQL saves one change of Okafor's contact details on
// two copies of the sample, one with each form: the same profile is
// stored, keys and handle kept, at the same cost; a session of an
// unknown user still cannot sign itself up.
func TestSaveProfilePartiQL(t *testing.T) {
	native, partiql := newFixture(t), newFixture(t)
	ns, nmeter := native.metered()
	ps, pmeter := partiql.metered()
	changed := Profile{Handle: "someone-else", Name: "Adaeze Okafor-Bello", Email: "adaeze@bello.example",
		Phones: []string{"+44 7700 900456"}, Addresses: sampleProfiles[Okafor].Addresses[:1]}
	if err := ns.As(Okafor).SaveProfile(ctx, changed); err != nil {
		t.Fatal(err)
	}
	if err := ps.As(Okafor).SaveProfilePartiQL(ctx, changed); err != nil {
		t.Fatal(err)
	}
	capacity.Same(t, "SaveProfile", nmeter.Take(), pmeter.Take())
	want, err := ns.As(Okafor).Profile(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ps.As(Okafor).Profile(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wantEqual(t, "profile saved with PartiQL", got, want)
	if got.Handle != "okafor" || got.Name != changed.Name {
		t.Fatalf("profile saved with PartiQL: %+v", got)
	}
	stranger := ps.As(Stranger)
	if err := stranger.SaveProfilePartiQL(ctx, Profile{Name: "x"}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("SaveProfilePartiQL: %v, want ErrNotFound (a session cannot sign itself up)", err)
	}
	if _, err := stranger.Profile(ctx); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a refused PartiQL save created a profile: %v", err)
	}
}
