package progress

import (
	"fmt"
	"time"

	"github.com/schollz/progressbar/v3"
)

const (
	msgCounted  = "%s: %d items"
	msgOfTotal  = "%s: %d of %d items (%d%%)"
	msgFigures  = "%s, %s, %.0f items/s, %s elapsed"
	msgTimeLeft = ", about %s left"
	msgBarBytes = "%s %s"
	barItems    = "items"
)

// line is the plain line: items (of the total), bytes, rate, elapsed
// and, with a total, the time left at the rate so far.
func (m *Meter) line(now time.Time) string {
	elapsed := now.Sub(m.start)
	rate := float64(m.items) / elapsed.Seconds()
	head := fmt.Sprintf(msgCounted, m.o.Label, m.items)
	if m.total > 0 {
		head = fmt.Sprintf(msgOfTotal, m.o.Label, m.items, m.total, 100*min(m.items, m.total)/m.total)
	}
	s := fmt.Sprintf(msgFigures, head, Bytes(m.bytes), rate, elapsed.Round(time.Second))
	if m.total > 0 && rate > 0 {
		left := time.Duration(float64(max(m.total-m.items, 0)) / rate * float64(time.Second))
		s += fmt.Sprintf(msgTimeLeft, left.Round(time.Second))
	}
	return s
}

// draw moves the bar on at most every barRedraw, by the meter's clock:
// drawing for every item would cost more than the items.
func (m *Meter) draw(items int64, now time.Time) {
	if m.bar == nil {
		m.bar = m.newBar()
	}
	m.undrawn += items
	if now.Sub(m.last) < barRedraw {
		return
	}
	m.last = now
	m.bar.Describe(fmt.Sprintf(msgBarBytes, m.o.Label, Bytes(m.bytes)))
	m.bar.Add64(m.undrawn)
	m.undrawn = 0
}

// newBar counts items against the total (a spinner when it is unknown),
// with the rate, the time elapsed and the time left; Done clears it. It
// draws whenever told: draw throttles it.
func (m *Meter) newBar() *progressbar.ProgressBar {
	total := m.total
	if total <= 0 {
		total = -1
	}
	return progressbar.NewOptions64(total, progressbar.OptionSetWriter(m.w),
		progressbar.OptionSetDescription(m.o.Label), progressbar.OptionShowCount(),
		progressbar.OptionShowIts(), progressbar.OptionSetItsString(barItems),
		progressbar.OptionSetElapsedTime(true), progressbar.OptionSetPredictTime(true),
		progressbar.OptionClearOnFinish())
}

// Bytes is n in B, KiB, MiB or GiB, one decimal above bytes.
func Bytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	f, i := float64(n)/unit, 0
	for ; f >= unit && i < 2; i++ {
		f /= unit
	}
	return fmt.Sprintf("%.1f %ciB", f, "KMG"[i])
}
