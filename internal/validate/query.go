package validate

import (
	"fmt"
	"maps"
	"slices"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/expr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// The read operations' enums, in the order the service prints them.
var (
	// selectSet is not the model's order: it is the order DynamoDB's
	// messages show, for Query and Scan alike.
	selectSet = []string{"SPECIFIC_ATTRIBUTES", "COUNT", "ALL_ATTRIBUTES", "ALL_PROJECTED_ATTRIBUTES"}
	// comparisonOpSet is in the order the service prints it (a HashSet's),
	// as legacy Expected errors show it.
	comparisonOpSet = []string{"IN", "NULL", "BETWEEN", "LT", "NOT_CONTAINS", "EQ", "GT", "NOT_NULL", "NE", "LE", "BEGINS_WITH", "GE", "CONTAINS"}
)

// Query checks a Query request in DynamoDB's order: Limit, the model
// constraints (Select among them), TableName, how expression and legacy
// parameters are mixed, a name repeated in AttributesToGet, Select's rules,
// the key condition's presence, then
// every attribute value (ExclusiveStartKey among them). Checks against the
// table are the engine's. Query words its own checks as one-error
// messages, prefix included, where Scan does not.
func Query(in *protocol.QueryInput) error {
	o := &in.ReadOptions
	if o.Limit != nil && *o.Limit < 1 {
		return bare("Limit", fmt.Sprintf(cMinValue, 1))
	}
	if err := queryModel(in); err != nil {
		return err
	}
	// KeyConditions conflicts only with KeyConditionExpression: DynamoDB
	// takes legacy key conditions with a FilterExpression or a
	// ProjectionExpression, as widely used client libraries send them.
	keyConds := in.KeyConditions != nil && in.KeyConditionExpression != nil
	legacy := legacyParams(o, "KeyConditions", keyConds, "QueryFilter", in.QueryFilter != nil)
	exprs := exprParams(o, in.KeyConditionExpression != nil)
	if err := readParams(o, legacy, exprs, in.KeyConditionExpression != nil); err != nil {
		return err
	}
	if err := uniqueAttributesToGet(o.AttributesToGet); err != nil {
		return err
	}
	if err := selectRules(o, prefixOne); err != nil {
		return err
	}
	if err := keyConditionGiven(in); err != nil {
		return err
	}
	return readValues(o, in.KeyConditions, in.QueryFilter)
}

// keyConditionGiven requires a key condition, in one of its two forms.
func keyConditionGiven(in *protocol.QueryInput) error {
	if in.KeyConditions == nil && in.KeyConditionExpression == nil {
		return apierr.Validationf(msgNoKeyCondition)
	}
	if in.KeyConditions != nil && len(in.KeyConditions) == 0 {
		return apierr.Validationf(msgKeyConditionsCount)
	}
	if in.IndexName == nil {
		return KeyConditionsCount(len(in.KeyConditions), 2)
	}
	return nil
}

// KeyConditionsCount refuses more legacy KeyConditions than the key read
// has attributes, and more than 2 on a key of one or two (the limit from
// before multi-attribute keys). A Query of an index is checked once the
// engine knows the index's key.
func KeyConditionsCount(n, keyAttrs int) error {
	if n > max(2, keyAttrs) {
		return apierr.Validationf(msgKeyConditionsCount)
	}
	return nil
}

// Scan checks a Scan request: model constraints, TableName, the
// parallel-scan pair, then Query's order.
func Scan(in *protocol.ScanInput) error {
	if err := scanModel(in); err != nil {
		return err
	}
	if err := segments(in.Segment, in.TotalSegments); err != nil {
		return err
	}
	o := &in.ReadOptions
	legacy := legacyParams(o, "ScanFilter", in.ScanFilter != nil, "", false)
	if err := readParams(o, legacy, exprParams(o, false), false); err != nil {
		return err
	}
	if err := uniqueAttributesToGet(o.AttributesToGet); err != nil {
		return err
	}
	if err := selectRules(o, ""); err != nil {
		return err
	}
	return readValues(o, in.ScanFilter, nil)
}

// queryModel collects Query's model violations, in the order of the
// request's members.
func queryModel(in *protocol.QueryInput) error {
	var v violations
	o := &in.ReadOptions
	v.tableRef(o.TableName)
	v.indexName(o.IndexName)
	v.enum(o.Select, "select", selectSet)
	v.attributesToGet(o.AttributesToGet)
	v.conditions(in.KeyConditions, "keyConditions")
	v.conditions(in.QueryFilter, "queryFilter")
	v.enum(o.ConditionalOperator, "conditionalOperator", conditionalOpSet)
	v.enum(o.ReturnConsumedCapacity, "returnConsumedCapacity", consumedCapacitySet)
	return v.err()
}

// scanModel collects Scan's model violations, in the order of the
// request's members.
func scanModel(in *protocol.ScanInput) error {
	var v violations
	o := &in.ReadOptions
	v.tableRef(o.TableName)
	v.indexName(o.IndexName)
	v.attributesToGet(o.AttributesToGet)
	v.atLeast(o.Limit, "limit", 1)
	v.enum(o.Select, "select", selectSet)
	v.conditions(in.ScanFilter, "scanFilter")
	v.enum(o.ConditionalOperator, "conditionalOperator", conditionalOpSet)
	v.enum(o.ReturnConsumedCapacity, "returnConsumedCapacity", consumedCapacitySet)
	v.atLeast(in.TotalSegments, "totalSegments", 1)
	v.atMost(in.TotalSegments, "totalSegments", 1000000)
	v.atLeast(in.Segment, "segment", 0)
	v.atMost(in.Segment, "segment", 999999)
	return v.err()
}

func (v *violations) indexName(name *string) {
	if name != nil {
		v.name(*name, "indexName")
	}
}

func (v *violations) attributesToGet(list []string) {
	if list != nil {
		v.count(renderStrings(list), len(list), "attributesToGet", 1, -1)
	}
}

// conditions checks the ComparisonOperator of each legacy condition, in
// attribute name order.
func (v *violations) conditions(m map[string]protocol.Condition, member string) {
	for _, name := range slices.Sorted(maps.Keys(m)) {
		op := m[name].ComparisonOperator
		field := member + "." + name + ".member.comparisonOperator"
		if v.present(op == nil, field) {
			v.enum(op, field, comparisonOpSet)
		}
	}
}

// legacyParams lists the legacy parameters present, alphabetically, as
// mixed() prints them; a and b are the operation's own condition maps.
func legacyParams(o *protocol.ReadOptions, a string, hasA bool, b string, hasB bool) []string {
	var list []string
	add := func(present bool, name string) {
		if present {
			list = append(list, name)
		}
	}
	add(o.AttributesToGet != nil, "AttributesToGet")
	add(o.ConditionalOperator != nil, "ConditionalOperator")
	add(hasA, a)
	add(hasB, b)
	return list
}

// exprParams lists the expression parameters present, alphabetically.
func exprParams(o *protocol.ReadOptions, keyExpr bool) []string {
	var list []string
	add := func(present bool, name string) {
		if present {
			list = append(list, name)
		}
	}
	add(o.FilterExpression != nil, "FilterExpression")
	add(keyExpr, "KeyConditionExpression")
	add(o.ProjectionExpression != nil, "ProjectionExpression")
	return list
}

// readParams refuses mixed parameters, and expression attribute maps with
// nothing to use them: names need any expression, values a condition one.
func readParams(o *protocol.ReadOptions, legacy, exprs []string, keyExpr bool) error {
	if len(legacy) > 0 && len(exprs) > 0 {
		return mixed(legacy, exprs)
	}
	if o.ExpressionAttributeNames != nil && len(exprs) == 0 {
		return apierr.Validationf(msgNamesUnusable)
	}
	if o.ExpressionAttributeValues != nil && o.FilterExpression == nil && !keyExpr {
		return apierr.Validationf(msgValuesUnusable, nullFilter)
	}
	return expr.CheckMaps(o.ExpressionAttributeNames, o.ExpressionAttributeValues)
}

// selectRules checks Select against the projection and the index; prefix
// is what the operation puts before these messages.
func selectRules(o *protocol.ReadOptions, prefix string) error {
	if o.Select == nil {
		return nil
	}
	if msg := selectRule(o); msg != "" {
		return apierr.Validationf("%s", prefix+msg)
	}
	return nil
}

// selectRule is the message of the first rule Select breaks, or "".
func selectRule(o *protocol.ReadOptions) string {
	sel := *o.Select
	if sel == "SPECIFIC_ATTRIBUTES" {
		if o.AttributesToGet == nil && o.ProjectionExpression == nil {
			return msgSpecificNeedsProjection
		}
		return ""
	}
	what := sel
	if sel == "COUNT" {
		what = selectCountWhat
	}
	switch {
	case o.AttributesToGet != nil:
		return fmt.Sprintf(msgCannotSpecify, "AttributesToGet", what)
	case o.ProjectionExpression != nil:
		return fmt.Sprintf(msgCannotSpecify, "ProjectionExpression", what)
	case sel == "ALL_PROJECTED_ATTRIBUTES" && o.IndexName == nil:
		return msgProjectedNeedsIndex
	}
	return ""
}

// segments checks the parallel-scan pair: both or neither, Segment below
// TotalSegments.
func segments(seg, total *int64) error {
	switch {
	case seg != nil && total == nil:
		return apierr.Validationf(msgTotalSegmentsAlone)
	case seg == nil && total != nil:
		return apierr.Validationf(msgSegmentAlone)
	case seg != nil && *seg >= *total:
		return apierr.Validationf(msgSegmentTooLarge, *seg, *total)
	}
	return nil
}

// readValues validates (and normalizes) every attribute value of a read:
// the expression values, the start key, then the legacy conditions' values.
func readValues(o *protocol.ReadOptions, a, b map[string]protocol.Condition) error {
	if err := expressionValues(o.ExpressionAttributeValues); err != nil {
		return err
	}
	if err := values(o.ExclusiveStartKey); err != nil {
		return err
	}
	for _, m := range []map[string]protocol.Condition{a, b} {
		if err := conditionValues(m); err != nil {
			return err
		}
	}
	return nil
}

func conditionValues(m map[string]protocol.Condition) error {
	if err := mapNames(m); err != nil {
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(m)) {
		list := m[name].AttributeValueList
		for i := range list {
			if err := legacyValue(&list[i]); err != nil {
				return err
			}
		}
	}
	return nil
}
