package validate

import (
	"fmt"

	"github.com/sortkeydb/sortkey/internal/protocol"
)

// MaxStatementLength is the longest PartiQL statement the model accepts.
const MaxStatementLength = 8192

// ExecuteStatement checks ExecuteStatement's model constraints, all
// reported together as the service does, before the statement is parsed.
func ExecuteStatement(in *protocol.ExecuteStatementInput) error {
	var v violations
	if v.present(in.Statement == nil, "statement") {
		v.length(*in.Statement, "statement", 1, MaxStatementLength)
	}
	if in.Parameters != nil && len(in.Parameters) == 0 {
		v.count("'[]'", 0, "parameters", 1, -1)
	}
	v.atLeast(in.Limit, "limit", 1)
	v.enum(in.ReturnConsumedCapacity, "returnConsumedCapacity", consumedCapacitySet)
	v.enum(in.ReturnValuesOnConditionCheckFailure, "returnValuesOnConditionCheckFailure", onConditionFailSet)
	return v.err()
}

// MaxBatchStatements is how many statements one BatchExecuteStatement runs.
const MaxBatchStatements = 25

// BatchExecuteStatement checks BatchExecuteStatement's model constraints.
// The statements list is named without its value, whose rendering by the
// service is not recorded.
func BatchExecuteStatement(in *protocol.BatchExecuteStatementInput) error {
	var v violations
	statementList(&v, "statements", len(in.Statements), MaxBatchStatements, func(i int) *string { return in.Statements[i].Statement })
	v.enum(in.ReturnConsumedCapacity, "returnConsumedCapacity", consumedCapacitySet)
	return v.err()
}

// MaxTransactStatements is how many statements one ExecuteTransaction runs.
const MaxTransactStatements = 100

// ExecuteTransaction checks ExecuteTransaction's model constraints.
func ExecuteTransaction(in *protocol.ExecuteTransactionInput) error {
	var v violations
	statementList(&v, "transactStatements", len(in.TransactStatements), MaxTransactStatements,
		func(i int) *string { return in.TransactStatements[i].Statement })
	v.enum(in.ReturnConsumedCapacity, "returnConsumedCapacity", consumedCapacitySet)
	return v.err()
}

// statementList checks a list of n statements named member: its length
// bounds, then each statement's text.
func statementList(v *violations, member string, n, max int, statement func(int) *string) {
	if n == 0 {
		v.msgs = append(v.msgs, fmt.Sprintf(msgViolationBare, member, fmt.Sprintf(cMinLength, 1)))
	} else if n > max {
		v.msgs = append(v.msgs, fmt.Sprintf(msgViolationBare, member, fmt.Sprintf(cMaxLength, max)))
	}
	for i := range n {
		name := fmt.Sprintf("%s.%d.member.statement", member, i+1)
		if s := statement(i); v.present(s == nil, name) {
			v.length(*s, name, 1, MaxStatementLength)
		}
	}
}
