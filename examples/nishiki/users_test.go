package main

import (
	"testing"

	"github.com/sortkeydb/sortkey/examples/internal/capacity"
)

func TestGetUser(t *testing.T) {
	f := newFixture(t)
	u, err := f.s.GetUser(ctx, alice)
	equal(t, "GetUser(alice)", u, err, User{UserId: alice, UserName: "Alice Sato", EMailAddress: "alice@example.com"})
	f.calls(t, getItem())
	_, err = f.s.GetUser(ctx, "00000000-0000-4000-8000-000000000000")
	fails(t, "GetUser(unknown)", err, ErrNotFound)
}

// TestGetUserInGroup is GetUser on UserId / Group#{GroupId}: a member's
// membership item, and no item for a user of another group.
func TestGetUserInGroup(t *testing.T) {
	f := newFixture(t)
	m, err := f.s.GetUserInGroup(ctx, dave, family)
	equal(t, "GetUserInGroup(dave, family)", m, err, Membership{UserId: dave, GroupId: family})
	f.calls(t, getItem())
	_, err = f.s.GetUserInGroup(ctx, carol, family)
	fails(t, "GetUserInGroup(carol, family)", err, ErrNotFound)
	f.calls(t, getItem())
}

func TestGetUserByEMail(t *testing.T) {
	f := newFixture(t)
	id, err := f.s.GetUserByEMail(ctx, "bob@example.com")
	equal(t, "GetUserByEMail(bob)", id, err, bob)
	f.calls(t, indexQuery(IndexEMailAndUserId, "EMailAddress"))
	_, err = f.s.GetUserByEMail(ctx, "nobody@example.com")
	fails(t, "GetUserByEMail(nobody)", err, ErrNotFound)
}

// TestGetUserByEMailAmbiguous: the design has nothing that keeps e-mail
// addresses unique, so a lookup must not pick one of two users silently.
func TestGetUserByEMailAmbiguous(t *testing.T) {
	f := newFixture(t)
	if _, err := f.s.CreateUser(ctx, User{UserName: "Bob Impostor", EMailAddress: "bob@example.com"}); err != nil {
		t.Fatal(err)
	}
	_, err := f.s.GetUserByEMail(ctx, "bob@example.com")
	fails(t, "GetUserByEMail(bob twice)", err, ErrAmbiguous)
}

// TestListOfUsersGroup: begins_with(SK, "Group#") reads Alice's two
// memberships in GroupId order (the share house, created second, first)
// and never her own User item.
func TestListOfUsersGroup(t *testing.T) {
	f := newFixture(t)
	ids, err := f.s.ListOfUsersGroup(ctx, alice)
	equal(t, "ListOfUsersGroup(alice)", ids, err, []string{share, family})
	f.calls(t, prefixQuery())
	ids, err = f.s.ListOfUsersGroup(ctx, dave)
	equal(t, "ListOfUsersGroup(dave)", ids, err, []string{family})
	f.calls(t, prefixQuery())
}

func TestCreateUser(t *testing.T) {
	f := newFixture(t)
	u, err := f.s.CreateUser(ctx, User{UserName: "Erin Kato", EMailAddress: "erin@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if !isUUIDv4(u.UserId) {
		t.Fatalf("new user's ID %q is not a version 4 UUID", u.UserId)
	}
	id, err := f.s.GetUserByEMail(ctx, "erin@example.com")
	equal(t, "GetUserByEMail(erin)", id, err, u.UserId)
	ids, err := f.s.ListOfUsersGroup(ctx, u.UserId)
	equal(t, "a new user's groups", ids, err, []string{})
	_, err = f.s.CreateUser(ctx, User{UserId: alice, UserName: "Alice again"})
	fails(t, "CreateUser(alice's ID)", err, ErrExists)
	got, err := f.s.GetUser(ctx, alice)
	equal(t, "alice after a refused create", got.UserName, err, "Alice Sato")
}

func isUUIDv4(s string) bool {
	if len(s) != 36 || s[14] != '4' || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return false
	}
	return s[19] == '8' || s[19] == '9' || s[19] == 'a' || s[19] == 'b'
}

// TestUsersPartiQL: GetUser, ListOfUsersGroup and CreateUser written as
// PartiQL give what the native calls give, at the same capacity.
func TestUsersPartiQL(t *testing.T) {
	f := newFixture(t)
	db, meter := capacity.Metered(f.db)
	s := NewStore(db, DevTable)

	native, err := s.GetUser(ctx, alice)
	nativeRCU := meter.Take()
	partiql, perr := s.GetUserPartiQL(ctx, alice)
	equal(t, "GetUserPartiQL(alice)", partiql, perr, native)
	sameCapacity(t, "GetUser(alice)", err, nativeRCU, meter.Take())
	_, err = s.GetUserPartiQL(ctx, "00000000-0000-4000-8000-000000000000")
	fails(t, "GetUserPartiQL(unknown)", err, ErrNotFound)
	meter.Take()

	ids, err := s.ListOfUsersGroup(ctx, alice)
	nativeRCU = meter.Take()
	pids, perr := s.ListOfUsersGroupPartiQL(ctx, alice)
	equal(t, "ListOfUsersGroupPartiQL(alice)", pids, perr, ids)
	sameCapacity(t, "ListOfUsersGroup(alice)", err, nativeRCU, meter.Take())

	erin := User{UserId: "11111111-1111-4111-8111-111111111111", UserName: "Erin Kato", EMailAddress: "erin@example.com"}
	_, err = s.CreateUser(ctx, erin)
	nativeWCU := meter.Take()
	twin := User{UserId: "22222222-2222-4222-8222-222222222222", UserName: "Erin Kato", EMailAddress: "erin@example.com"}
	_, perr = s.CreateUserPartiQL(ctx, twin)
	if perr != nil {
		t.Fatal(perr)
	}
	sameCapacity(t, "CreateUser", err, nativeWCU, meter.Take())
	stored, err := s.GetUser(ctx, twin.UserId)
	stored.UserId = erin.UserId
	equal(t, "the user CreateUserPartiQL stored", stored, err, erin)
	_, err = s.CreateUserPartiQL(ctx, User{UserId: alice, UserName: "Alice again"})
	fails(t, "CreateUserPartiQL(alice's ID)", err, ErrExists)
	got, err := s.GetUser(ctx, alice)
	equal(t, "alice after a refused PartiQL create", got.UserName, err, "Alice Sato")
}
