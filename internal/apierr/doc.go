// Package apierr is the single table of errors sortkey returns to clients:
// each code with DynamoDB's wire type (namespace#Code) and HTTP status.
//
// Every error that reaches a client is an *Error built here. Anything else
// (a storage failure, a bug) is translated by Wrap into InternalServerError
// with a generic message, so internal detail never leaks.
package apierr
