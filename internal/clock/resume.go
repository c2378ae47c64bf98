package clock

import (
	"errors"
	"fmt"
	"time"
)

// ErrRewind is Resume's refusal of a start before the saved time.
var ErrRewind = errors.New("clock: the start is before the time this data's virtual clock reached")

// msgRewind details ErrRewind: the two times and the ways out.
const msgRewind = "%w: %s is before %s; leave the start out to resume there, or let time run back (sortkey serve --clock-rewind, sortkey.Options.ClockRewind)"

// Resume positions v, before its first use, from saved, the time its
// data's clock last reached (ok false: none), and returns where v starts.
// A clock started at the real time resumes at saved; one started at a
// time asked for keeps it, unless that is before saved and rewind is
// false: time would silently run back, and Resume refuses.
func Resume(v *Virtual, saved time.Time, ok, rewind bool) (time.Time, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	switch {
	case !ok:
	case !v.given:
		v.now = saved.UTC().Round(0)
	case v.now.Before(saved) && !rewind:
		return v.now, fmt.Errorf(msgRewind, ErrRewind, v.now.Format(time.RFC3339Nano), saved.Format(time.RFC3339Nano))
	}
	return v.now, nil
}
