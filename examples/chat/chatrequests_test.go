package main

import (
	"testing"
)

// The sample's four chat requests.
var (
	bobToCore      = ChatRequest{ID: "id09", UserID: "bob", Username: "bobm", ChatID: "core", CreatedAt: at(33), Status: StatusAccepted}
	daveToCore     = ChatRequest{ID: "id11", UserID: "dave", Username: "dkim", ChatID: "core", CreatedAt: at(34), Status: StatusDeclined}
	carolToCore    = ChatRequest{ID: "id13", UserID: "carol", Username: "carol", ChatID: "core", CreatedAt: at(35), Status: StatusPending, PendingID: "id14"}
	carolToWeekend = ChatRequest{ID: "id15", UserID: "carol", Username: "carol", ChatID: "weekend", CreatedAt: at(36), Status: StatusPending, PendingID: "id16"}
)

const pendingByPartition = "PK = :pk"

func TestGetUserChatRequests(t *testing.T) {
	e := newEnv(t)
	got, err := e.s.GetUserChatRequests(e.ctx, "carol")
	e.calls(t, query(ChatRequestsTable, "", byPrefix))
	same(t, got, err, []ChatRequest{carolToWeekend, carolToCore})
}

// TestGetGroupChatChatRequests: every status, newest first; the settled
// ones no longer have a PendingId.
func TestGetGroupChatChatRequests(t *testing.T) {
	e := newEnv(t)
	got, err := e.s.GetGroupChatChatRequests(e.ctx, "core")
	e.calls(t, query(ChatRequestsTable, "", byPrefix))
	same(t, got, err, []ChatRequest{carolToCore, daveToCore, bobToCore})
}

func TestGetUserPendingChatRequests(t *testing.T) {
	e := newEnv(t)
	got, err := e.s.GetUserPendingChatRequests(e.ctx, "carol")
	e.calls(t, query(ChatRequestsTable, PendingChatRequestsIndex, pendingByPartition))
	same(t, got, err, []ChatRequest{carolToCore, carolToWeekend})

	got, err = e.s.GetUserPendingChatRequests(e.ctx, "bob")
	same(t, got, err, []ChatRequest{})
}

// TestGetGroupChatPendingChatRequests: of core's three requests, only
// carol's is still pending, so only it is in the sparse index.
func TestGetGroupChatPendingChatRequests(t *testing.T) {
	e := newEnv(t)
	got, err := e.s.GetGroupChatPendingChatRequests(e.ctx, "core")
	e.calls(t, query(ChatRequestsTable, PendingChatRequestsIndex, pendingByPartition))
	same(t, got, err, []ChatRequest{carolToCore})
}

// TestAcceptChatRequest: both copies of the request leave the pending
// index, carol becomes core's third member, and accepting again is refused.
func TestAcceptChatRequest(t *testing.T) {
	e := newEnv(t)
	accepted, err := e.s.AcceptChatRequest(e.ctx, carolToCore)
	want := carolToCore
	want.Status, want.PendingID = StatusAccepted, ""
	same(t, accepted, err, want)

	pending, err := e.s.GetGroupChatPendingChatRequests(e.ctx, "core")
	same(t, pending, err, []ChatRequest{})
	pending, err = e.s.GetUserPendingChatRequests(e.ctx, "carol")
	same(t, pending, err, []ChatRequest{carolToWeekend})
	mine, err := e.s.GetUserChatRequests(e.ctx, "carol")
	same(t, mine, err, []ChatRequest{carolToWeekend, want})
	members, err := e.s.GetGroupChatMembers(e.ctx, "core")
	same(t, members, err, []Member{{"alice", "alice", at(19)}, {"bob", "bobm", at(37)}, {"carol", "carol", at(42)}})
	chat, err := e.s.GetGroupChat(e.ctx, "core")
	if err != nil || chat.NumMembers != 3 {
		t.Fatalf("core after accepting carol: %+v, %v", chat, err)
	}
	_, err = e.s.AcceptChatRequest(e.ctx, carolToCore)
	refused(t, err)
}

// TestAcceptChatRequestIntoAFullChat: core holds three; once carol is in,
// dave's new request cannot be accepted, and stays pending.
func TestAcceptChatRequestIntoAFullChat(t *testing.T) {
	e := newEnv(t)
	if _, err := e.s.AcceptChatRequest(e.ctx, carolToCore); err != nil {
		t.Fatal(err)
	}
	dave, _ := e.s.GetUser(e.ctx, "dave")
	again, err := e.s.RequestToJoinGroupChat(e.ctx, dave, "core")
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.s.AcceptChatRequest(e.ctx, again)
	refused(t, err)
	pending, err := e.s.GetGroupChatPendingChatRequests(e.ctx, "core")
	same(t, pending, err, []ChatRequest{again})
}

func TestDeclineChatRequest(t *testing.T) {
	e := newEnv(t)
	declined, err := e.s.DeclineChatRequest(e.ctx, carolToWeekend)
	want := carolToWeekend
	want.Status, want.PendingID = StatusDeclined, ""
	same(t, declined, err, want)
	pending, err := e.s.GetGroupChatPendingChatRequests(e.ctx, "weekend")
	same(t, pending, err, []ChatRequest{})
	members, err := e.s.GetGroupChatMembers(e.ctx, "weekend")
	if err != nil || len(members) != 1 {
		t.Fatalf("weekend after declining carol: %+v, %v", members, err)
	}
}

// TestRequestToJoinGroupChatIsRefusedToMembersAndForMissingChats.
func TestRequestToJoinGroupChatIsRefusedToMembersAndForMissingChats(t *testing.T) {
	e := newEnv(t)
	bob, _ := e.s.GetUser(e.ctx, "bob")
	_, err := e.s.RequestToJoinGroupChat(e.ctx, bob, "core")
	refused(t, err)
	_, err = e.s.RequestToJoinGroupChat(e.ctx, bob, "nowhere")
	refused(t, err)
	mine, err := e.s.GetUserChatRequests(e.ctx, "bob")
	same(t, mine, err, []ChatRequest{bobToCore})
}
