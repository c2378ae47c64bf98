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

// parseWrite parses a write's expressions once, before any data is read,
// then makes the checks that need no item, in DynamoDB's order: syntax
// (each expression, update first), unused names and values, then the types
// of literal operands; so a bad request fails whether or not the item
// exists.
func parseWrite(o *protocol.WriteOptions, updateExpr *string, updates map[string]protocol.AttributeValueUpdate) (w writeExprs, err error) {
	attrs := expr.NewAttrs(o.ExpressionAttributeNames, o.ExpressionAttributeValues)
	if w.update, err = parseUpdate(attrs, updateExpr, updates); err != nil {
		return w, err
	}
	if w.cond, err = parseCondition(attrs, o); err != nil {
		return w, err
	}
	if err := attrs.CheckUnused(); err != nil {
		return w, err
	}
	if err := expr.ValidateUpdate(w.update); err != nil {
		return w, err
	}
	if w.cond == nil {
		return w, nil
	}
	return w, expr.ValidateCond(w.cond, expr.Condition)
}

// parseUpdate parses an UpdateExpression or translates AttributeUpdates.
func parseUpdate(attrs *expr.Attrs, updateExpr *string, updates map[string]protocol.AttributeValueUpdate) (*expr.Update, error) {
	switch {
	case updateExpr != nil:
		return attrs.ParseUpdate(*updateExpr)
	case updates != nil:
		return attributeUpdates(updates)
	}
	return nil, nil
}

// parseCondition parses a ConditionExpression or translates Expected.
func parseCondition(attrs *expr.Attrs, o *protocol.WriteOptions) (expr.Cond, error) {
	switch {
	case o.ConditionExpression != nil:
		return attrs.ParseCondition(expr.Condition, *o.ConditionExpression)
	case o.Expected != nil || o.ConditionalOperator != nil:
		return expectedCond(o.Expected, o.ConditionalOperator)
	}
	return nil, nil
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
