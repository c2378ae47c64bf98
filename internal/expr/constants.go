package expr

import (
	"encoding/base64"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
)

// A comparison whose constant operands (ExpressionAttributeValues) DynamoDB
// can judge without an item is refused before anything is read, not left
// to evaluate false: ordering a value of a type that has no order, two
// constants of different types, and a BETWEEN whose bounds differ in type
// or are the wrong way round.

// orderable reports whether values of kind k have an order: S, N and B.
func orderable(k attr.Kind) bool { return k == attr.S || k == attr.N || k == attr.B }

// constant returns the value of an operand that is one.
func constant(op Operand) (attr.Value, bool) {
	if v, ok := op.(*ValueOperand); ok {
		return v.Value, true
	}
	return attr.Value{}, false
}

// checkCompare checks an ordering comparison (< <= > >=); = and <> take
// any types.
func checkCompare(c *CompareCond, k Kind) error {
	if c.Op == "=" || c.Op == "<>" {
		return nil
	}
	if err := checkOrderable(c.Op, k, c.L, c.R); err != nil {
		return err
	}
	l, lok := constant(c.L)
	r, rok := constant(c.R)
	if lok && rok && l.Kind() != r.Kind() {
		return apierr.Validationf(k.prefix()+msgOperandType, c.Op, r.Kind())
	}
	return nil
}

// checkOrderable refuses a constant operand of op that has no order.
func checkOrderable(op string, k Kind, ops ...Operand) error {
	for _, o := range ops {
		if v, ok := constant(o); ok && !orderable(v.Kind()) {
			return apierr.Validationf(k.prefix()+msgOperandType, op, v.Kind())
		}
	}
	return nil
}

// checkBetween checks X BETWEEN Lo AND Hi: every constant ordered, and
// constant bounds of one type with Lo not above Hi.
func checkBetween(c *BetweenCond, k Kind) error {
	if err := checkOrderable("BETWEEN", k, c.X, c.Lo, c.Hi); err != nil {
		return err
	}
	lo, lok := constant(c.Lo)
	hi, hok := constant(c.Hi)
	if !lok || !hok {
		return nil
	}
	n, ok := attr.Compare(&lo, &hi)
	switch {
	case !ok:
		return apierr.Validationf(k.prefix()+msgBetweenTypes, valueText(&lo), valueText(&hi))
	case n > 0:
		return apierr.Validationf(k.prefix()+msgBetweenOrder, valueText(&lo), valueText(&hi))
	}
	return nil
}

// valueText renders a scalar the way DynamoDB's messages quote an
// AttributeValue: {N:5}, {S:abc}; binary as base64, as on the wire.
func valueText(v *attr.Value) string {
	switch v.Kind() {
	case attr.S:
		return "{S:" + *v.S + "}"
	case attr.N:
		return "{N:" + *v.N + "}"
	case attr.B:
		return "{B:" + base64.StdEncoding.EncodeToString(v.B) + "}"
	}
	return "{" + v.Kind().String() + "}"
}
