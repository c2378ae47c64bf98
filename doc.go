// Package sortkey is a DynamoDB-compatible database that embeds in a Go
// program. Open a DB and serve its Handler to any AWS SDK or the AWS CLI:
//
//	db, err := sortkey.Open("", &sortkey.Options{InMemory: true})
//	if err != nil { ... }
//	defer db.Close()
//	http.Serve(ln, db.Handler())
//
// db.HTTPServer() is an http.Server of the same Handler with the read,
// idle and header limits of `sortkey serve`, for a server that slow or
// idle clients must not hold open: srv.Serve(ln), then srv.Shutdown
// before db.Close.
//
// For tests, package sortkeytest starts one per test in a single line.
//
// The root package has no dependency on the AWS SDK: it speaks DynamoDB's
// wire protocol, and clients bring their own SDK.
package sortkey
