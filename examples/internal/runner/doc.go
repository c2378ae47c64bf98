// Package runner is what the example programs share: an embedded
// in-memory sortkey or any endpoint, an SDK client whose requests are
// recorded (so tests can check which operation, table, index and key
// condition each access pattern used), and an aligned printout of results.
package runner
