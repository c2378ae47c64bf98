// Package sortkeytest starts an in-memory sortkey server for a Go test, in
// one line, and gives the test an AWS SDK client for it:
//
//	srv := sortkeytest.New(t)
//	client := srv.Client() // *dynamodb.Client
//
// Each call gets a fresh, empty database, closed with the test. Client and
// AWSConfig hand requests to the server in process (the SDK still builds,
// signs and parses real HTTP messages, but no socket is used), which makes
// a request about 2.5 times cheaper; the server also listens on
// 127.0.0.1 (URL, NetworkAWSConfig) for tools and other languages.
//
// With access control on (sortkey.Options.Auth, an auth file's JSON), a
// client acts as one of the file's principals in one line:
//
//	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{Auth: authFile})
//	alice := srv.ClientAs(t, "arn:aws:iam::123456789012:user/alice")
package sortkeytest
