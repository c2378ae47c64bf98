// Package memlimit keeps the Go heap of a process that holds its data in
// the heap close to what is live, without making small heaps collect more
// often.
//
// `sortkey serve --in-memory` keeps Pebble's files in Go byte slices, so
// the Go heap is the data. With the runtime's default pacing (GOGC=100)
// the heap grows to twice what is live before a collection, and the
// process holds that much: 1,000,000 items of 200 bytes kept ~560 MB
// resident. Lowering GOGC fixes that for big stores but costs small ones,
// whose heap goal then shrinks toward the runtime's minimum: GOGC=25 made
// a PutItem into a small table 21% and an UpdateItem 33% more expensive
// (docs/BENCHMARKS.md). Follow instead sets a soft memory limit a headroom
// above the live heap, never below a floor, and turns GOGC off so that the
// limit alone paces collection: a large heap collects before it doubles,
// and a small one, which the default pacing collects every few MB
// allocated, not until it reaches the floor (a PutItem into a small table
// then costs ~15% less server CPU).
//
// It changes process-wide settings, so only the sortkey command calls it;
// an embedder's process is left as its owner configured it.
package memlimit
