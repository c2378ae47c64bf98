//go:build !race

package conformance_test

// onlineItems is the table size of the online index test: an index added
// to a 100,000-item table while writes continue. The race detector slows
// every request about tenfold, so race builds use a smaller table (see
// online_size_race_test.go); .ci/run runs the suite both ways.
// On PostgreSQL (the test switch) the race detector's size: there a
// backfill commits each entry in a round trip of its own (docs/STORES.md),
// and the full size alone would take minutes of CI's time.
var onlineItems = sizedForStore(100_000)
