package expr

import (
	"encoding/base64"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
)

// The checks of literal operands. An operand that is an expression
// attribute value has a type DynamoDB knows without an item, so a mistake
// about it is a mistake in the request, not a condition that fails on some
// item: DynamoDB refuses the request up front, after the expressions'
// syntax and their names and values, before it looks up the table. That
// covers a function given a value of a type it never takes (begins_with on
// a number, size() of a literal that has no size), ordering a value of a
// type that has no order, comparing two constants of different types, and
// a BETWEEN whose bounds differ in type or are the wrong way round. Values
// from legacy parameters (no placeholder name) have their own rules, with
// their own texts, checked when they are translated (engine/legacy.go), and
// are skipped here.

// OperandType is the refusal of operand type typ for operator or function
// fn.
func OperandType(k Kind, fn, typ string) *apierr.Error {
	return apierr.Validationf(k.prefix()+msgOperandType, fn, typ)
}

// validateFunc checks a function condition's literal operands:
// attribute_type's type name and begins_with's prefix.
func validateFunc(c *FuncCond, k Kind) error {
	switch {
	case c.Func == "attribute_type" && len(c.Args) == 2:
		if v, ok := literal(c.Args[1]); ok {
			return checkTypeName(v.Value, true, k)
		}
	case c.Func == "begins_with":
		for _, arg := range c.Args {
			if v, ok := literal(arg); ok && v.Value.Kind() != attr.S && v.Value.Kind() != attr.B {
				return OperandType(k, c.Func, v.Value.Kind().String())
			}
		}
	}
	return validateOperands(c.Args, k)
}

// condOperands lists a comparison's, BETWEEN's or IN's operands.
func condOperands(c Cond) []Operand {
	switch c := c.(type) {
	case *CompareCond:
		return []Operand{c.L, c.R}
	case *BetweenCond:
		return []Operand{c.X, c.Lo, c.Hi}
	case *InCond:
		return append([]Operand{c.X}, c.List...)
	}
	return nil
}

// validateOperands refuses size() of a literal that has no size, and of
// size() itself, which yields a number.
func validateOperands(ops []Operand, k Kind) error {
	for _, op := range ops {
		call, ok := op.(*CallOperand)
		if !ok || call.Func != "size" || len(call.Args) != 1 {
			continue
		}
		if v, ok := literal(call.Args[0]); ok {
			if _, sized := sizeOf(&v.Value); !sized {
				return OperandType(k, call.Func, v.Value.Kind().String())
			}
		}
		if inner, ok := call.Args[0].(*CallOperand); ok && inner.Func == "size" {
			return OperandType(k, call.Func, attr.N.String())
		}
	}
	return nil
}

// validateCompare checks a comparison's operands (validateOperands), then,
// for an ordering comparison (< <= > >=), its constants: = and <> take any
// types.
func validateCompare(c *CompareCond, k Kind) error {
	if err := validateOperands([]Operand{c.L, c.R}, k); err != nil {
		return err
	}
	if c.Op == "=" || c.Op == "<>" {
		return nil
	}
	if err := checkOrderable(c.Op, k, c.L, c.R); err != nil {
		return err
	}
	l, lok := literal(c.L)
	r, rok := literal(c.R)
	if lok && rok && l.Value.Kind() != r.Value.Kind() {
		return OperandType(k, c.Op, r.Value.Kind().String())
	}
	return nil
}

// validateBetween checks X BETWEEN Lo AND Hi: its operands
// (validateOperands), every constant ordered, and constant bounds of one
// type with Lo not above Hi.
func validateBetween(c *BetweenCond, k Kind) error {
	if err := validateOperands([]Operand{c.X, c.Lo, c.Hi}, k); err != nil {
		return err
	}
	if err := checkOrderable("BETWEEN", k, c.X, c.Lo, c.Hi); err != nil {
		return err
	}
	lo, lok := literal(c.Lo)
	hi, hok := literal(c.Hi)
	if !lok || !hok {
		return nil
	}
	n, ok := attr.Compare(&lo.Value, &hi.Value)
	switch {
	case !ok:
		return apierr.Validationf(k.prefix()+msgBetweenTypes, valueText(&lo.Value), valueText(&hi.Value))
	case n > 0:
		return apierr.Validationf(k.prefix()+msgBetweenOrder, valueText(&lo.Value), valueText(&hi.Value))
	}
	return nil
}

// orderable reports whether values of kind k have an order: S, N and B.
func orderable(k attr.Kind) bool { return k == attr.S || k == attr.N || k == attr.B }

// checkOrderable refuses a literal operand of op that has no order.
func checkOrderable(op string, k Kind, ops ...Operand) error {
	for _, o := range ops {
		if v, ok := literal(o); ok && !orderable(v.Value.Kind()) {
			return OperandType(k, op, v.Value.Kind().String())
		}
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

// literal returns op when it is an expression attribute value.
func literal(op Operand) (*ValueOperand, bool) {
	v, ok := op.(*ValueOperand)
	return v, ok && v.Name != ""
}
