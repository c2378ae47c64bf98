package main

import (
	"testing"

	"github.com/sortkeydb/sortkey/examples/internal/capacity"
)

// metered is e's store on a client that reports what each request
// consumes.
func (e *env) metered() (*Store, *capacity.Meter) {
	s := *e.s
	db, meter := capacity.Metered(e.s.db)
	s.db = db
	return &s, meter
}

// TestReadsPartiQL: GetUser and GetUserChatRequests written as PartiQL
// read the same items, in the same order, at the same cost.
func TestReadsPartiQL(t *testing.T) {
	e := newEnv(t)
	s, meter := e.metered()
	for _, id := range []string{"alice", "carol"} {
		want, err := s.GetUser(e.ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		nativeRCU := meter.Take()
		got, err := s.GetUserPartiQL(e.ctx, id)
		same(t, got, err, want)
		capacity.Same(t, "GetUser "+id, nativeRCU, meter.Take())
	}
	if _, err := s.GetUserPartiQL(e.ctx, "nobody"); err != ErrNotFound {
		t.Fatalf("a missing user: %v", err)
	}
	meter.Take()
	for _, id := range []string{"carol", "bob"} {
		want, err := s.GetUserChatRequests(e.ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		nativeRCU := meter.Take()
		got, err := s.GetUserChatRequestsPartiQL(e.ctx, id)
		same(t, got, err, want)
		capacity.Same(t, "GetUserChatRequests "+id, nativeRCU, meter.Take())
	}
	got, err := s.GetUserChatRequestsPartiQL(e.ctx, "carol")
	same(t, got, err, []ChatRequest{carolToWeekend, carolToCore})
}

// TestTouchUserPartiQL touches bob on two copies of the sample, one with
// each form: the same user is stored, at the same cost, and an unknown
// user is refused rather than created.
func TestTouchUserPartiQL(t *testing.T) {
	native, partiql := newEnv(t), newEnv(t)
	ns, nmeter := native.metered()
	ps, pmeter := partiql.metered()
	if err := ns.TouchUser(native.ctx, "bob"); err != nil {
		t.Fatal(err)
	}
	if err := ps.TouchUserPartiQL(partiql.ctx, "bob"); err != nil {
		t.Fatal(err)
	}
	capacity.Same(t, "TouchUser", nmeter.Take(), pmeter.Take())
	want, err := ns.GetUser(native.ctx, "bob")
	if err != nil {
		t.Fatal(err)
	}
	got, err := ps.GetUser(partiql.ctx, "bob")
	same(t, got, err, want)
	if got.LastSeenAt != at(42) {
		t.Fatalf("bob after TouchUserPartiQL: %+v", got)
	}
	refused(t, ps.TouchUserPartiQL(partiql.ctx, "nobody"))
	if _, err := ps.GetUser(partiql.ctx, "nobody"); err != ErrNotFound {
		t.Fatalf("a refused PartiQL touch created a user: %v", err)
	}
}
