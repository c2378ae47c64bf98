package engine

import (
	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/expr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// writeExprs are a write request's parsed condition and update, from either
// the expression parameters or their legacy equivalents; nil when absent.
type writeExprs struct {
	cond   expr.Cond
	update *expr.Update
}

// parseWrite parses a write's expressions (or translates their legacy
// equivalents) once, before any data is read, in DynamoDB's order: syntax
// and the attribute maps first, then the checks that need no item (the
// types of constant operands), so a bad request fails whether or not the
// item exists. single is true for PutItem, UpdateItem and DeleteItem,
// whose messages DynamoDB prefixes with "1 validation error detected: ";
// a transaction's are bare.
func parseWrite(o *protocol.WriteOptions, updateExpr *string, updates map[string]protocol.AttributeValueUpdate, single bool) (writeExprs, error) {
	w, err := parseWriteExprs(o, updateExpr, updates)
	if err == nil {
		err = expr.ValidateUpdate(w.update)
	}
	if err == nil && w.cond != nil {
		err = expr.ValidateCond(w.cond, expr.Condition)
	}
	if single {
		err = apierr.Prefixed(err)
	}
	return w, err
}

// parseWriteExprs parses or translates the update and the condition, then
// checks that every expression attribute name and value was used.
func parseWriteExprs(o *protocol.WriteOptions, updateExpr *string, updates map[string]protocol.AttributeValueUpdate) (w writeExprs, err error) {
	attrs := expr.NewAttrs(o.ExpressionAttributeNames, o.ExpressionAttributeValues)
	switch {
	case updateExpr != nil:
		w.update, err = attrs.ParseUpdate(*updateExpr)
	case updates != nil:
		w.update, err = attributeUpdates(updates)
	}
	if err != nil {
		return w, err
	}
	switch {
	case o.ConditionExpression != nil:
		w.cond, err = attrs.ParseCondition(expr.Condition, *o.ConditionExpression)
	case o.Expected != nil:
		w.cond, err = expectedCond(o.Expected, o.ConditionalOperator)
	}
	if err != nil {
		return w, err
	}
	return w, attrs.CheckUnused()
}

// check evaluates the condition against the item as it is now (nil when it
// does not exist). A failed condition returns the item with the error when
// the request asked for it with ReturnValuesOnConditionCheckFailure.
func (w writeExprs) check(old attr.Item, o *protocol.WriteOptions) error {
	if w.cond == nil {
		return nil
	}
	ok, err := expr.EvalCond(w.cond, old)
	if err != nil || ok {
		return err
	}
	e := apierr.New(apierr.ConditionalCheckFailed, "The conditional request failed")
	if old != nil && o.ReturnValuesOnConditionCheckFailure != nil && *o.ReturnValuesOnConditionCheckFailure == "ALL_OLD" {
		e.Item = old
	}
	return e
}
