package main

import (
	"crypto/md5"
	"fmt"
	"testing"
	"time"
)

// familyLink is the sample's link: generated at testNow, valid a week, its
// hash the MD5 of the group ID followed by the expiry.
var familyLink = InvitationLink{GroupId: family, LinkExpiryDatetime: "2025-06-08T09:00:00Z",
	InvitationLinkHash: fmt.Sprintf("%x", md5.Sum([]byte(family+"2025-06-08T09:00:00Z")))}

func TestGetInvitationLinkByGroupId(t *testing.T) {
	f := newFixture(t)
	l, err := f.s.GetInvitationLinkByGroupId(ctx, family)
	equal(t, "GetInvitationLinkByGroupId(family)", l, err, familyLink)
	f.calls(t, getItem())
	_, err = f.s.GetInvitationLinkByGroupId(ctx, share)
	fails(t, "GetInvitationLinkByGroupId(share, which has none)", err, ErrNotFound)
}

func TestGetInvitationLink(t *testing.T) {
	f := newFixture(t)
	l, err := f.s.GetInvitationLink(ctx, familyLink.InvitationLinkHash)
	equal(t, "GetInvitationLink(family's hash)", l, err, familyLink)
	f.calls(t, indexQuery(IndexInvitationHash, "InvitationLinkHash"))
	_, err = f.s.GetInvitationLink(ctx, fmt.Sprintf("%x", md5.Sum([]byte("guess"))))
	fails(t, "GetInvitationLink(unknown hash)", err, ErrNotFound)
}

// TestNewLinkReplacesOld: a group has one link; the old hash opens nothing.
func TestNewLinkReplacesOld(t *testing.T) {
	f := newFixture(t)
	f.now = testNow.Add(24 * time.Hour)
	l, err := f.s.GenerateInvitationLink(ctx, family, time.Hour)
	want := InvitationLink{GroupId: family, LinkExpiryDatetime: "2025-06-02T10:00:00Z",
		InvitationLinkHash: fmt.Sprintf("%x", md5.Sum([]byte(family+"2025-06-02T10:00:00Z")))}
	equal(t, "new link", l, err, want)
	f.calls(t, transact())
	got, err := f.s.GetInvitationLinkByGroupId(ctx, family)
	equal(t, "the family's link", got, err, want)
	got, err = f.s.GetInvitationLink(ctx, want.InvitationLinkHash)
	equal(t, "the new hash", got, err, want)
	_, err = f.s.GetInvitationLink(ctx, familyLink.InvitationLinkHash)
	fails(t, "the old hash", err, ErrNotFound)
	_, err = f.s.JoinGroupByInvitation(ctx, familyLink.InvitationLinkHash, carol)
	fails(t, "joining by the old hash", err, ErrNotFound)
	_, err = f.s.GenerateInvitationLink(ctx, fridge, time.Hour)
	fails(t, "a link to a container's ID", err, ErrNotFound)
}

func TestJoinGroupByInvitation(t *testing.T) {
	f := newFixture(t)
	f.now = testNow.Add(6 * 24 * time.Hour)
	group, err := f.s.JoinGroupByInvitation(ctx, familyLink.InvitationLinkHash, carol)
	equal(t, "carol joins", group, err, family)
	f.calls(t, indexQuery(IndexInvitationHash, "InvitationLinkHash"), transact())
	members(t, f, family, alice, bob, carol, dave)
	_, err = f.s.JoinGroupByInvitation(ctx, familyLink.InvitationLinkHash, carol)
	fails(t, "carol joins twice", err, ErrAlreadyMember)
}

// TestExpiredLinkAdmitsNoOne: from its expiry time on, the link is still
// found but lets no one in.
func TestExpiredLinkAdmitsNoOne(t *testing.T) {
	f := newFixture(t)
	f.now = testNow.Add(7 * 24 * time.Hour)
	l, err := f.s.GetInvitationLink(ctx, familyLink.InvitationLinkHash)
	equal(t, "expired link", l, err, familyLink)
	_, err = f.s.JoinGroupByInvitation(ctx, familyLink.InvitationLinkHash, carol)
	fails(t, "joining by an expired link", err, ErrLinkExpired)
	_, err = f.s.GetUserInGroup(ctx, carol, family)
	fails(t, "carol in the family", err, ErrNotFound)
}

// TestJoinChecksTheLinkAgain: a join whose link was replaced, or expired,
// after it was read fails in its transaction and writes nothing.
func TestJoinChecksTheLinkAgain(t *testing.T) {
	f := newFixture(t)
	current, err := f.s.GenerateInvitationLink(ctx, family, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	err = f.s.join(ctx, family, carol, f.s.linkStillValid(familyLink, iso(f.now)))
	fails(t, "joining by a replaced link", err, ErrLinkExpired)
	err = f.s.join(ctx, family, carol, f.s.linkStillValid(current, current.LinkExpiryDatetime))
	fails(t, "joining at the expiry time", err, ErrLinkExpired)
	members(t, f, family, alice, bob, dave)
	if err := f.s.join(ctx, family, carol, f.s.linkStillValid(current, iso(f.now))); err != nil {
		t.Fatalf("joining by the current link: %v", err)
	}
	members(t, f, family, alice, bob, carol, dave)
}
