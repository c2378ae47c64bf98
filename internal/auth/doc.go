// Package auth is sortkey's access control: it authenticates each request
// by its SigV4 signature, as one of the principals of an auth file, and
// authorises it by that principal's IAM identity policies and the
// resource-based policies of the tables it touches, with DynamoDB's
// fine-grained condition keys.
//
// It sits beside the engine, not in it: the server asks an Authorizer to
// Authenticate a request once its protocol checks pass, and to Authorize
// it once its body is decoded, before the engine reads or writes
// anything; a denied request changes nothing and consumes no capacity.
// What a request asks to do in IAM terms comes from package access, how
// a signature is checked from package sigv4, and how a policy document
// decides from package iampolicy. Access control is off unless an auth
// file is given; then an unsigned request, or one from a key the file
// does not name, is refused as DynamoDB refuses it.
//
// The auth file (see docs/ACCESS-CONTROL.md) is re-read by Reload; a file
// that does not parse, or whose policies do not, is refused whole and
// the one in force stays.
package auth
