//go:build !race

package sortkey_test

// onlineItems is the table size of the online index test: an index added
// to a 100,000-item table while writes continue. The race detector slows
// every request about tenfold, so race builds use a smaller table (see
// online_size_race_test.go); .ci/run runs the suite both ways.
const onlineItems = 100_000
