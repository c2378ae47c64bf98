package clock

import (
	"errors"
	"fmt"
	"sync"
	"time"
)

// ErrBackwards is the error of every move that would turn time back.
var ErrBackwards = errors.New("clock: time never goes back")

// Details of ErrBackwards, one per way to ask for it.
const (
	msgNegativeAdvance = "%w: cannot advance by a negative duration (%s)"
	msgSetBefore       = "%w: %s is before the clock's current time %s"
)

// Virtual is a clock that moves only by Advance and Set. It is safe for
// concurrent use.
type Virtual struct {
	mu       sync.Mutex
	now      time.Time
	given    bool // started at a time asked for, not at the real time
	watchers map[int]func(time.Time)
	nextID   int
}

// NewVirtual returns a clock that reads start until moved; a zero start
// means the real time now.
func NewVirtual(start time.Time) *Virtual {
	given := !start.IsZero()
	if !given {
		start = time.Now()
	}
	// Round(0) drops the monotonic reading: this clock's instants are wall
	// times only, compared and added as such.
	return &Virtual{now: start.UTC().Round(0), given: given, watchers: map[int]func(time.Time){}}
}

// Now is the clock's current time, in UTC.
func (v *Virtual) Now() time.Time {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.now
}

// Advance moves the clock forward by d and returns the new time, after
// every OnMove function has run. A negative d is refused.
func (v *Virtual) Advance(d time.Duration) (time.Time, error) {
	if d < 0 {
		return v.Now(), fmt.Errorf(msgNegativeAdvance, ErrBackwards, d)
	}
	return v.move(func(now time.Time) (time.Time, error) { return now.Add(d), nil })
}

// Set moves the clock to t and returns it, after every OnMove function
// has run. A t before the current time is refused; t equal to it is a
// move of zero.
func (v *Virtual) Set(t time.Time) (time.Time, error) {
	t = t.UTC().Round(0)
	return v.move(func(now time.Time) (time.Time, error) {
		if t.Before(now) {
			return now, fmt.Errorf(msgSetBefore, ErrBackwards, t.Format(time.RFC3339Nano), now.Format(time.RFC3339Nano))
		}
		return t, nil
	})
}

// move sets the time to next(now) under the lock, then tells the
// watchers outside it, so a watcher may read the clock.
func (v *Virtual) move(next func(time.Time) (time.Time, error)) (time.Time, error) {
	v.mu.Lock()
	t, err := next(v.now)
	if err != nil {
		v.mu.Unlock()
		return t, err
	}
	v.now = t
	fs := make([]func(time.Time), 0, len(v.watchers))
	for _, f := range v.watchers {
		fs = append(fs, f)
	}
	v.mu.Unlock()
	for _, f := range fs {
		f(t)
	}
	return t, nil
}

// OnMove makes Advance and Set call f with the new time each time they
// move the clock, before they return; stop undoes it. f runs on the
// mover's goroutine, possibly beside another move's call of f, so it must
// be safe for concurrent use.
func (v *Virtual) OnMove(f func(now time.Time)) (stop func()) {
	v.mu.Lock()
	defer v.mu.Unlock()
	id := v.nextID
	v.nextID++
	v.watchers[id] = f
	return func() {
		v.mu.Lock()
		defer v.mu.Unlock()
		delete(v.watchers, id)
	}
}
