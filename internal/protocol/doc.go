// Package protocol holds the wire shapes of DynamoDB's JSON 1.0 protocol:
// one struct per operation input and output, field names exactly as on the
// wire, and Decode, which turns a request body into one of them.
//
// Optional members are pointers (or nil slices) so that "absent" and "zero"
// stay apart: DynamoDB answers "Member must not be null" for one and a
// length or range violation for the other.
package protocol
