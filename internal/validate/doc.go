// Package validate checks control-plane requests before the engine sees
// them, and answers with the ValidationException texts DynamoDB itself
// returns, so that client code matching on messages behaves the same here.
//
// Two layers, in DynamoDB's order: model constraints (null, length, pattern,
// enum, range), reported together as one "N validation errors detected"
// message, then semantic rules, reported one at a time. Checks that need the
// existing table belong to the engine, which can reuse the exported helpers.
package validate
