package engine

import (
	"fmt"
	"time"

	"github.com/sortkeydb/sortkey/internal/storage"
)

// A virtual clock's time is kept in the store (storage.ClockKey), so that
// a server restarted on the same data resumes its clock where it stood:
// started at the real time instead, it would jump ahead and point-in-time
// recovery and stream retention would delete their history at once.

// StartClock positions a virtual clock before the engine times anything.
// It is called with the time the store last saved (ok false: none) and
// returns the time the clock starts at, which Open saves, or an error
// that fails Open.
type StartClock func(saved time.Time, ok bool) (time.Time, error)

// startClock runs start, when there is one, on the store's saved time.
func (e *Engine) startClock(start StartClock) error {
	if start == nil {
		return nil
	}
	saved, ok, err := e.ClockTime()
	if err != nil {
		return err
	}
	at, err := start(saved, ok)
	if err != nil || (ok && at.Equal(saved)) {
		return err
	}
	return e.SaveClockTime(at)
}

// ClockTime is the virtual clock time the store last saved, if any.
func (e *Engine) ClockTime() (t time.Time, ok bool, err error) {
	v, ok, err := e.db.Get(storage.ClockKey())
	if err != nil || !ok {
		return time.Time{}, false, err
	}
	if err := t.UnmarshalText(v); err != nil {
		return time.Time{}, false, fmt.Errorf("engine: the stored virtual clock time %q: %w", v, err)
	}
	return t, true, nil
}

// SaveClockTime saves t as the virtual clock's time, durably: a crash
// after it returns resumes the clock at t or later.
func (e *Engine) SaveClockTime(t time.Time) error {
	v, err := t.MarshalText()
	if err != nil {
		return err
	}
	b := e.db.NewBatch()
	b.Set(storage.ClockKey(), v)
	return b.Commit()
}
