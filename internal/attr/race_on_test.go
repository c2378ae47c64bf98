//go:build race

package attr

// raceDetector: the race detector's instrumentation moves some stack
// values to the heap, so allocation counts differ under it.
const raceDetector = true
