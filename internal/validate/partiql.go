package validate

import "github.com/sortkeydb/sortkey/internal/protocol"

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
