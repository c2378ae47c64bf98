//go:build race

package conformance_test

// onlineItems under the race detector: large enough that writes overlap
// the backfill, small enough to finish in seconds (see online_size_test.go).
var onlineItems = sizedForStore(10_000)
