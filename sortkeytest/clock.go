package sortkeytest

import (
	"time"

	"github.com/sortkeydb/sortkey"
)

// Advance moves the server's virtual clock (sortkey.Options.Clock) forward
// by d and returns the new time. When it returns, the items whose Time to
// Live has passed are deleted (their stream records, as the TTL service's,
// written) and stream records older than 24 hours trimmed. The test fails
// if the server has no virtual clock or d is negative.
func (s *Server) Advance(d time.Duration) time.Time {
	s.tb.Helper()
	now, err := s.virtual().Advance(d)
	if err != nil {
		s.tb.Fatalf("sortkeytest: Advance: %v", err)
	}
	return now
}

// SetTime moves the server's virtual clock to t, as Advance does; t
// before the clock's time fails the test, since time never goes back.
func (s *Server) SetTime(t time.Time) time.Time {
	s.tb.Helper()
	now, err := s.virtual().Set(t)
	if err != nil {
		s.tb.Fatalf("sortkeytest: SetTime: %v", err)
	}
	return now
}

// Now is the server's time: its virtual clock's, or the real time.
func (s *Server) Now() time.Time {
	if c := s.DB.Clock(); c != nil {
		return c.Now()
	}
	return time.Now()
}

const msgNoClock = "sortkeytest: the server has no virtual clock; open it with sortkey.Options{Clock: sortkey.NewVirtualClock(start)}"

func (s *Server) virtual() *sortkey.VirtualClock {
	s.tb.Helper()
	c := s.DB.Clock()
	if c == nil {
		s.tb.Fatal(msgNoClock)
	}
	return c
}
