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
// and runs the checks that need no item (operand types of literal values),
// so a bad request fails whether or not the item exists. single is true
// for PutItem, UpdateItem and DeleteItem, whose expression errors DynamoDB
// prefixes with "1 validation error detected: "; a transaction's are bare,
// and so are the legacy parameters' everywhere.
func parseWrite(o *protocol.WriteOptions, updateExpr *string, updates map[string]protocol.AttributeValueUpdate, single bool) (w writeExprs, err error) {
	attrs := expr.NewAttrs(o.ExpressionAttributeNames, o.ExpressionAttributeValues)
	mark := func(err error) error { return err }
	if single {
		mark = apierr.Prefixed
	}
	if w.update, err = parseUpdate(attrs, updateExpr, updates, mark); err != nil {
		return w, err
	}
	if w.cond, err = parseCondition(attrs, o, mark); err != nil {
		return w, err
	}
	return w, mark(attrs.CheckUnused())
}

// parseUpdate parses an UpdateExpression, or translates AttributeUpdates.
func parseUpdate(attrs *expr.Attrs, s *string, updates map[string]protocol.AttributeValueUpdate, mark func(error) error) (*expr.Update, error) {
	if s != nil {
		u, err := attrs.ParseUpdate(*s)
		if err == nil {
			err = expr.ValidateUpdate(u)
		}
		return u, mark(err)
	}
	if updates == nil {
		return nil, nil
	}
	u, err := attributeUpdates(updates)
	if err == nil {
		err = expr.ValidateUpdate(u)
	}
	return u, err
}

// parseCondition parses a ConditionExpression, or translates Expected.
func parseCondition(attrs *expr.Attrs, o *protocol.WriteOptions, mark func(error) error) (expr.Cond, error) {
	if o.ConditionExpression != nil {
		c, err := attrs.ParseCondition(expr.Condition, *o.ConditionExpression)
		if err == nil {
			err = expr.ValidateCond(c, expr.Condition)
		}
		return c, mark(err)
	}
	if o.Expected == nil {
		return nil, nil
	}
	c, err := expectedCond(o.Expected, o.ConditionalOperator)
	if err == nil {
		err = expr.ValidateCond(c, expr.Condition)
	}
	return c, err
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
