package main

import (
	"testing"
	"time"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// indexLag is how far PendingChatRequestsIndex lags behind ChatRequests in
// the lag tests: DynamoDB propagates to a GSI within about a second,
// usually; two is a pessimistic test.
const indexLag = 2 * time.Second

// newLaggingEnv is newEnv on a server whose global secondary indexes lag
// by indexLag, on a virtual clock moved past the sample's writes, so that
// the index starts out up to date.
func newLaggingEnv(t *testing.T) (*env, *sortkeytest.Server) {
	t.Helper()
	srv := sortkeytest.NewWithOptions(t, coverage.Options(&sortkey.Options{
		Clock: sortkey.NewVirtualClock(sampleStart), IndexLag: indexLag}))
	e := newEnvOn(t, srv)
	srv.Advance(indexLag)
	return e, srv
}

// TestPendingRequestsUnderIndexLag: the pending lists are read from a
// GSI, so under lag a new request shows up late and a settled one stays
// listed, as pending, for a while. Acting on such a stale entry is safe:
// settling is conditioned on the base item still being pending, so
// accepting a request twice is refused and the member is counted once;
// and once the lag has passed, the lists are right.
func TestPendingRequestsUnderIndexLag(t *testing.T) {
	e, srv := newLaggingEnv(t)
	bob, _ := e.s.GetUser(e.ctx, "bob")
	bobToWeekend, err := e.s.RequestToJoinGroupChat(e.ctx, bob, "weekend")
	if err != nil {
		t.Fatal(err)
	}
	pending, err := e.s.GetGroupChatPendingChatRequests(e.ctx, "weekend")
	same(t, pending, err, []ChatRequest{carolToWeekend})
	srv.Advance(indexLag)
	pending, err = e.s.GetGroupChatPendingChatRequests(e.ctx, "weekend")
	same(t, pending, err, []ChatRequest{carolToWeekend, bobToWeekend})

	if _, err := e.s.AcceptChatRequest(e.ctx, carolToWeekend); err != nil {
		t.Fatal(err)
	}
	stale, err := e.s.GetUserPendingChatRequests(e.ctx, "carol")
	same(t, stale, err, []ChatRequest{carolToCore, carolToWeekend})
	_, err = e.s.AcceptChatRequest(e.ctx, stale[1])
	refused(t, err)
	chat, err := e.s.GetGroupChat(e.ctx, "weekend")
	if err != nil || chat.NumMembers != 2 {
		t.Fatalf("weekend after accepting carol, then her stale listing: %+v, %v; want 2 members", chat, err)
	}
	srv.Advance(indexLag)
	pending, err = e.s.GetUserPendingChatRequests(e.ctx, "carol")
	same(t, pending, err, []ChatRequest{carolToCore})
}
