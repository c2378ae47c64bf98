package validate

import (
	"maps"
	"slices"
	"strings"

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
	conditionalOpSet    = []string{"AND", "OR"}
)

// PutItem checks a PutItem request: model constraints, then how expression
// and legacy parameters are mixed, then ReturnValues, then every value.
// PutItem, UpdateItem and DeleteItem prefix the messages about their
// expression attribute maps and values with "1 validation error
// detected: ", as DynamoDB does since 2026; TransactWriteItems does not.
func PutItem(in *protocol.PutItemInput) error {
	if err := write(in.TableName, in.Item, "item", &in.WriteOptions); err != nil {
		return err
	}
	if err := params(&in.WriteOptions, nil, nil, nullCondition); err != nil {
		return err
	}
	if err := oldOrNone(in.ReturnValues); err != nil {
		return err
	}
	return apierr.Prefixed(allValues(in.Item, &in.WriteOptions))
}

// DeleteItem checks a DeleteItem request, in PutItem's order.
func DeleteItem(in *protocol.DeleteItemInput) error {
	if err := write(in.TableName, in.Key, "key", &in.WriteOptions); err != nil {
		return err
	}
	if err := params(&in.WriteOptions, nil, nil, nullCondition); err != nil {
		return err
	}
	if err := oldOrNone(in.ReturnValues); err != nil {
		return err
	}
	return apierr.Prefixed(allValues(in.Key, &in.WriteOptions))
}

// UpdateItem checks an UpdateItem request, in PutItem's order.
func UpdateItem(in *protocol.UpdateItemInput) error {
	if err := write(in.TableName, in.Key, "key", &in.WriteOptions); err != nil {
		return err
	}
	if err := params(&in.WriteOptions, in.UpdateExpression, in.AttributeUpdates, nullUpdateAndCondition); err != nil {
		return err
	}
	return apierr.Prefixed(updateValues(in))
}

func updateValues(in *protocol.UpdateItemInput) error {
	if err := allValues(in.Key, &in.WriteOptions); err != nil {
		return err
	}
	for _, u := range in.AttributeUpdates {
		if err := legacyValue(u.Value); err != nil {
			return err
		}
	}
	return nil
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
	if err := projectionParams(in.ProjectionExpression, in.AttributesToGet, in.ExpressionAttributeNames); err != nil {
		return err
	}
	return values(in.Key)
}

// projectionParams refuses a ProjectionExpression mixed with the legacy
// AttributesToGet, and names given without an expression to use them.
func projectionParams(proj *string, attrs []string, names map[string]string) error {
	if proj != nil && attrs != nil {
		return mixed([]string{"AttributesToGet"}, []string{"ProjectionExpression"})
	}
	if names != nil && proj == nil {
		return apierr.Validationf("ExpressionAttributeNames can only be specified when using expressions")
	}
	if err := uniqueAttributesToGet(attrs); err != nil {
		return err
	}
	return notEmptyNames(names)
}

// uniqueAttributesToGet refuses a name listed twice in AttributesToGet,
// naming the first one repeated.
func uniqueAttributesToGet(names []string) error {
	if len(names) < 2 {
		return nil
	}
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		if seen[n] {
			return apierr.Validationf(msgDuplicateAttributesToGet, n)
		}
		seen[n] = true
	}
	return nil
}

func write(table *string, it protocol.Item, member string, o *protocol.WriteOptions) error {
	var v violations
	v.tableRef(table)
	v.present(it == nil, member)
	v.enum(o.ReturnValues, "returnValues", returnValueSet)
	v.enum(o.ReturnConsumedCapacity, "returnConsumedCapacity", consumedCapacitySet)
	v.enum(o.ReturnItemCollectionMetrics, "returnItemCollectionMetrics", collectionMetricSet)
	v.enum(o.ReturnValuesOnConditionCheckFailure, "returnValuesOnConditionCheckFailure", onConditionFailSet)
	v.enum(o.ConditionalOperator, "conditionalOperator", conditionalOpSet)
	return v.err()
}

// params refuses a request that mixes expression and legacy parameters, and
// expression attribute maps given without an expression to use them
// (null names the expressions absent, for the message).
func params(o *protocol.WriteOptions, update *string, updates map[string]protocol.AttributeValueUpdate, null string) error {
	var legacy, expr []string
	add := func(list *[]string, present bool, name string) {
		if present {
			*list = append(*list, name)
		}
	}
	add(&legacy, updates != nil, "AttributeUpdates")
	add(&legacy, o.ConditionalOperator != nil, "ConditionalOperator")
	add(&legacy, o.Expected != nil, "Expected")
	add(&expr, o.ConditionExpression != nil, "ConditionExpression")
	add(&expr, update != nil, "UpdateExpression")
	if len(legacy) > 0 && len(expr) > 0 {
		return mixed(legacy, expr)
	}
	if err := attributeMaps(o, len(expr) > 0, null); err != nil {
		return err
	}
	return apierr.Prefixed(notEmptyMaps(o))
}

// attributeMaps refuses expression attribute maps given without an
// expression to use them.
func attributeMaps(o *protocol.WriteOptions, expressions bool, null string) error {
	if !expressions && o.ExpressionAttributeNames != nil {
		return apierr.Validationf("ExpressionAttributeNames can only be specified when using expressions")
	}
	if !expressions && o.ExpressionAttributeValues != nil {
		return apierr.Validationf(msgValuesWithoutExpressions, null)
	}
	return nil
}

// notEmptyMaps refuses expression attribute maps that are present but
// empty.
func notEmptyMaps(o *protocol.WriteOptions) error {
	if err := notEmptyNames(o.ExpressionAttributeNames); err != nil {
		return err
	}
	if o.ExpressionAttributeValues != nil && len(o.ExpressionAttributeValues) == 0 {
		return apierr.Validationf("ExpressionAttributeValues must not be empty")
	}
	return nil
}

func notEmptyNames(names map[string]string) error {
	if names != nil && len(names) == 0 {
		return apierr.Validationf("ExpressionAttributeNames must not be empty")
	}
	return nil
}

func mixed(legacy, expr []string) error {
	return apierr.Validationf("Can not use both expression and non-expression parameters in the same request: "+
		"Non-expression parameters: {%s} Expression parameters: {%s}", strings.Join(legacy, ", "), strings.Join(expr, ", "))
}

func oldOrNone(rv *string) error {
	if rv != nil && *rv != "NONE" && *rv != "ALL_OLD" {
		return apierr.Validationf("ReturnValues can only be ALL_OLD or NONE")
	}
	return nil
}

// allValues validates the item or key, the expression attribute values and
// the legacy Expected values of a write.
func allValues(it attr.Item, o *protocol.WriteOptions) error {
	if err := values(it); err != nil {
		return err
	}
	if err := expressionValues(o.ExpressionAttributeValues); err != nil {
		return err
	}
	for _, exp := range o.Expected {
		if err := legacyValue(exp.Value); err != nil {
			return err
		}
		for i := range exp.AttributeValueList {
			if err := legacyValue(&exp.AttributeValueList[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// values validates and normalizes every attribute value of an item or key.
func values(it attr.Item) error {
	if err := attr.ValidateItem(it); err != nil {
		return apierr.Validationf("%s", err.Error())
	}
	return nil
}

// expressionValues validates ExpressionAttributeValues, naming the bad key
// as DynamoDB does.
func expressionValues(vals attr.Item) error {
	for _, k := range slices.Sorted(maps.Keys(vals)) {
		v := vals[k]
		if err := v.Validate(); err != nil {
			return invalidValue(err, k)
		}
		vals[k] = v
	}
	return nil
}

// invalidValue words an expression attribute value's error: an empty set
// is reported exactly as in an item, without naming the key; duplicate set
// members with the service's shorter text; anything else wrapped.
func invalidValue(err error, key string) error {
	switch {
	case attr.IsEmptySet(err):
		return apierr.Validationf("%s", err.Error())
	case attr.IsDuplicates(err):
		return apierr.Validationf(msgValueDuplicates, key)
	}
	return apierr.Validationf(msgInvalidValue, err.Error(), key)
}

// legacyValue validates a value of a legacy parameter in place.
func legacyValue(v *attr.Value) error {
	if v == nil {
		return nil
	}
	if err := v.Validate(); err != nil {
		return apierr.Validationf("%s", err.Error())
	}
	return nil
}

// tableRef checks the table name (or ARN) of a data-plane request.
func (v *violations) tableRef(name *string) { tableNameModel(v, name, "tableName") }
