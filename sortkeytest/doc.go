// Package sortkeytest starts an in-memory sortkey server for a Go test, in
// one line, and gives the test an AWS SDK client for it:
//
//	srv := sortkeytest.New(t)
//	client := srv.Client() // *dynamodb.Client
//
// The server listens on 127.0.0.1 on a free port and is closed with the
// test. Each call gets a fresh, empty database.
package sortkeytest
