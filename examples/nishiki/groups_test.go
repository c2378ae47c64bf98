package main

import (
	"testing"
)

// TestGetGroup: the group item with its Users set, which Dave's join by
// invitation added to.
func TestGetGroup(t *testing.T) {
	f := newFixture(t)
	g, err := f.s.GetGroup(ctx, family)
	equal(t, "GetGroup(family)", g, err, Group{GroupId: family, GroupName: "Sato family", Users: []string{alice, bob, dave}})
	f.calls(t, getItem())
	_, err = f.s.GetGroup(ctx, fridge)
	fails(t, "GetGroup(a container's ID)", err, ErrNotFound)
}

// TestGetGroupByContainerId is GetGroup on ContainerId: the link item
// Container#{ContainerId} found by its ContainerId in the KEYS_ONLY index.
func TestGetGroupByContainerId(t *testing.T) {
	f := newFixture(t)
	for container, group := range map[string]string{fridge: family, pantry: family, shelf: share} {
		id, err := f.s.GetGroupByContainerId(ctx, container)
		equal(t, "GetGroupByContainerId("+sampleNames[container]+")", id, err, group)
		f.calls(t, indexQuery(IndexGroupAndContainer, "ContainerId"))
	}
	_, err := f.s.GetGroupByContainerId(ctx, family)
	fails(t, "GetGroupByContainerId(a group's ID)", err, ErrNotFound)
}

// TestListOfContainers: the family's three containers in ContainerId
// order (Pantry, created last, first), and no other item of its partition.
func TestListOfContainers(t *testing.T) {
	f := newFixture(t)
	ids, err := f.s.ListOfContainers(ctx, family)
	equal(t, "ListOfContainers(family)", ids, err, []string{pantry, freezer, fridge})
	f.calls(t, prefixQuery())
	ids, err = f.s.ListOfContainers(ctx, share)
	equal(t, "ListOfContainers(share)", ids, err, []string{shelf})
}

func TestListOfUsersInGroup(t *testing.T) {
	f := newFixture(t)
	ids, err := f.s.ListOfUsersInGroup(ctx, family)
	equal(t, "ListOfUsersInGroup(family)", ids, err, []string{alice, bob, dave})
	f.calls(t, indexQuery(IndexUserAndGroup, "GroupId"))
	ids, err = f.s.ListOfUsersInGroup(ctx, share)
	equal(t, "ListOfUsersInGroup(share)", ids, err, []string{alice, carol})
}

// TestMembershipWrites: joining and leaving change the membership item,
// both indexes' views and the group's Users together, or not at all.
func TestMembershipWrites(t *testing.T) {
	f := newFixture(t)
	if err := f.s.AddUserToGroup(ctx, share, bob); err != nil {
		t.Fatal(err)
	}
	f.calls(t, transact())
	members(t, f, share, alice, bob, carol)
	fails(t, "AddUserToGroup twice", f.s.AddUserToGroup(ctx, share, bob), ErrAlreadyMember)
	fails(t, "AddUserToGroup(unknown user)", f.s.AddUserToGroup(ctx, share, "00000000-0000-4000-8000-000000000000"), ErrNotFound)
	fails(t, "AddUserToGroup(unknown group)", f.s.AddUserToGroup(ctx, "00000000-0000-4000-8000-000000000000", carol), ErrNotFound)
	ids, err := f.s.ListOfUsersGroup(ctx, carol)
	equal(t, "carol's groups after joining no group", ids, err, []string{share})
	if err := f.s.RemoveUserFromGroup(ctx, share, alice); err != nil {
		t.Fatal(err)
	}
	members(t, f, share, bob, carol)
	ids, err = f.s.ListOfUsersGroup(ctx, alice)
	equal(t, "alice's groups after leaving", ids, err, []string{family})
	fails(t, "RemoveUserFromGroup twice", f.s.RemoveUserFromGroup(ctx, share, alice), ErrNotFound)
}

// members checks a group's members as both the index and the group's
// Users set list them.
func members(t *testing.T, f *fixture, groupID string, want ...string) {
	t.Helper()
	ids, err := f.s.ListOfUsersInGroup(ctx, groupID)
	equal(t, "ListOfUsersInGroup", ids, err, want)
	g, err := f.s.GetGroup(ctx, groupID)
	equal(t, "GetGroup Users", g.Users, err, want)
}

func TestCreateGroup(t *testing.T) {
	f := newFixture(t)
	g, err := f.s.CreateGroup(ctx, Group{GroupName: "Dave's flat"}, dave)
	if err != nil {
		t.Fatal(err)
	}
	f.calls(t, transact())
	members(t, f, g.GroupId, dave)
	ids, err := f.s.ListOfUsersGroup(ctx, dave)
	if err != nil || len(ids) != 2 {
		t.Fatalf("dave's groups %v (%v), want the family and his flat", ids, err)
	}
	_, err = f.s.CreateGroup(ctx, Group{GroupId: family, GroupName: "Sato family again"}, carol)
	fails(t, "CreateGroup(the family's ID)", err, ErrExists)
	_, err = f.s.CreateGroup(ctx, Group{GroupName: "Nobody's"}, "00000000-0000-4000-8000-000000000000")
	fails(t, "CreateGroup(unknown creator)", err, ErrNotFound)
}
