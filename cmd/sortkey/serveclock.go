package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/sortkeydb/sortkey"
)

// The values --clock takes.
const (
	clockReal    = "real"
	clockVirtual = "virtual"
)

// The refusals of bad --clock and --clock-start values.
const (
	msgClockMode  = "--clock must be %q or %q, not %q"
	msgClockStart = "--clock-start must be an RFC 3339 time such as 2026-01-01T00:00:00Z, not %q"
	msgStartReal  = "--clock-start needs --clock virtual: the real clock cannot start elsewhere"
	msgRewind     = "--clock-rewind needs --clock-start: without it the clock resumes where the data's stood"
)

// clockFlags are serve's flags of time: which clock, and where a virtual
// one starts.
type clockFlags struct {
	mode   string
	start  string
	at     time.Time // start parsed; zero for now
	rewind bool
}

func clockFlagSet(fs *flag.FlagSet, f *clockFlags) {
	fs.StringVar(&f.mode, "clock", clockReal, "real, or virtual: time moves only when POST /sortkey/clock says so (docs/TESTING-FAILURES.md)")
	fs.StringVar(&f.start, "clock-start", "", "with --clock virtual, the RFC 3339 time it starts at (default: where the data's virtual clock stood, or now)")
	fs.BoolVar(&f.rewind, "clock-rewind", false, "let --clock-start be before the time the data's virtual clock reached; without it such a start is refused, since time would run back")
}

// check refuses a clock that is neither real nor virtual, and a start
// that is not a time or goes with the real clock.
func (f *clockFlags) check(stderr io.Writer) error {
	err := f.parse()
	if err != nil {
		fmt.Fprintln(stderr, "sortkey serve:", err)
	}
	return err
}

func (f *clockFlags) parse() error {
	switch {
	case f.mode != clockReal && f.mode != clockVirtual:
		return fmt.Errorf(msgClockMode, clockReal, clockVirtual, f.mode)
	case f.rewind && f.start == "":
		return errors.New(msgRewind)
	case f.start == "":
		return nil
	case f.mode == clockReal:
		return errors.New(msgStartReal)
	}
	at, err := time.Parse(time.RFC3339, f.start)
	if err != nil {
		return fmt.Errorf(msgClockStart, f.start)
	}
	f.at = at
	return nil
}

// virtual is the virtual clock the flags ask for, or nil for the real
// one. Without --clock-start, Open moves it to where the data's clock
// stood, which is not known yet.
func (f *clockFlags) virtual(log *slog.Logger) *sortkey.VirtualClock {
	if f.mode != clockVirtual {
		return nil
	}
	c := sortkey.NewVirtualClock(f.at)
	start := f.start
	if start == "" {
		start = "where the data's virtual clock stood, else now"
	}
	log.Info("virtual clock: time moves only when told", "start", start, "endpoint", sortkey.ClockPath)
	return c
}
