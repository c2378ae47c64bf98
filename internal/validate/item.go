package validate

import (
	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// The item operations' enums, sorted as the service prints them.
var (
	returnValueSet      = []string{"ALL_NEW", "ALL_OLD", "NONE", "UPDATED_NEW", "UPDATED_OLD"}
	consumedCapacitySet = []string{"INDEXES", "NONE", "TOTAL"}
	collectionMetricSet = []string{"NONE", "SIZE"}
	onConditionFailSet  = []string{"ALL_OLD", "NONE"}
)

// PutItem checks a PutItem request: model constraints, then the parameters
// sortkey does not serve yet, then ReturnValues, then every attribute value.
func PutItem(in *protocol.PutItemInput) error {
	var v violations
	v.tableRef(in.TableName)
	v.present(in.Item == nil, "item")
	v.writeOptions(in.ReturnValues, in.ReturnConsumedCapacity, in.ReturnItemCollectionMetrics, in.ReturnValuesOnConditionCheckFailure)
	if err := v.err(); err != nil {
		return err
	}
	if err := notYet(in.ConditionExpression != nil, "ConditionExpression", in.Expected != nil, "Expected",
		in.ConditionalOperator != nil, "ConditionalOperator", in.ExpressionAttributeNames != nil, "ExpressionAttributeNames",
		in.ExpressionAttributeValues != nil, "ExpressionAttributeValues"); err != nil {
		return err
	}
	if in.ReturnValues != nil && *in.ReturnValues != "NONE" && *in.ReturnValues != "ALL_OLD" {
		return apierr.Validationf("ReturnValues can only be ALL_OLD or NONE")
	}
	return values(in.Item)
}

// GetItem checks a GetItem request.
func GetItem(in *protocol.GetItemInput) error {
	var v violations
	v.tableRef(in.TableName)
	v.present(in.Key == nil, "key")
	if in.AttributesToGet != nil {
		v.count(renderStrings(in.AttributesToGet), len(in.AttributesToGet), "attributesToGet", 1, -1)
	}
	v.enum(in.ReturnConsumedCapacity, "returnConsumedCapacity", consumedCapacitySet)
	if err := v.err(); err != nil {
		return err
	}
	if err := notYet(in.ProjectionExpression != nil, "ProjectionExpression",
		in.ExpressionAttributeNames != nil, "ExpressionAttributeNames"); err != nil {
		return err
	}
	return values(in.Key)
}

// DeleteItem checks a DeleteItem request.
func DeleteItem(in *protocol.DeleteItemInput) error {
	var v violations
	v.tableRef(in.TableName)
	v.present(in.Key == nil, "key")
	v.writeOptions(in.ReturnValues, in.ReturnConsumedCapacity, in.ReturnItemCollectionMetrics, in.ReturnValuesOnConditionCheckFailure)
	if err := v.err(); err != nil {
		return err
	}
	if err := notYet(in.ConditionExpression != nil, "ConditionExpression", in.Expected != nil, "Expected",
		in.ConditionalOperator != nil, "ConditionalOperator", in.ExpressionAttributeNames != nil, "ExpressionAttributeNames",
		in.ExpressionAttributeValues != nil, "ExpressionAttributeValues"); err != nil {
		return err
	}
	if in.ReturnValues != nil && *in.ReturnValues != "NONE" && *in.ReturnValues != "ALL_OLD" {
		return apierr.Validationf("ReturnValues can only be ALL_OLD or NONE")
	}
	return values(in.Key)
}

// tableRef checks the table name (or ARN) of a data-plane request.
func (v *violations) tableRef(name *string) { tableNameModel(v, name, "tableName") }

func (v *violations) writeOptions(rv, rcc, ricm, rvccf *string) {
	v.enum(rv, "returnValues", returnValueSet)
	v.enum(rcc, "returnConsumedCapacity", consumedCapacitySet)
	v.enum(ricm, "returnItemCollectionMetrics", collectionMetricSet)
	v.enum(rvccf, "returnValuesOnConditionCheckFailure", onConditionFailSet)
}

// values validates and normalizes every attribute value of an item or key.
func values(it attr.Item) error {
	if err := attr.ValidateItem(it); err != nil {
		return apierr.Validationf("%s", err.Error())
	}
	return nil
}

// notYet refuses a parameter sortkey does not implement yet, rather than
// ignoring it: a silently skipped condition would be a wrong answer. Pairs
// are (present, parameter name).
func notYet(pairs ...any) error {
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i].(bool) {
			return apierr.Validationf("sortkey does not support %s yet; see docs/COMPATIBILITY.md", pairs[i+1].(string))
		}
	}
	return nil
}
