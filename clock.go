package sortkey

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/sortkeydb/sortkey/internal/clock"
	"github.com/sortkeydb/sortkey/internal/engine"
	"github.com/sortkeydb/sortkey/internal/server"
)

// VirtualClock is a clock that moves only when told: Advance(d) and
// Set(t) move it forward (never back: a move back is refused and changes
// nothing), Now reads it. It is safe for concurrent use. A database opened
// with it (Options.Clock) tells every time by it, and when it moves the
// database first deletes the items whose Time to Live has passed and trims
// stream records older than 24 hours, so that the move's effects are
// visible as soon as Advance or Set returns.
type VirtualClock = clock.Virtual

// NewVirtualClock returns a virtual clock that reads start until moved; a
// zero start means the real time now.
func NewVirtualClock(start time.Time) *VirtualClock { return clock.NewVirtual(start) }

// ClockPath is where a database with a virtual clock serves it: GET
// answers {"now": "<RFC 3339>"}; POST {"advance": "2h"} or
// {"set": "2026-01-01T00:00:00Z"} moves it and answers the same; a move
// refused is 400 {"error": "..."}. Like every admin endpoint it answers
// clients on this machine only. On the real clock it answers 404.
const ClockPath = clock.Path

// ErrClockBackwards is the error of a move of a VirtualClock that would
// turn time back; the clock stays where it was.
var ErrClockBackwards = clock.ErrBackwards

// ErrTwoClocks refuses Options that set both Now and Clock.
var ErrTwoClocks = errors.New("set Options.Now or Options.Clock, not both")

// clockFunc is the database's clock: Options.Now, the virtual clock's
// Now, or nil for the real time.
func clockFunc(opts *Options) (func() time.Time, error) {
	switch {
	case opts.Clock == nil:
		return opts.Now, nil
	case opts.Now != nil:
		return nil, ErrTwoClocks
	}
	return opts.Clock.Now, nil
}

// watchClock makes each move of c take effect at once, and serves c at
// ClockPath on h; without c, ClockPath answers 404 and why.
func (db *DB) watchClock(c *VirtualClock, h *server.Handler) {
	if c == nil {
		h.Mount(ClockPath, clock.RealHandler())
		return
	}
	db.clock = c
	db.stopClock = c.OnMove(func(time.Time) { db.timeMoved() })
	h.Mount("GET "+ClockPath, c)
	h.Mount("POST "+ClockPath, c)
}

// timeMoved saves the time a clock jumped to and then catches the engine
// up with it, unless the database is closing: Close may run beside a
// move. Saved first, so that what the move deletes is never gone while a
// restart would resume the clock before it.
func (db *DB) timeMoved() {
	db.moving.RLock()
	defer db.moving.RUnlock()
	if db.closed {
		return
	}
	if err := db.saveClock(); err != nil {
		slog.Error("saving the virtual clock's time failed; a restart resumes it at the time saved last", "err", err)
	}
	if err := db.catchUp(); err != nil {
		slog.Error("catching up with the virtual clock failed; the TTL sweeper retries at its next interval", "err", err)
	}
}

// catchUp is the engines' catch-up with a clock move: every region's,
// and with separate regions the replication that came due.
func (db *DB) catchUp() error {
	if db.regions == nil {
		return db.eng.TimeMoved()
	}
	return db.regions.TimeMoved(context.Background())
}

// saveClock saves the clock's time in the store, durably. Moves at once
// save one at a time, each the time when it holds the lock, so a later
// save is never of an earlier time.
func (db *DB) saveClock() error {
	db.saving.Lock()
	defer db.saving.Unlock()
	return db.eng.SaveClockTime(db.clock.Now())
}

// ErrClockRewind is Open's refusal of an Options.Clock started before the
// time the data's virtual clock reached, unless Options.ClockRewind.
var ErrClockRewind = clock.ErrRewind

// startClock is the engine's StartClock for opts.Clock, nil without one:
// a clock started at the real time resumes where the data's stood.
func startClock(opts *Options) engine.StartClock {
	if opts.Clock == nil {
		return nil
	}
	return func(saved time.Time, ok bool) (time.Time, error) {
		return clock.Resume(opts.Clock, saved, ok, opts.ClockRewind)
	}
}

// unwatchClock stops catching up with the clock, after any catch-up in
// progress, before Close closes the engine.
func (db *DB) unwatchClock() {
	db.moving.Lock()
	db.closed = true
	db.moving.Unlock()
	if db.stopClock != nil {
		db.stopClock()
	}
}

// Clock is the virtual clock the database was opened with
// (Options.Clock), or nil on any other clock.
func (db *DB) Clock() *VirtualClock { return db.clock }
