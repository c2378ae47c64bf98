package validate

import (
	"errors"
	"maps"
	"slices"
	"strings"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/expr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// The item operations' enums, in the order the service prints them (its
// model's order).
var (
	returnValueSet      = []string{"NONE", "ALL_OLD", "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW"}
	consumedCapacitySet = []string{"INDEXES", "TOTAL", "NONE"}
	collectionMetricSet = []string{"SIZE", "NONE"}
	onConditionFailSet  = []string{"ALL_OLD", "NONE"}
	conditionalOpSet    = []string{"AND", "OR"}
	attributeActionSet  = []string{"ADD", "PUT", "DELETE"}
)

// PutItem checks a PutItem request: model constraints, then how expression
// and legacy parameters are mixed, then ReturnValues, then the expression
// attribute maps and every value. The item's size is checked later, after
// the expressions (see ItemSize). PutItem, UpdateItem and DeleteItem
// prefix the messages about their expression attribute maps and values
// with "1 validation error detected: " (Single), as DynamoDB does since
// 2026; TransactWriteItems does not.
func PutItem(in *protocol.PutItemInput) error {
	if err := write(in.TableName, in.Item, "item", &in.WriteOptions); err != nil {
		return err
	}
	if err := params(&in.WriteOptions, false, nil, nil); err != nil {
		return err
	}
	if err := oldOrNone(in.ReturnValues); err != nil {
		return err
	}
	return Single(writeValues(in.Item, &in.WriteOptions))
}

// DeleteItem checks a DeleteItem request, in PutItem's order.
func DeleteItem(in *protocol.DeleteItemInput) error {
	if err := write(in.TableName, in.Key, "key", &in.WriteOptions); err != nil {
		return err
	}
	if err := params(&in.WriteOptions, false, nil, nil); err != nil {
		return err
	}
	if err := oldOrNone(in.ReturnValues); err != nil {
		return err
	}
	return Single(writeValues(in.Key, &in.WriteOptions))
}

// UpdateItem checks an UpdateItem request, in PutItem's order.
func UpdateItem(in *protocol.UpdateItemInput) error {
	if err := write(in.TableName, in.Key, "key", &in.WriteOptions, in.AttributeUpdates); err != nil {
		return err
	}
	if err := params(&in.WriteOptions, true, in.UpdateExpression, in.AttributeUpdates); err != nil {
		return err
	}
	if err := writeValues(in.Key, &in.WriteOptions); err != nil {
		return Single(err)
	}
	if err := mapNames(in.AttributeUpdates); err != nil {
		return Single(err)
	}
	for _, u := range in.AttributeUpdates {
		if err := legacyValue(u.Value); err != nil {
			return Single(err)
		}
	}
	return nil
}

// BadComparisonOperator is the model's refusal of a legacy condition's
// ComparisonOperator op at member.
func BadComparisonOperator(op, member string) error {
	var v violations
	v.enum(&op, member, comparisonOpSet)
	return v.err()
}

// BadAttributeAction is the model's refusal of a legacy AttributeUpdates
// entry's Action at attribute name.
func BadAttributeAction(action, name string) error {
	var v violations
	v.enum(&action, "attributeUpdates."+name+".member.action", attributeActionSet)
	return v.err()
}

// Single glues the one-error prefix onto a ValidationException that lacks
// it. UpdateItem, PutItem and DeleteItem report every error of their
// expressions and values so, TransactWriteItems and the reads do not.
func Single(err error) error {
	if err == nil {
		return nil // before errors.As, whose target would escape on every call
	}
	var ae *apierr.Error
	if errors.As(err, &ae) && ae.Code == apierr.Validation && !strings.HasPrefix(ae.Message, prefixOne) {
		return one(ae.Message)
	}
	return err
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
		return apierr.Validationf(msgNamesUnusable)
	}
	if err := uniqueAttributesToGet(attrs); err != nil {
		return err
	}
	return expr.CheckMaps(names, nil)
}

// uniqueAttributesToGet refuses a name listed twice in AttributesToGet,
// naming the first one repeated.
func uniqueAttributesToGet(names []string) error {
	if err := attributeNames(names); err != nil {
		return err
	}
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

// attributeNames refuses a name no attribute can have (empty, or 64 KB and
// more) in a legacy parameter's list of names, as in an item.
func attributeNames(names []string) error {
	for _, n := range names {
		if err := attr.CheckName(n); err != nil {
			return apierr.Validationf("%s", err.Error())
		}
	}
	return nil
}

// mapNames is attributeNames for the names of a legacy parameter's map
// (AttributeUpdates, Expected, QueryFilter, ScanFilter, KeyConditions), in
// sorted order so that the error is always the same one.
func mapNames[V any](m map[string]V) error {
	if len(m) == 0 {
		return nil // most requests have none: sorting would still allocate
	}
	return attributeNames(slices.Sorted(maps.Keys(m)))
}

// write checks the model constraints the single-item writes share;
// UpdateItem also passes its legacy AttributeUpdates, whose Action is an
// enum the model checks with the rest, after Key as in the model.
func write(table *string, it protocol.Item, member string, o *protocol.WriteOptions, updates ...map[string]protocol.AttributeValueUpdate) error {
	var v violations
	v.tableRef(table)
	v.present(it == nil, member)
	if len(updates) > 0 {
		v.attributeActions(updates[0])
	}
	v.expected(o.Expected)
	v.enum(o.ReturnValues, "returnValues", returnValueSet)
	v.enum(o.ReturnConsumedCapacity, "returnConsumedCapacity", consumedCapacitySet)
	v.enum(o.ReturnItemCollectionMetrics, "returnItemCollectionMetrics", collectionMetricSet)
	v.enum(o.ReturnValuesOnConditionCheckFailure, "returnValuesOnConditionCheckFailure", onConditionFailSet)
	v.enum(o.ConditionalOperator, "conditionalOperator", conditionalOpSet)
	return v.err()
}

// attributeActions checks the legacy AttributeUpdates entries' actions,
// in name order; an absent Action means PUT.
func (v *violations) attributeActions(m map[string]protocol.AttributeValueUpdate) {
	if len(m) == 0 {
		return
	}
	for _, name := range slices.Sorted(maps.Keys(m)) {
		v.enum(m[name].Action, "attributeUpdates."+name+".member.action", attributeActionSet)
	}
}

// expected checks the legacy Expected entries' operators, in name order.
// Most writes have none: sorting no keys would still allocate.
func (v *violations) expected(m map[string]protocol.ExpectedAttributeValue) {
	if len(m) == 0 {
		return
	}
	for _, name := range slices.Sorted(maps.Keys(m)) {
		v.enum(m[name].ComparisonOperator, "expected."+name+".member.comparisonOperator", comparisonOpSet)
	}
}

// params refuses a request that mixes expression and legacy parameters, and
// expression attribute maps given without an expression to use them.
func params(o *protocol.WriteOptions, updateOp bool, update *string, updates map[string]protocol.AttributeValueUpdate) error {
	var legacyNames, exprNames [3]string // on the stack: most writes pass
	legacy, exprs := legacyNames[:0], exprNames[:0]
	legacy = appendIf(legacy, updates != nil, "AttributeUpdates")
	legacy = appendIf(legacy, o.ConditionalOperator != nil, "ConditionalOperator")
	legacy = appendIf(legacy, o.Expected != nil, "Expected")
	exprs = appendIf(exprs, o.ConditionExpression != nil, "ConditionExpression")
	exprs = appendIf(exprs, update != nil, "UpdateExpression")
	if len(legacy) > 0 && len(exprs) > 0 {
		return mixed(legacy, exprs)
	}
	return usable(o, len(exprs) > 0, updateOp)
}

func appendIf(list []string, present bool, name string) []string {
	if present {
		return append(list, name)
	}
	return list
}

// usable refuses expression attribute maps given without an expression to
// use them. The message names the expressions that are missing: an
// update's two (updateOp), or the condition alone.
func usable(o *protocol.WriteOptions, expressions, updateOp bool) error {
	if !expressions && o.ExpressionAttributeNames != nil {
		return apierr.Validationf(msgNamesUnusable)
	}
	if !expressions && o.ExpressionAttributeValues != nil {
		missing := nullCondition
		if updateOp {
			missing = nullUpdate
		}
		return apierr.Validationf(msgValuesUnusable, missing)
	}
	return nil
}

// writeValues refuses empty or misnamed expression attribute maps, then
// validates the item or key, the expression attribute values and the
// legacy values.
func writeValues(it attr.Item, o *protocol.WriteOptions) error {
	if err := expr.CheckMaps(o.ExpressionAttributeNames, o.ExpressionAttributeValues); err != nil {
		return err
	}
	return allValues(it, o)
}

func mixed(legacy, exprs []string) error {
	return apierr.Validationf(msgMixed, strings.Join(legacy, ", "), strings.Join(exprs, ", "))
}

func oldOrNone(rv *string) error {
	if rv != nil && *rv != "NONE" && *rv != "ALL_OLD" {
		return apierr.Validationf(msgReturnValuesOldOrNone)
	}
	return nil
}

// MaxItemBytes is DynamoDB's limit on an item's size.
const MaxItemBytes = 400 * 1024

// ItemSize refuses an item over 400 KB. It depends on the request alone,
// so DynamoDB checks it before it looks up the table, after the
// expressions.
func ItemSize(it attr.Item) error {
	if it.Size() > MaxItemBytes {
		return apierr.Validationf(msgItemTooLarge)
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
	if err := mapNames(o.Expected); err != nil {
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
	if k, err := attr.ValidateValues(vals); err != nil {
		return invalidValue(err, k)
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
	return apierr.Validationf(msgInvalidEAV, err.Error(), key)
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

// tableRef checks the table name (or ARN) of an item operation (GetItem,
// PutItem, UpdateItem, DeleteItem, Query, Scan): a missing one is the
// model's "Value null at 'tableName'" violation, listed with the others.
// Fact 1's required-parameter sentence is the table operations' (see
// TableRequest).
func (v *violations) tableRef(name *string) {
	if v.present(name == nil, "tableName") {
		tableNameModel(v, name, "tableName")
	}
}

func tableRequired(name *string) error {
	if name == nil {
		return apierr.Validationf(msgTableNameRequired)
	}
	return nil
}

// TableRequest checks the TableName of a request that names nothing else:
// DescribeTable, DeleteTable, DescribeTimeToLive.
func TableRequest(name *string) error {
	var v violations
	if name != nil {
		tableNameModel(&v, name, "tableName")
	}
	if err := v.err(); err != nil {
		return err
	}
	return tableRequired(name)
}
