// Package clustertest runs several `sortkey serve` processes ("nodes") on
// one PostgreSQL schema and checks, from the outside, what their clients
// see: that the history of reads and writes through any node is
// linearizable (porcupine), and that conditional increments on a few hot
// keys are neither lost nor doubled, while nodes are killed with SIGKILL
// and restarted.
//
// The tests need real processes, not sortkeytest's in-process server: a
// node's crash must lose its memory (item locks, catalog cache, leadership)
// as a crash in production would, and only a process killed mid-request
// shows the outcomes a client cannot know. The harness (harness.go) builds
// the binary once per test process, gives each cluster a schema of its own
// in the database that SORTKEY_TEST_STORE names, starts, kills and restarts
// nodes on fixed ports, hands out one AWS SDK client per node with retries
// off (so that the test sees every failure), and drops the schema at the
// end. It classifies each failure by what it says about the write: a
// definite answer (the condition was false, a conflict), an unknown
// outcome (the node may have committed before it died), or a request that
// never left the client.
//
// Without SORTKEY_TEST_STORE the tests that start nodes skip: they run in
// .ci/run's pass on PostgreSQL. The checker's own test (TestModel) runs
// everywhere.
package clustertest
