package progress

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// DefaultEvery is how often a plain line is written: often enough that a
// log shows a long run is alive, rare enough not to flood it.
const DefaultEvery = 5 * time.Second

// barRedraw bounds how often the bar is redrawn: faster than the eye
// needs only costs the copy time.
const barRedraw = 100 * time.Millisecond

// Options say how a Meter shows itself.
type Options struct {
	Label    string           // first on each line: the command, e.g. "import"
	Terminal bool             // draw a bar in place rather than plain lines
	Quiet    bool             // show nothing
	Every    time.Duration    // between plain lines; default DefaultEvery
	Now      func() time.Time // the clock; default time.Now
}

// Meter counts items and bytes and shows them as Options say.
type Meter struct {
	mu    sync.Mutex
	w     io.Writer
	o     Options
	bar   *progressbar.ProgressBar // made at the first Add, once the total is known
	start time.Time
	last  time.Time // of the last line or redraw
	total int64     // 0: unknown
	items int64
	bytes int64
	// undrawn are the items added since the bar was last drawn.
	undrawn int64
	// done: a report arriving after Done (bench's preload reports from a
	// ticker of its own) shows nothing.
	done bool
}

// New is a Meter writing to w, started now.
func New(w io.Writer, o Options) *Meter {
	if o.Every <= 0 {
		o.Every = DefaultEvery
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	now := o.Now()
	return &Meter{w: w, o: o, start: now, last: now}
}

// SetTotal says how many items the run will move, when that is known.
func (m *Meter) SetTotal(items int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.total = items
	if m.bar != nil {
		m.bar.ChangeMax64(items)
	}
}

// Add counts items and bytes moved since the last call.
func (m *Meter) Add(items, bytes int64) {
	if m.o.Quiet {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.done {
		return
	}
	m.items += items
	m.bytes += bytes
	now := m.o.Now()
	if m.o.Terminal {
		m.draw(items, now)
	} else if now.Sub(m.last) >= m.o.Every {
		m.last = now
		fmt.Fprintln(m.w, m.line(now))
	}
}

// Done clears the bar, so that the command's summary starts a clean
// line; plain lines need no ending.
func (m *Meter) Done() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.done = true
	if m.bar != nil {
		m.bar.Finish()
	}
}
