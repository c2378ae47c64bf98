package expr

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
)

// attributeTypes are the type names attribute_type accepts, in the order
// DynamoDB lists them in its error message.
const attributeTypes = "{ B,NULL,SS,BOOL,L,BS,N,NS,S,M }"

// EvalCond evaluates a condition (ConditionExpression, FilterExpression,
// KeyConditionExpression, or a translated Expected) against item. A nil
// item is "no item": it has no attributes, so attribute_not_exists is
// true, comparisons with its attributes are false and <> is true.
//
// Semantics follow the Developer Guide ("Condition and filter expressions,
// operators, and functions"):
//   - = and <> compare any two values (attr.Equal); values of different
//     types are unequal, never an error.
//   - < <= > >= and BETWEEN order S, N and B values of the same type and
//     are false for anything else.
//   - An operand that yields nothing (a missing path, size() of a missing
//     or unsized attribute) makes every comparison false except <>, which
//     is true: "a <> :v" holds for an item without a.
//   - begins_with works on S and B; contains on S (substring), B
//     (subsequence), sets (membership, operand of the member type) and
//     lists (an element equal to the operand).
//   - attribute_type's type must be one of S SS N NS B BS BOOL NULL L M;
//     another is a ValidationException (see ValidateCond).
func EvalCond(c Cond, item attr.Item) (bool, error) {
	switch c := c.(type) {
	case *AndCond:
		ok, err := EvalCond(c.L, item)
		if err != nil || !ok {
			return false, err
		}
		return EvalCond(c.R, item)
	case *OrCond:
		ok, err := EvalCond(c.L, item)
		if err != nil || ok {
			return ok, err
		}
		return EvalCond(c.R, item)
	case *NotCond:
		ok, err := EvalCond(c.X, item)
		return !ok && err == nil, err
	case *CompareCond:
		return evalCompare(c, item)
	case *BetweenCond:
		return evalBetween(c, item)
	case *InCond:
		return evalIn(c, item)
	case *FuncCond:
		return evalFunc(c, item)
	}
	return false, apierr.Validationf("Invalid ConditionExpression: unsupported condition %T", c)
}

func evalCompare(c *CompareCond, item attr.Item) (bool, error) {
	l, lok, err := condOperand(c.L, item)
	if err != nil {
		return false, err
	}
	r, rok, err := condOperand(c.R, item)
	if err != nil {
		return false, err
	}
	switch c.Op {
	case "=":
		return lok && rok && attr.Equal(&l, &r), nil
	case "<>":
		return !(lok && rok && attr.Equal(&l, &r)), nil
	}
	if !lok || !rok {
		return false, nil
	}
	n, ok := attr.Compare(&l, &r)
	if !ok {
		return false, nil
	}
	switch c.Op {
	case "<":
		return n < 0, nil
	case "<=":
		return n <= 0, nil
	case ">":
		return n > 0, nil
	case ">=":
		return n >= 0, nil
	}
	return false, apierr.Validationf("Invalid ConditionExpression: unsupported comparator %s", c.Op)
}

func evalBetween(c *BetweenCond, item attr.Item) (bool, error) {
	var vs [3]attr.Value
	for i, op := range [3]Operand{c.X, c.Lo, c.Hi} {
		v, ok, err := condOperand(op, item)
		if err != nil || !ok {
			return false, err
		}
		vs[i] = v
	}
	lo, ok := attr.Compare(&vs[0], &vs[1])
	if !ok || lo < 0 {
		return false, nil
	}
	hi, ok := attr.Compare(&vs[0], &vs[2])
	return ok && hi <= 0, nil
}

func evalIn(c *InCond, item attr.Item) (bool, error) {
	x, ok, err := condOperand(c.X, item)
	if err != nil || !ok {
		return false, err
	}
	for _, op := range c.List {
		v, ok, err := condOperand(op, item)
		if err != nil {
			return false, err
		}
		if ok && attr.Equal(&x, &v) {
			return true, nil
		}
	}
	return false, nil
}

func evalFunc(c *FuncCond, item attr.Item) (bool, error) {
	want := 2
	if c.Func == "attribute_exists" || c.Func == "attribute_not_exists" {
		want = 1
	}
	if len(c.Args) != want {
		return false, apierr.Validationf(prefixCondition+msgOperandCount, c.Func, len(c.Args))
	}
	switch c.Func {
	case "attribute_exists", "attribute_not_exists":
		_, ok, err := condOperand(c.Args[0], item)
		if err != nil {
			return false, err
		}
		return ok == (c.Func == "attribute_exists"), nil
	case "attribute_type":
		return evalAttributeType(c, item)
	case "begins_with", "contains":
		a, aok, err := condOperand(c.Args[0], item)
		if err != nil {
			return false, err
		}
		b, bok, err := condOperand(c.Args[1], item)
		if err != nil || !aok || !bok {
			return false, err
		}
		if c.Func == "begins_with" {
			return beginsWithValue(&a, &b), nil
		}
		return containsValue(&a, &b), nil
	}
	return false, errBadFunc(c.Func)
}

// evalAttributeType is attribute_type(path, :t).
func evalAttributeType(c *FuncCond, item attr.Item) (bool, error) {
	t, tok, err := condOperand(c.Args[1], item)
	if err != nil {
		return false, err
	}
	if err := checkTypeName(t, tok, Condition); err != nil {
		return false, err
	}
	v, ok, err := condOperand(c.Args[0], item)
	if err != nil || !ok {
		return false, err
	}
	return v.Kind().String() == *t.S, nil
}

// checkTypeName checks attribute_type's second operand.
func checkTypeName(t attr.Value, ok bool, k Kind) error {
	if !ok || t.Kind() != attr.S {
		name := "NONE"
		if ok {
			name = t.Kind().String()
		}
		return OperandType(k, "attribute_type", name)
	}
	if attr.KindOf(*t.S) == attr.Invalid {
		return apierr.Validationf("%sInvalid attribute type name found; type: %s, valid types: %s", k.prefix(), *t.S, attributeTypes)
	}
	return nil
}

// beginsWithValue is begins_with for S and B; other types never match.
func beginsWithValue(a, b *attr.Value) bool {
	switch {
	case a.S != nil && b.S != nil:
		return strings.HasPrefix(*a.S, *b.S)
	case a.B != nil && b.B != nil:
		return bytes.HasPrefix(a.B, b.B)
	}
	return false
}

// containsValue is the contains function: substring of a string, subsequence of
// a binary, member of a set of the operand's type, element of a list.
func containsValue(a, b *attr.Value) bool {
	switch a.Kind() {
	case attr.S:
		return b.S != nil && strings.Contains(*a.S, *b.S)
	case attr.B:
		return b.B != nil && bytes.Contains(a.B, b.B)
	case attr.SS:
		if b.Kind() == attr.S {
			for _, m := range a.SS {
				if m == *b.S {
					return true
				}
			}
		}
	case attr.NS:
		if b.Kind() == attr.N {
			for _, m := range a.NS {
				mv := attr.Num(m)
				if c, ok := attr.Compare(&mv, b); ok && c == 0 {
					return true
				}
			}
		}
	case attr.BS:
		if b.Kind() == attr.B {
			for _, m := range a.BS {
				if bytes.Equal(m, b.B) {
					return true
				}
			}
		}
	case attr.L:
		for i := range a.L {
			if attr.Equal(&a.L[i], b) {
				return true
			}
		}
	}
	return false
}

// ValidateCond makes the checks of a condition that do not depend on an
// item, so that they fail a request even when no item is read (an empty
// table, a missing key): the types of the literal operands of functions
// and comparisons, and the order of a BETWEEN's constant bounds (see
// constants.go). k selects the message prefix ("Invalid FilterExpression:
// ..."). EvalCond makes the attribute_type checks too, reporting them as a
// ConditionExpression's.
func ValidateCond(c Cond, k Kind) error {
	switch c := c.(type) {
	case *AndCond:
		if err := ValidateCond(c.L, k); err != nil {
			return err
		}
		return ValidateCond(c.R, k)
	case *OrCond:
		if err := ValidateCond(c.L, k); err != nil {
			return err
		}
		return ValidateCond(c.R, k)
	case *NotCond:
		return ValidateCond(c.X, k)
	case *CompareCond:
		return validateCompare(c, k)
	case *BetweenCond:
		return validateBetween(c, k)
	case *FuncCond:
		return validateFunc(c, k)
	}
	return validateOperands(condOperands(c), k)
}

func errBadFunc(name string) *apierr.Error {
	return apierr.Validationf(prefixCondition+msgBadFunc, name)
}

func errBadOperand(op Operand) *apierr.Error {
	return apierr.Validationf("Invalid ConditionExpression: unsupported operand %s", fmt.Sprintf("%T", op))
}
