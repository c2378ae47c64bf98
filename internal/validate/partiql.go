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
	if n := len(in.Statements); n == 0 {
		v.msgs = append(v.msgs, fmt.Sprintf(msgViolationBare, "statements", fmt.Sprintf(cMinLength, 1)))
	} else if n > MaxBatchStatements {
		v.msgs = append(v.msgs, fmt.Sprintf(msgViolationBare, "statements", fmt.Sprintf(cMaxLength, MaxBatchStatements)))
	}
	for i, s := range in.Statements {
		member := fmt.Sprintf("statements.%d.member.statement", i+1)
		if v.present(s.Statement == nil, member) {
			v.length(*s.Statement, member, 1, MaxStatementLength)
		}
	}
	v.enum(in.ReturnConsumedCapacity, "returnConsumedCapacity", consumedCapacitySet)
	return v.err()
}

// MaxTransactStatements is how many statements one ExecuteTransaction runs.
const MaxTransactStatements = 100

// ExecuteTransaction checks ExecuteTransaction's model constraints.
func ExecuteTransaction(in *protocol.ExecuteTransactionInput) error {
	var v violations
	if n := len(in.TransactStatements); n == 0 {
		v.msgs = append(v.msgs, fmt.Sprintf(msgViolationBare, "transactStatements", fmt.Sprintf(cMinLength, 1)))
	} else if n > MaxTransactStatements {
		v.msgs = append(v.msgs, fmt.Sprintf(msgViolationBare, "transactStatements", fmt.Sprintf(cMaxLength, MaxTransactStatements)))
	}
	for i, s := range in.TransactStatements {
		member := fmt.Sprintf("transactStatements.%d.member.statement", i+1)
		if v.present(s.Statement == nil, member) {
			v.length(*s.Statement, member, 1, MaxStatementLength)
		}
	}
	v.enum(in.ReturnConsumedCapacity, "returnConsumedCapacity", consumedCapacitySet)
	return v.err()
}
