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
	return write(in.TableName, in.Item, "item", &in.WriteOptions)
}

// DeleteItem checks a DeleteItem request, in PutItem's order.
func DeleteItem(in *protocol.DeleteItemInput) error {
	return write(in.TableName, in.Key, "key", &in.WriteOptions)
}

func write(table *string, it protocol.Item, member string, o *protocol.WriteOptions) error {
	var v violations
	v.tableRef(table)
	v.present(it == nil, member)
	v.enum(o.ReturnValues, "returnValues", returnValueSet)
	v.enum(o.ReturnConsumedCapacity, "returnConsumedCapacity", consumedCapacitySet)
	v.enum(o.ReturnItemCollectionMetrics, "returnItemCollectionMetrics", collectionMetricSet)
	v.enum(o.ReturnValuesOnConditionCheckFailure, "returnValuesOnConditionCheckFailure", onConditionFailSet)
	if err := v.err(); err != nil {
		return err
	}
	if err := conditionsNotYet(o); err != nil {
		return err
	}
	if o.ReturnValues != nil && *o.ReturnValues != "NONE" && *o.ReturnValues != "ALL_OLD" {
		return apierr.Validationf("ReturnValues can only be ALL_OLD or NONE")
	}
	return values(it)
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
	if in.ProjectionExpression != nil || in.ExpressionAttributeNames != nil {
		return notYet("ProjectionExpression")
	}
	return values(in.Key)
}

// conditionsNotYet refuses the condition parameters, which arrive with the
// expression language (issue 3), rather than ignoring them: a silently
// skipped condition would be a wrong answer.
func conditionsNotYet(o *protocol.WriteOptions) error {
	if o.ConditionExpression != nil || o.ExpressionAttributeNames != nil || o.ExpressionAttributeValues != nil {
		return notYet("ConditionExpression")
	}
	if o.Expected != nil || o.ConditionalOperator != nil {
		return notYet("Expected")
	}
	return nil
}

func notYet(param string) error {
	return apierr.Validationf("sortkey does not support %s yet; see docs/COMPATIBILITY.md", param)
}

// tableRef checks the table name (or ARN) of a data-plane request.
func (v *violations) tableRef(name *string) { tableNameModel(v, name, "tableName") }

// values validates and normalizes every attribute value of an item or key.
func values(it attr.Item) error {
	if err := attr.ValidateItem(it); err != nil {
		return apierr.Validationf("%s", err.Error())
	}
	return nil
}
