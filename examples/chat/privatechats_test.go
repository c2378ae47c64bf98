package main

import (
	"testing"
)

func TestGetPrivateChat(t *testing.T) {
	e := newEnv(t)
	got, err := e.s.GetPrivateChat(e.ctx, "alice-bob")
	e.calls(t, getItem(PrivateChatsTable))
	same(t, got, err, PrivateChat{ID: "alice-bob", Name: "Alice & Bob"})
}

func TestGetPrivateChatMembers(t *testing.T) {
	e := newEnv(t)
	got, err := e.s.GetPrivateChatMembers(e.ctx, "alice-bob")
	e.calls(t, query(PrivateChatsTable, "", byPrefix))
	same(t, got, err, []Member{{"alice", "alice", at(28)}, {"bob", "bobm", at(29)}})
}

// TestGetPrivateChatMessages pages back two at a time; bob has read
// alice's first message.
func TestGetPrivateChatMessages(t *testing.T) {
	e := newEnv(t)
	none := map[string][]string{}
	page, next, err := e.s.GetPrivateChatMessages(e.ctx, "alice-bob", 2, nil)
	e.calls(t, query(PrivateChatsTable, "", byPrefix))
	same(t, page, err, []Message{
		{ID: "id08", SenderID: "alice", Content: "Can you review my PR?", CreatedAt: at(32), Reactions: none},
		{ID: "id07", SenderID: "bob", Content: "Sure, what's up?", CreatedAt: at(31), Reactions: none},
	})
	page, next, err = e.s.GetPrivateChatMessages(e.ctx, "alice-bob", 2, next)
	e.calls(t, query(PrivateChatsTable, "", byPrefix))
	same(t, page, err, []Message{{ID: "id06", SenderID: "alice", Content: "Hey Bob, got a minute?", CreatedAt: at(30), Reactions: none, Read: true}})
	if next != nil {
		t.Fatalf("a cursor after the last page: %v", next)
	}
}

// TestMarkPrivateChatMessageRead: alice cannot mark her own message read;
// bob can.
func TestMarkPrivateChatMessageRead(t *testing.T) {
	e := newEnv(t)
	m := Message{ID: "id08", SenderID: "alice", Content: "Can you review my PR?", CreatedAt: at(32), Reactions: map[string][]string{}}
	_, err := e.s.MarkPrivateChatMessageRead(e.ctx, "alice-bob", m, "alice")
	refused(t, err)
	got, err := e.s.MarkPrivateChatMessageRead(e.ctx, "alice-bob", m, "bob")
	m.Read = true
	same(t, got, err, m)
}

// TestPrivateChatIsForItsTwoMembers: carol cannot post in it.
func TestPrivateChatIsForItsTwoMembers(t *testing.T) {
	e := newEnv(t)
	_, err := e.s.SendPrivateChatMessage(e.ctx, "alice-bob", "carol", "hello?")
	refused(t, err)
}
