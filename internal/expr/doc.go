// Package expr is DynamoDB's expression language: one hand-written scanner
// and recursive-descent parser for all five kinds (condition, filter,
// key-condition, update and projection expressions), the trees they parse
// to (ast.go), and their evaluation against an item.
//
// Parsing resolves #names and :values from the request and reports
// DynamoDB's exact ValidationException texts; a tree is parsed once per
// request and evaluated per item.
package expr
