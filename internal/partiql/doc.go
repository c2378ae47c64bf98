// Package partiql runs DynamoDB's PartiQL dialect: ExecuteStatement's
// statement is parsed here into the expression package's trees, planned as
// DynamoDB plans it (a whole-key SELECT reads one item, a partition-key
// equality is a Query, anything else a Scan with the WHERE as filter), and
// printed back into the native request of that operation, which the
// engine runs. Running the native operation, rather than a second path
// into storage, keeps capacity, streams, TTL and index maintenance those
// of the operation DynamoDB itself would use.
//
// The files: scan.go tokenizes, parse.go and literal.go are the
// recursive-descent parser (grammar above each function), plan.go turns a
// SELECT into GetItem, Query or Scan and a write into PutItem, UpdateItem
// or DeleteItem, exec.go is ExecuteStatement, planner.go plans without
// running (the executor and design coverage both plan through it),
// errors.go holds every message text.
package partiql
