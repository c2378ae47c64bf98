// Package metrics is sortkey's Prometheus metrics and the live numbers of
// the web console: requests by operation and error code, latency,
// consumed capacity by table and index, item counts and sizes, Pebble's
// own statistics, and the Go runtime and process.
//
// Why it looks the way it does:
//
//   - It uses the official Prometheus client library, with a registry of
//     its own per DB rather than the global one, so that a process may
//     open many DBs (tests do) and each serves only its own numbers.
//   - It learns of calls through the server's two hooks: a Watcher, told
//     of every answered call (operation, error code, duration), and a
//     CallObserver, shown the engine's output with its consumed capacity
//     broken down by index (the server asks the engine for it on the
//     client's behalf, once for every observer). The console's own calls
//     are seen by neither, so the numbers are the application's.
//   - Counters are resolved once per operation, error code and table (a
//     copy-on-write map read with one atomic load), never by a label
//     lookup per request: a call costs a few counter increments and one
//     short lock for the live window.
//   - Item counts and sizes and Pebble's statistics are read when
//     Prometheus scrapes, from counters the engine keeps anyway, so they
//     cost nothing between scrapes.
//   - The console's live numbers (requests and errors per second, latency
//     percentiles, capacity per second) come from a ring of per-second
//     buckets (Window) that the same hooks feed; the console is handed a
//     getter of its snapshot (Live), never the engine.
package metrics
