// Package coverage holds a running application's requests against its
// design (internal/design): every API call the server answers is
// classified into the access pattern or write pattern it serves — same
// operation family, same table or index, same key-condition shape, key
// values the pattern's templates can produce — and counted there: calls,
// items read and written, consumed capacity, pages and latency. Requests
// that fit no pattern (Scans, unknown key prefixes, PartiQL it cannot
// place) are kept as undeclared, and patterns never called are listed, so
// that a test run can prove the design is the one the code uses.
// PartiQL statements are planned by the partiql package's own planner and
// counted as the native request each runs as (partiql.go).
//
// A Recorder is the server's Observer (internal/server); it is safe for
// concurrent use, and costs a call little: counters are atomic, latency
// goes into a fixed-size histogram, and only undeclared requests take a
// lock.
package coverage
