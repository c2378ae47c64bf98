package main

import (
	"errors"
	"testing"
)

func TestGetUserProfile(t *testing.T) {
	f := newFixture(t)
	var p Profile
	var err error
	calls := f.calls(func() { p, err = f.store.As(Rabinovich).Profile(ctx) })
	if err != nil {
		t.Fatal(err)
	}
	wantCalls(t, calls, getItem)
	want := sampleProfiles[Rabinovich]
	want.PK, want.SK, want.Type = "U#"+string(Rabinovich), "U#"+string(Rabinovich), "U"
	wantEqual(t, "profile", p, want)
}

func TestSaveProfileKeepsKeysAndHandle(t *testing.T) {
	f := newFixture(t)
	s := f.store.As(Okafor)
	changed := Profile{Handle: "someone-else", Name: "Adaeze Okafor-Bello", Email: "adaeze@bello.example",
		Phones: []string{"+44 7700 900456"}, Addresses: sampleProfiles[Okafor].Addresses[:1]}
	if err := s.SaveProfile(ctx, changed); err != nil {
		t.Fatal(err)
	}
	got, err := s.Profile(ctx)
	if err != nil {
		t.Fatal(err)
	}
	changed.PK, changed.SK, changed.Type, changed.Handle = "U#"+string(Okafor), "U#"+string(Okafor), "U", "okafor"
	wantEqual(t, "saved profile", got, changed)
}

func TestProfileOfUnknownUser(t *testing.T) {
	f := newFixture(t)
	stranger := f.store.As(Stranger)
	if _, err := stranger.Profile(ctx); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Profile: %v, want ErrNotFound", err)
	}
	if err := stranger.SaveProfile(ctx, Profile{Name: "x"}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("SaveProfile: %v, want ErrNotFound (a session cannot sign itself up)", err)
	}
	if err := f.store.CreateUser(ctx, Okafor, Profile{Handle: "dup"}); !errors.Is(err, ErrUserExists) {
		t.Fatalf("CreateUser of an existing user: %v", err)
	}
}
