// Package sortkey is a DynamoDB-compatible database that embeds in a Go
// program. Open a DB and serve its Handler to any AWS SDK or the AWS CLI:
//
//	db, err := sortkey.Open("", &sortkey.Options{InMemory: true})
//	if err != nil { ... }
//	defer db.Close()
//	http.Serve(ln, db.Handler())
//
// For tests, package sortkeytest starts one per test in a single line.
//
// The root package has no dependency on the AWS SDK: it speaks DynamoDB's
// wire protocol, and clients bring their own SDK.
package sortkey
