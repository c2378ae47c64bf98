package main

import (
	"errors"
	"testing"
)

func TestGetUser(t *testing.T) {
	e := newEnv(t)
	got, err := e.s.GetUser(e.ctx, "alice")
	e.calls(t, getItem(UsersTable))
	same(t, got, err, User{ID: "alice", Username: "alice", Name: "Alice Nguyen",
		PasswordHash: "$2a$10$sample.hash.not.a.real.password", Email: "alice@example.com", Bio: "Go and climbing",
		Location: sf, CreatedAt: at(0), LastSeenAt: at(0), Role: "admin"})

	if _, err := e.s.GetUser(e.ctx, "nobody"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a missing user: %v", err)
	}
}

func TestCreateUserRefusesATakenID(t *testing.T) {
	e := newEnv(t)
	_, err := e.s.CreateUser(e.ctx, User{ID: "alice", Username: "impostor"})
	refused(t, err)
	got, err := e.s.GetUser(e.ctx, "alice")
	if err != nil || got.Username != "alice" {
		t.Fatalf("alice after the refused create: %+v, %v", got, err)
	}
}

func TestTouchUser(t *testing.T) {
	e := newEnv(t)
	if err := e.s.TouchUser(e.ctx, "bob"); err != nil {
		t.Fatal(err)
	}
	got, err := e.s.GetUser(e.ctx, "bob")
	if err != nil || got.LastSeenAt != at(42) || got.CreatedAt != at(1) {
		t.Fatalf("bob after TouchUser: %+v, %v", got, err)
	}
	refused(t, e.s.TouchUser(e.ctx, "nobody"))
}
