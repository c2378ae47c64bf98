package protocol

import "github.com/sortkeydb/sortkey/internal/attr"

type ExecuteStatementInput struct {
	Statement                           *string      `json:"Statement,omitempty"`
	Parameters                          []attr.Value `json:"Parameters,omitempty"`
	ConsistentRead                      *bool        `json:"ConsistentRead,omitempty"`
	NextToken                           *string      `json:"NextToken,omitempty"`
	Limit                               *int64       `json:"Limit,omitempty"`
	ReturnConsumedCapacity              *string      `json:"ReturnConsumedCapacity,omitempty"`
	ReturnValuesOnConditionCheckFailure *string      `json:"ReturnValuesOnConditionCheckFailure,omitempty"`
}

type ExecuteStatementOutput struct {
	Items            []Item            `json:"Items"`
	NextToken        *string           `json:"NextToken,omitempty"`
	LastEvaluatedKey Key               `json:"LastEvaluatedKey,omitempty"`
	ConsumedCapacity *ConsumedCapacity `json:"ConsumedCapacity,omitempty"`
	// ItemsJSON, when set, holds the items already written as wire JSON
	// and separated by commas, as the engine's reads hand them over;
	// Items is then ignored.
	ItemsJSON []byte `json:"-"`
	// Count and ScannedCount are a read's counts as the GetItem, Query
	// or Scan it ran as made them, for an observer (design coverage):
	// ItemsJSON is not counted without parsing it, and the wire answer
	// has neither.
	Count, ScannedCount int64 `json:"-"`
}

// AppendJSON writes Items always: DynamoDB answers "Items": [] for a write
// and for a read that found nothing.
func (out *ExecuteStatementOutput) AppendJSON(dst []byte) ([]byte, error) {
	o := newObject(dst)
	o.name("Items")
	if out.ItemsJSON != nil {
		o.dst = append(append(append(o.dst, '['), out.ItemsJSON...), ']')
	} else {
		o.dst = appendItems(o.dst, out.Items)
	}
	o.any("NextToken", out.NextToken, out.NextToken != nil)
	o.item("LastEvaluatedKey", out.LastEvaluatedKey)
	o.any("ConsumedCapacity", out.ConsumedCapacity, out.ConsumedCapacity != nil)
	return o.done()
}

// MarshalJSON makes encoding/json write ItemsJSON too.
func (out *ExecuteStatementOutput) MarshalJSON() ([]byte, error) { return out.AppendJSON(nil) }

type BatchStatementRequest struct {
	Statement                           *string      `json:"Statement,omitempty"`
	Parameters                          []attr.Value `json:"Parameters,omitempty"`
	ConsistentRead                      *bool        `json:"ConsistentRead,omitempty"`
	ReturnValuesOnConditionCheckFailure *string      `json:"ReturnValuesOnConditionCheckFailure,omitempty"`
}

type BatchExecuteStatementInput struct {
	Statements             []BatchStatementRequest `json:"Statements,omitempty"`
	ReturnConsumedCapacity *string                 `json:"ReturnConsumedCapacity,omitempty"`
}

// BatchStatementError is one statement's failure; Code is the exception's
// name without "Exception" (ConditionalCheckFailed, DuplicateItem,
// ValidationError, ...).
type BatchStatementError struct {
	Code    string `json:"Code"`
	Message string `json:"Message"`
	Item    Item   `json:"Item,omitempty"`
}

type BatchStatementResponse struct {
	TableName *string              `json:"TableName,omitempty"`
	Item      Item                 `json:"Item,omitempty"`
	Error     *BatchStatementError `json:"Error,omitempty"`
}

type BatchExecuteStatementOutput struct {
	Responses        []BatchStatementResponse `json:"Responses"`
	ConsumedCapacity []ConsumedCapacity       `json:"ConsumedCapacity,omitempty"`
}

type ParameterizedStatement struct {
	Statement                           *string      `json:"Statement,omitempty"`
	Parameters                          []attr.Value `json:"Parameters,omitempty"`
	ReturnValuesOnConditionCheckFailure *string      `json:"ReturnValuesOnConditionCheckFailure,omitempty"`
}

type ExecuteTransactionInput struct {
	TransactStatements     []ParameterizedStatement `json:"TransactStatements,omitempty"`
	ClientRequestToken     *string                  `json:"ClientRequestToken,omitempty"`
	ReturnConsumedCapacity *string                  `json:"ReturnConsumedCapacity,omitempty"`
}

type ExecuteTransactionOutput struct {
	Responses        []ItemResponse     `json:"Responses,omitempty"`
	ConsumedCapacity []ConsumedCapacity `json:"ConsumedCapacity,omitempty"`
}
