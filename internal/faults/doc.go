// Package faults is sortkey's fault rules: errors, partial batch results,
// added latency and dropped connections that happen on demand, so that an
// application's retry, resend and conflict paths run before production
// runs them.
//
// A rule file (JSON or YAML) names what a rule matches (operation, table,
// index, partition key prefix, principal) and when it fires (a seeded
// probability, every Nth matching request, after K and at most M times, a
// time window). Each rule draws from its own PCG stream seeded from the
// file's seed and the rule's index, so the same rules and the same
// sequence of requests give the same faults on every run, and adding a
// rule does not move another's draws.
//
// The Injector is the server's one hook (internal/server.Injector): asked
// once per call after it is authorised and before the engine runs it. An
// error fault is answered instead of running the engine, so nothing is
// written. Faults are sortkey's addition, not DynamoDB's API: with no rule
// set the server answers exactly as without them.
package faults
