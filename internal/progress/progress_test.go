package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// stepClock is a clock that moves only when the test says.
type stepClock struct{ now time.Time }

func (c *stepClock) Now() time.Time              { return c.now }
func (c *stepClock) advance(d time.Duration)     { c.now = c.now.Add(d) }
func newStepClock() *stepClock                   { return &stepClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)} }
func plain(w *bytes.Buffer, c *stepClock) *Meter { return New(w, Options{Label: "import", Now: c.Now}) }

// Off a terminal a line comes once Every has passed since the last, none
// before: a short run prints nothing. With a total it has the share done
// and the time left at the rate so far.
func TestPlainLineEveryInterval(t *testing.T) {
	var w bytes.Buffer
	c := newStepClock()
	m := plain(&w, c)
	m.SetTotal(100000)
	c.advance(4 * time.Second)
	m.Add(30000, 6<<20)
	if w.Len() != 0 {
		t.Fatalf("a line before 5s: %q", w.String())
	}
	c.advance(time.Second)
	m.Add(10000, 4<<20)
	c.advance(time.Second)
	m.Add(1, 0)
	m.Done()
	want := "import: 40000 of 100000 items (40%), 10.0 MiB, 8000 items/s, 5s elapsed, about 8s left\n"
	if w.String() != want {
		t.Fatalf("got %q, want %q", w.String(), want)
	}
}

// Without a total the line has no share and no time left.
func TestPlainLineWithoutTotal(t *testing.T) {
	var w bytes.Buffer
	c := newStepClock()
	m := New(&w, Options{Label: "export", Every: 2 * time.Second, Now: c.Now})
	c.advance(2 * time.Second)
	m.Add(500, 1500)
	want := "export: 500 items, 1.5 KiB, 250 items/s, 2s elapsed\n"
	if w.String() != want {
		t.Fatalf("got %q, want %q", w.String(), want)
	}
}

func TestQuietMeterWritesNothing(t *testing.T) {
	for _, terminal := range []bool{false, true} {
		var w bytes.Buffer
		c := newStepClock()
		m := New(&w, Options{Label: "load", Quiet: true, Terminal: terminal, Now: c.Now})
		m.SetTotal(10)
		c.advance(time.Minute)
		m.Add(5, 100)
		m.Done()
		if w.Len() != 0 {
			t.Errorf("terminal %v: %q", terminal, w.String())
		}
	}
}

// On a terminal the bar counts items against the total, and Done clears
// it so that the command's summary starts a clean line.
func TestTerminalBarIsClearedByDone(t *testing.T) {
	var w bytes.Buffer
	c := newStepClock()
	m := New(&w, Options{Label: "load", Terminal: true, Now: c.Now})
	m.SetTotal(10)
	c.advance(time.Second)
	m.Add(3, 2048)
	if drawn := w.String(); !strings.Contains(drawn, "load 2.0 KiB") || !strings.Contains(drawn, "3/10") || !strings.Contains(drawn, "items/s") {
		t.Fatalf("bar: %q", drawn)
	}
	w.Reset()
	m.Done()
	if cleared := w.String(); strings.TrimSpace(cleared) != "" || !strings.HasSuffix(cleared, "\r") {
		t.Fatalf("Done wrote %q", cleared)
	}
}

func TestBytes(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1536: "1.5 KiB", 3 << 20: "3.0 MiB", 5 << 30: "5.0 GiB", 5 << 40: "5120.0 GiB"} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
}

// A report after Done, as from a ticker that fired as the run ended,
// shows nothing: no bar drawn again under the command's summary.
func TestNothingAfterDone(t *testing.T) {
	for _, terminal := range []bool{false, true} {
		var w bytes.Buffer
		c := newStepClock()
		m := New(&w, Options{Label: "preload", Terminal: terminal, Now: c.Now})
		m.Done()
		c.advance(time.Minute)
		m.Add(5, 100)
		if w.Len() != 0 {
			t.Errorf("terminal %v: %q", terminal, w.String())
		}
	}
}
