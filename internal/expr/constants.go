package expr

import (
	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
)

// The checks of literal operands: a function given an expression attribute
// value of a type it never takes is a mistake in the request, not a
// condition that fails on some item, so DynamoDB refuses the request up
// front, after the expressions' syntax and their names and values, before
// it looks up the table. Values from legacy parameters (no placeholder
// name) have their own rules and are skipped.

// operandType is the refusal of operand type typ for function fn.
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

// literal returns op when it is an expression attribute value.
func literal(op Operand) (*ValueOperand, bool) {
	v, ok := op.(*ValueOperand)
	return v, ok && v.Name != ""
}
