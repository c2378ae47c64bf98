package memlimit

import (
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// Floor is the lowest limit Follow sets. Below it the heap is not
// collected at all: a small store's live heap is a few MB, and pacing by
// GOGC would collect every few MB allocated, a cost of every request.
const Floor = 64 << 20

// interval is how often the limit follows the live heap; a store grows by
// a few MB a second at most, well within the headroom.
const interval = 250 * time.Millisecond

const liveMetric = "/gc/heap/live:bytes"

// Follow keeps the soft memory limit at the live heap plus headroom
// percent (at least Floor) until stop is called, which restores the limit
// there was. The limit alone then paces collection: GOGC is off unless
// the GOGC variable sets it, since a heap goal of twice the live heap
// would only collect small heaps more often than the limit does and large
// ones less often than the headroom asks. It does nothing when headroom
// is not positive or GOMEMLIMIT is set: the operator's own limit wins.
func Follow(headroom int) (stop func()) {
	if headroom <= 0 || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	before := debug.SetMemoryLimit(-1)
	restoreGC := pacedByLimit()
	sample := []metrics.Sample{{Name: liveMetric}}
	set := func() {
		metrics.Read(sample)
		debug.SetMemoryLimit(Limit(sample[0].Value.Uint64(), headroom))
	}
	set()
	done, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				set()
			}
		}
	}()
	return func() {
		close(done)
		<-exited // no update after the restore
		debug.SetMemoryLimit(before)
		restoreGC()
	}
}

// pacedByLimit turns GOGC off, unless the operator set it, and returns
// what restores it.
func pacedByLimit() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	percent := debug.SetGCPercent(-1)
	return func() { debug.SetGCPercent(percent) }
}

// Limit is the soft limit for a live heap of live bytes.
func Limit(live uint64, headroom int) int64 {
	l := float64(live) * (1 + float64(headroom)/100)
	if l > math.MaxInt64/2 {
		return math.MaxInt64
	}
	return max(Floor, int64(l))
}
