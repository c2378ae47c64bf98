// Package conformance holds sortkey's behaviour suite as transcripts: what a
// client sends to the DynamoDB API and what it gets back, one file per
// subject under testdata/<feature>/, run by one small runner
// (transcript_test.go) on github.com/cockroachdb/datadriven.
//
// A transcript is data, not Go, so that the claim "DynamoDB-compatible" can
// be checked where it matters: `go test ./conformance -endpoint URL` replays
// every portable transcript against another endpoint, DynamoDB itself
// included, and prints which files agree. Its expectations are written from
// DynamoDB's documentation and the facts file; `-rewrite` regenerates them
// from sortkey, for review, never from another implementation.
//
// The format (docs/CONTRIBUTING.md):
//
//	server sortkey-only
//	----
//
//	call CreateTable
//	{"TableName": "t", ...}
//	----
//	{ ...the response, keys sorted, times, ids and accounts redacted... }
//
//	call GetItem
//	{"TableName": "nope", "Key": {...}}
//	----
//	error 400 com.amazonaws.dynamodb.v20120810#ResourceNotFoundException
//	Requested resource not found
//
// Beside the transcripts are the end-to-end tests that need Go:
// concurrency and races, random schedules, SDK paginators, restarts of a
// data directory, files written to or read from the S3 folders, faults,
// the clock, metrics and design files. They start their servers through
// sortkeytest, as the runner does, or through harness_test.go.
//
// The package has no code of its own: only this comment and the tests.
package conformance
