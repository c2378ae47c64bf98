package main

import (
	"errors"
	"testing"
	"time"
)

func TestGetUserByID(t *testing.T) {
	sh := newShop(t)
	ana := sh.sample.Users["Ana Lima"]
	got, err := sh.GetUserByID(ctx, ana.ID)
	same(t, []User{got}, err, ana)
	sh.served(t, getItem())
	if got.Name != "Ana Lima" || got.Email != "ana.lima@example.com" || !got.CreatedAt.Equal(sampleStart) {
		t.Fatalf("Ana reads back as %+v", got)
	}
	if _, err := sh.GetUserByID(ctx, sh.sample.Orders["ana-1"].ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("an unknown id: %v, want ErrNotFound", err)
	}
}

// TestGetUserByEmail finds a user by email on the LSI, whatever the case
// she typed it in.
func TestGetUserByEmail(t *testing.T) {
	sh := newShop(t)
	got, err := sh.GetUserByEmail(ctx, "chloe.martin@example.com")
	same(t, []User{got}, err, sh.users("Chloe Martin")...)
	sh.served(t, queryOn("LSI", "PK = :pk AND SKU = :sku"))
	if got.Email != "Chloe.Martin@Example.com" {
		t.Fatalf("email %q: not kept as she typed it", got.Email)
	}
	if _, err := sh.GetUserByEmail(ctx, "test03@gmail.com"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("an unknown email: %v, want ErrNotFound", err)
	}
}

func TestListUsers(t *testing.T) {
	sh := newShop(t)
	got, err := sh.ListUsers(ctx, Ascending)
	same(t, got, err, sh.users("Ana Lima", "QA Two", "Ben Okafor", "QA One", "Chloe Martin")...)
	sh.served(t, queryOn("", "PK = :pk"))
	got, err = sh.ListUsers(ctx, Descending)
	same(t, got, err, sh.users("Chloe Martin", "QA One", "Ben Okafor", "QA Two", "Ana Lima")...)
}

// TestListUsersByCreatedAt reads the users who signed up from a given
// second on: SK > the first KSUID of that second.
func TestListUsersByCreatedAt(t *testing.T) {
	sh := newShop(t)
	ben := sh.sample.Users["Ben Okafor"].CreatedAt
	got, err := sh.ListUsersByCreatedAt(ctx, ben, Ascending)
	same(t, got, err, sh.users("Ben Okafor", "QA One", "Chloe Martin")...)
	sh.served(t, queryOn("", "PK = :pk AND SK > :sk"))
	got, err = sh.ListUsersByCreatedAt(ctx, ben.Add(time.Second), Descending)
	same(t, got, err, sh.users("Chloe Martin", "QA One")...)
	got, err = sh.ListUsersByCreatedAt(ctx, sampleStart.Add(time.Hour), Ascending)
	same(t, got, err)
}

// TestListUsersByEmailPrefix finds the QA accounts by email prefix, in
// email order (QA One signed up after QA Two).
func TestListUsersByEmailPrefix(t *testing.T) {
	sh := newShop(t)
	got, err := sh.ListUsersByEmailPrefix(ctx, "test", Ascending)
	same(t, got, err, sh.users("QA One", "QA Two")...)
	sh.served(t, queryOn("GSI1", "GSI1PK = :pk AND begins_with(GSI1SK, :prefix)"))
	got, err = sh.ListUsersByEmailPrefix(ctx, "CHLOE", Ascending)
	same(t, got, err, sh.users("Chloe Martin")...)
	got, err = sh.ListUsersByEmailPrefix(ctx, "t", Descending)
	same(t, got, err, sh.users("QA Two", "QA One")...)
}
