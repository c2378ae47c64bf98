// Package clock is sortkey's virtual clock: time that moves only when a
// test (or an operator, through POST /sortkey/clock) says so.
//
// Code that breaks in production often waits on time: a cart that expires
// after a day, a stream consumer that falls 24 hours behind, an idempotency
// token that lapses after ten minutes. Waiting for real time makes such
// tests slow or flaky; a virtual clock makes them instant and the same on
// every run. The engine already reads every instant through one function
// (engine.Options.Now); Virtual supplies it.
//
// Time never goes back: a negative Advance, or a Set before now, is refused
// and changes nothing, because records, iterators and TTL sweeps are
// ordered by time and would contradict themselves.
//
// What waits on time must see a jump at once, not at its next tick: OnMove
// registers a function that Advance and Set call, synchronously, after
// moving the clock. The database uses it to delete items whose Time to Live
// has passed and to trim stream records past retention, so that when
// Advance returns (or POST /sortkey/clock answers) the effects of the new
// time are already visible and a test needs no sleep.
package clock
