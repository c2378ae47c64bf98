package main

import (
	"testing"
)

// alicesNotifications are the sample's four, the oldest one read.
var alicesNotifications = []Notification{
	{ID: "id17", NotificationType: "COMMUNITY_JOIN", Message: "bobm joined SF Gophers", Target: "COMMUNITY#sf-gophers", Read: true, Seen: true, CreatedAt: at(38)},
	{ID: "id18", NotificationType: "COMMUNITY_JOIN", Message: "carol joined SF Gophers", Target: "COMMUNITY#sf-gophers", CreatedAt: at(39)},
	{ID: "id19", NotificationType: "CHAT_REQUEST", Message: "carol asked to join Core contributors", Target: "GROUPCHAT#core", CreatedAt: at(40)},
	{ID: "id20", NotificationType: "MESSAGE", Message: "bobm: See you there", Target: "GROUPCHAT#general", CreatedAt: at(41)},
}

// TestGetNotifications: the read notification is the oldest, yet comes
// after every unread one.
func TestGetNotifications(t *testing.T) {
	e := newEnv(t)
	got, err := e.s.GetNotifications(e.ctx, "alice")
	e.calls(t, query(NotificationsTable, "", byPartition))
	n := alicesNotifications
	same(t, got, err, []Notification{n[1], n[2], n[3], n[0]})
}

func TestGetUnreadNotifications(t *testing.T) {
	e := newEnv(t)
	got, err := e.s.GetUnreadNotifications(e.ctx, "alice")
	e.calls(t, query(NotificationsTable, "", byPrefix))
	n := alicesNotifications
	same(t, got, err, []Notification{n[3], n[2], n[1]})
}

// TestMarkNotificationRead moves the newest notification behind the
// unread ones; marking it again is refused rather than duplicated.
func TestMarkNotificationRead(t *testing.T) {
	e := newEnv(t)
	n := alicesNotifications
	read, err := e.s.MarkNotificationRead(e.ctx, "alice", n[3])
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.s.MarkNotificationRead(e.ctx, "alice", n[3])
	refused(t, err)
	got, err := e.s.GetNotifications(e.ctx, "alice")
	same(t, got, err, []Notification{n[1], n[2], n[0], read})
	if !read.Read || !read.Seen || read.ID != "id20" {
		t.Fatalf("marked read: %+v", read)
	}
}
