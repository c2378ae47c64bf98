package main

import (
	"errors"
	"testing"
)

func TestGetGroupChat(t *testing.T) {
	e := newEnv(t)
	got, err := e.s.GetGroupChat(e.ctx, "core")
	e.calls(t, getItem(GroupChatsTable))
	same(t, got, err, GroupChat{ID: "core", Name: "Core contributors", Description: "Planning the meetups",
		Capacity: 3, Private: true, NumMembers: 2})
}

func TestGetGroupChatMembers(t *testing.T) {
	e := newEnv(t)
	got, err := e.s.GetGroupChatMembers(e.ctx, "general")
	e.calls(t, query(GroupChatsTable, "", byPrefix))
	same(t, got, err, []Member{{"alice", "alice", at(18)}, {"bob", "bobm", at(21)}, {"carol", "carol", at(22)}})
}

// generalMessages are the General chat's five messages, oldest first.
var generalMessages = []Message{
	{ID: "id01", SenderID: "alice", Content: "Welcome to SF Gophers!", CreatedAt: at(23),
		Reactions: map[string][]string{"🎉": {"bob", "carol"}, "👋": {"carol"}}},
	{ID: "id02", SenderID: "bob", Content: "Anyone going to GopherCon?", CreatedAt: at(24), Reactions: map[string][]string{}},
	{ID: "id03", SenderID: "carol", Content: "I am!", CreatedAt: at(25), Reactions: map[string][]string{}},
	{ID: "id04", SenderID: "alice", Content: "Meetup on Thursday at 6:30pm", CreatedAt: at(26), Reactions: map[string][]string{}, Edited: true},
	{ID: "id05", SenderID: "bob", Content: "See you there", CreatedAt: at(27), Reactions: map[string][]string{}},
}

// TestGetGroupChatMessages pages back through the chat three at a time.
func TestGetGroupChatMessages(t *testing.T) {
	e := newEnv(t)
	m := generalMessages
	page, next, err := e.s.GetGroupChatMessages(e.ctx, "general", 3, nil)
	e.calls(t, query(GroupChatsTable, "", byPrefix))
	same(t, page, err, []Message{m[4], m[3], m[2]})
	if next == nil {
		t.Fatal("no cursor after a full first page")
	}
	page, next, err = e.s.GetGroupChatMessages(e.ctx, "general", 3, next)
	e.calls(t, query(GroupChatsTable, "", byPrefix))
	same(t, page, err, []Message{m[1], m[0]})
	if next != nil {
		t.Fatalf("a cursor after the last page: %v", next)
	}
}

// TestSendGroupChatMessage: a member's message is the newest; dave, who is
// not in General, is refused.
func TestSendGroupChatMessage(t *testing.T) {
	e := newEnv(t)
	sent, err := e.s.SendGroupChatMessage(e.ctx, "general", "carol", "Bring stickers")
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.s.SendGroupChatMessage(e.ctx, "general", "dave", "hi")
	refused(t, err)
	page, _, err := e.s.GetGroupChatMessages(e.ctx, "general", 2, nil)
	same(t, page, err, []Message{{ID: "id21", SenderID: "carol", Content: "Bring stickers", CreatedAt: at(42),
		Reactions: map[string][]string{}}, generalMessages[4]})
	if sent.ID != "id21" {
		t.Fatalf("sent %+v", sent)
	}
}

func TestEditGroupChatMessageOnlyBySender(t *testing.T) {
	e := newEnv(t)
	m := generalMessages[2]
	_, err := e.s.EditGroupChatMessage(e.ctx, "general", m, "bob", "You are!")
	refused(t, err)
	edited, err := e.s.EditGroupChatMessage(e.ctx, "general", m, "carol", "I am, with two friends!")
	m.Content, m.Edited = "I am, with two friends!", true
	same(t, edited, err, m)
}

// TestReactToGroupChatMessage: a second emoji gets its own list, and the
// same reaction twice is refused.
func TestReactToGroupChatMessage(t *testing.T) {
	e := newEnv(t)
	m := generalMessages[1]
	got, err := e.s.ReactToGroupChatMessage(e.ctx, "general", m, "alice", "👍")
	m.Reactions = map[string][]string{"👍": {"alice"}}
	same(t, got, err, m)
	_, err = e.s.ReactToGroupChatMessage(e.ctx, "general", m, "alice", "👍")
	refused(t, err)
}

// TestJoinGroupChat: General is public and has room; Core contributors
// is private, so joining it takes a chat request.
func TestJoinGroupChat(t *testing.T) {
	e := newEnv(t)
	dave, _ := e.s.GetUser(e.ctx, "dave")
	if err := e.s.JoinGroupChat(e.ctx, "general", dave); err != nil {
		t.Fatal(err)
	}
	refused(t, e.s.JoinGroupChat(e.ctx, "general", dave))
	refused(t, e.s.JoinGroupChat(e.ctx, "core", dave))
	g, err := e.s.GetGroupChat(e.ctx, "general")
	if err != nil || g.NumMembers != 4 {
		t.Fatalf("general after dave joined: %+v, %v", g, err)
	}
}

// TestCreateGroupChatNeedsACommunityMember: dave is not in SF Gophers.
func TestCreateGroupChatNeedsACommunityMember(t *testing.T) {
	e := newEnv(t)
	dave, _ := e.s.GetUser(e.ctx, "dave")
	_, err := e.s.CreateGroupChat(e.ctx, communities["sf-gophers"], GroupChat{ID: "hijack", Name: "Hijack", Capacity: 5}, dave)
	refused(t, err)
	got, err := e.s.GetCommunityGroupChats(e.ctx, "sf-gophers")
	if err != nil || len(got) != 2 {
		t.Fatalf("sf-gophers' group chats: %+v, %v", got, err)
	}
	if _, err := e.s.GetGroupChat(e.ctx, "hijack"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("the refused group chat: %v", err)
	}
}
