package main

// Progress on the long commands — import, export, dump, load, bench's
// preload and serve --seed — on stderr: a bar on a terminal, a plain line
// every few seconds otherwise, nothing with --quiet (internal/progress).

import (
	"io"
	"os"
	"time"

	"golang.org/x/term"

	"github.com/sortkeydb/sortkey/internal/progress"
)

const (
	quietUsage     = "show no progress on stderr (otherwise a bar on a terminal, or a line every 5s once a run lasts that long)"
	seedQuietUsage = "show no progress on stderr while --seed loads"
)

// progressClock is the meters' clock: tests step it to see the plain
// lines without waiting seconds for them.
var progressClock = time.Now

// newMeter is the progress display of a command, labelled with its name.
func newMeter(stderr io.Writer, label string, quiet bool) *progress.Meter {
	return progress.New(stderr, progress.Options{Label: label, Terminal: isTerminal(stderr),
		Quiet: quiet, Now: progressClock})
}

// isTerminal says whether w is a terminal, where a bar can redraw itself
// in place; a pipe or a file gets plain lines instead.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// seedMeter is serve --seed's progress display, on serve's stderr.
func (f serveFlags) seedMeter() *progress.Meter {
	out := f.stderr
	if out == nil { // serve's tests start the server without serve()
		out = io.Discard
	}
	return newMeter(out, "seed", f.quiet)
}
