package console

import (
	"crypto/sha256"
	"encoding/binary"
	"net/http"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey/internal/server"
)

type named string

func (n named) ARN() string                                 { return string(n) }
func (n named) Caller(*http.Request) (server.Caller, error) { return nil, nil }

// FuzzSessionCookie: a session cookie's value comes from any browser; it
// parses to an id only when it is exactly one id's encoding, and finds a
// session only when it is that session's.
func FuzzSessionCookie(f *testing.F) {
	s := newSessions(nil, nil)
	now := time.Unix(1e9, 0)
	id := s.start(named("a"), now)
	f.Add(encodeSessionID(id))
	f.Add("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
	f.Add("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAB") // non-canonical last character
	f.Add("")
	f.Add("%zz")
	f.Fuzz(func(t *testing.T, v string) {
		got, ok := parseSessionID(v)
		if !ok {
			return
		}
		if encodeSessionID(got) != v {
			t.Fatalf("%q parsed to an id encoded as %q", v, encodeSessionID(got))
		}
		if _, found := s.find(got, now); found != (got == id) {
			t.Fatalf("%q found a session: %v", v, found)
		}
	})
}

func TestSessionsEndOnTimeAndStayBounded(t *testing.T) {
	s := newSessions(nil, nil)
	t0 := time.Unix(1e9, 0)
	first := s.start(named("first"), t0)
	for i := 1; i < maxSessions; i++ { // filled directly: start sweeps them all each time
		s.m[sha256.Sum256(binary.AppendUvarint(nil, uint64(i)))] = session{named("other"), t0.Add(sessionLife + time.Duration(i))}
	}
	if _, ok := s.find(first, t0.Add(sessionLife-time.Nanosecond)); !ok {
		t.Fatal("a session ended before its time")
	}
	last := s.start(named("last"), t0.Add(time.Hour))
	if _, ok := s.find(first, t0.Add(time.Hour)); ok || len(s.m) != maxSessions {
		t.Fatalf("full: the oldest session stayed, or %d sessions are kept (max %d)", len(s.m), maxSessions)
	}
	if got, ok := s.find(last, t0.Add(time.Hour)); !ok || got.who.ARN() != "last" {
		t.Fatal("the new session was not kept")
	}
	if _, ok := s.find(last, t0.Add(time.Hour+sessionLife)); ok {
		t.Fatal("a session outlived its life")
	}
	s.start(named("later"), t0.Add(2*sessionLife))
	if len(s.m) != 1 {
		t.Errorf("%d sessions kept after all but one expired", len(s.m))
	}
}
