package engine

import (
	"maps"
	"slices"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/expr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// The legacy parameters (Expected, AttributeUpdates) are translated into the
// trees their expression equivalents parse to, so one evaluator serves both.

// legacyOps maps a ComparisonOperator to how many values it takes (-1: one
// or more) and the condition it stands for.
var legacyOps = map[string]struct {
	args  int
	build func(p expr.Operand, vs []expr.Operand) expr.Cond
}{
	"EQ":       {1, compareWith("=")},
	"NE":       {1, compareWith("<>")},
	"LE":       {1, compareWith("<=")},
	"LT":       {1, compareWith("<")},
	"GE":       {1, compareWith(">=")},
	"GT":       {1, compareWith(">")},
	"NOT_NULL": {0, funcWith("attribute_exists")},
	"NULL":     {0, funcWith("attribute_not_exists")},
	"CONTAINS": {1, funcWith("contains")},
	// NOT_CONTAINS is false on a missing attribute, unlike NE and unlike
	// NOT contains(...) in an expression.
	"NOT_CONTAINS": {1, func(p expr.Operand, vs []expr.Operand) expr.Cond {
		exists := &expr.FuncCond{Func: "attribute_exists", Args: []expr.Operand{p}}
		return &expr.AndCond{L: exists, R: &expr.NotCond{X: funcWith("contains")(p, vs)}}
	}},
	"BEGINS_WITH": {1, funcWith("begins_with")},
	"IN":          {-1, func(p expr.Operand, vs []expr.Operand) expr.Cond { return &expr.InCond{X: p, List: vs} }},
	"BETWEEN": {2, func(p expr.Operand, vs []expr.Operand) expr.Cond {
		return &expr.BetweenCond{X: p, Lo: vs[0], Hi: vs[1]}
	}},
}

func compareWith(op string) func(expr.Operand, []expr.Operand) expr.Cond {
	return func(p expr.Operand, vs []expr.Operand) expr.Cond { return &expr.CompareCond{Op: op, L: p, R: vs[0]} }
}

func funcWith(name string) func(expr.Operand, []expr.Operand) expr.Cond {
	return func(p expr.Operand, vs []expr.Operand) expr.Cond {
		return &expr.FuncCond{Func: name, Args: append([]expr.Operand{p}, vs...)}
	}
}

// expectedCond translates Expected and ConditionalOperator into a condition.
// Attributes are visited in name order so errors are deterministic.
func expectedCond(exp map[string]protocol.ExpectedAttributeValue, op *string) (expr.Cond, error) {
	if op != nil && len(exp) == 0 {
		return nil, apierr.Validationf(msgOperatorAlone)
	}
	var out expr.Cond
	for _, name := range slices.Sorted(maps.Keys(exp)) {
		c, err := expectedOne(name, exp[name])
		if err != nil {
			return nil, err
		}
		out = combine(out, c, op != nil && *op == "OR")
	}
	return out, nil
}

func combine(acc, c expr.Cond, or bool) expr.Cond {
	switch {
	case acc == nil:
		return c
	case or:
		return &expr.OrCond{L: acc, R: c}
	}
	return &expr.AndCond{L: acc, R: c}
}

// The legacy parameters' messages. The Expected ones were checked
// against the service in 2026. Every shape rule is static: it fails the
// request before any item is read, never as a failed condition.
const (
	invalidParam            = "One or more parameter values were invalid: "
	msgListWithoutOperator  = invalidParam + "AttributeValueList can only be used with a ComparisonOperator for Attribute: %s"
	msgExistsWithOperator   = invalidParam + "Exists and ComparisonOperator cannot be used together for Attribute: %s"
	msgValueWithOperator    = invalidParam + "Value and ComparisonOperator cannot be used together for Attribute: %s"
	msgOperatorAlone        = invalidParam + "ConditionalOperator can only be used when Expected is not empty"
	msgValueWhenExistsNull  = invalidParam + "Value must be provided when Exists is null for Attribute: %s"
	msgValueWhenExistsTrue  = invalidParam + "Value must be provided when Exists is true for Attribute: %s"
	msgValueWhenExistsFalse = invalidParam + "Value cannot be used when Exists is false for Attribute: %s"
	msgArgumentCount        = invalidParam + "Invalid number of argument(s) for the %s ComparisonOperator"
	msgArgumentType         = invalidParam + "ComparisonOperator %s is not valid for %s AttributeValue type"
	msgSameTypes            = invalidParam + "AttributeValues inside AttributeValueList must be of same type"
	msgBetweenOrder         = "The BETWEEN condition was provided a range where the lower bound is bigger than the upper bound"
)

// expectedOne translates one Expected entry, checking its shape in the
// service's order: a list without an operator, Exists beside an operator,
// then the Exists / Value rules.
func expectedOne(name string, e protocol.ExpectedAttributeValue) (expr.Cond, error) {
	p := &expr.PathOperand{Path: expr.Path{{Name: name}}}
	switch {
	case e.AttributeValueList != nil && e.ComparisonOperator == nil:
		return nil, apierr.Validationf(msgListWithoutOperator, name)
	case e.ComparisonOperator != nil && e.Exists != nil:
		return nil, apierr.Validationf(msgExistsWithOperator, name)
	case e.ComparisonOperator != nil && e.Value != nil:
		return nil, apierr.Validationf(msgValueWithOperator, name)
	case e.ComparisonOperator != nil:
		return comparison(p, *e.ComparisonOperator, e.AttributeValueList)
	}
	return existence(p, name, e)
}

func existence(p *expr.PathOperand, name string, e protocol.ExpectedAttributeValue) (expr.Cond, error) {
	switch {
	case e.Exists == nil && e.Value == nil:
		return nil, apierr.Validationf(msgValueWhenExistsNull, name)
	case e.Exists != nil && *e.Exists && e.Value == nil:
		return nil, apierr.Validationf(msgValueWhenExistsTrue, name)
	case e.Exists != nil && !*e.Exists && e.Value != nil:
		return nil, apierr.Validationf(msgValueWhenExistsFalse, name)
	case e.Value == nil:
		return &expr.FuncCond{Func: "attribute_not_exists", Args: []expr.Operand{p}}, nil
	}
	return &expr.CompareCond{Op: "=", L: p, R: &expr.ValueOperand{Value: *e.Value}}, nil
}

// comparison translates a ComparisonOperator and its AttributeValueList,
// refusing a wrong number of values or values of a type the operator
// does not take, as the service does before reading any item.
func comparison(p *expr.PathOperand, op string, list []attr.Value) (expr.Cond, error) {
	spec, ok := legacyOps[op]
	if !ok {
		return nil, validate.BadComparisonOperator(op, "expected."+p.Path[0].Name+".member.comparisonOperator")
	}
	if (spec.args >= 0 && len(list) != spec.args) || (spec.args < 0 && len(list) == 0) {
		return nil, apierr.Validationf(msgArgumentCount, op)
	}
	if err := argumentTypes(op, list); err != nil {
		return nil, err
	}
	vs := make([]expr.Operand, len(list))
	for i := range list {
		vs[i] = &expr.ValueOperand{Value: list[i]}
	}
	return spec.build(p, vs), nil
}

// argumentTypes checks the values against the types the Developer Guide
// lists for the operator ("Legacy conditional parameters"): EQ and NE take
// any type, BEGINS_WITH a string or binary, the others a string, number
// or binary; BETWEEN's two of one type, in order.
func argumentTypes(op string, list []attr.Value) error {
	for i := range list {
		if k := list[i].Kind(); !argumentAllowed(op, k) {
			return apierr.Validationf(msgArgumentType, op, k)
		}
	}
	if op == "IN" {
		return sameTypes(list)
	}
	if op != "BETWEEN" {
		return nil
	}
	c, ok := attr.Compare(&list[0], &list[1])
	switch {
	case !ok:
		return apierr.Validationf(msgSameTypes)
	case c > 0:
		return apierr.Validationf(msgBetweenOrder)
	}
	return nil
}

// sameTypes refuses IN's values when they are not all of one type.
func sameTypes(list []attr.Value) error {
	for i := range list {
		if list[i].Kind() != list[0].Kind() {
			return apierr.Validationf(msgSameTypes)
		}
	}
	return nil
}

func argumentAllowed(op string, k attr.Kind) bool {
	switch op {
	case "EQ", "NE":
		return true
	case "BEGINS_WITH":
		return k == attr.S || k == attr.B
	}
	return k == attr.S || k == attr.N || k == attr.B
}

// attributeUpdates translates AttributeUpdates into an update: PUT sets,
// DELETE without a value removes, DELETE with a set removes members, ADD
// adds numbers and sets (and appends lists, as the legacy API does).
func attributeUpdates(ups map[string]protocol.AttributeValueUpdate) (*expr.Update, error) {
	u := &expr.Update{Legacy: true}
	for _, name := range slices.Sorted(maps.Keys(ups)) {
		if err := addLegacyAction(u, name, ups[name]); err != nil {
			return nil, err
		}
	}
	return u, nil
}

func addLegacyAction(u *expr.Update, name string, a protocol.AttributeValueUpdate) error {
	path := expr.Path{{Name: name}}
	action := "PUT"
	if a.Action != nil {
		action = *a.Action
	}
	if a.Value == nil && action != "DELETE" {
		return apierr.Validationf("One or more parameter values were invalid: Only DELETE action is allowed when no attribute value is specified")
	}
	v := &expr.ValueOperand{}
	if a.Value != nil {
		v.Value = *a.Value
	}
	switch {
	case action == "PUT":
		u.Set = append(u.Set, expr.SetAction{Path: path, Value: v})
	case action == "DELETE" && a.Value == nil:
		u.Remove = append(u.Remove, path)
	case action == "DELETE":
		u.Delete = append(u.Delete, expr.DeleteAction{Path: path, Value: v})
	case action == "ADD" && a.Value.L != nil:
		u.Set = append(u.Set, expr.SetAction{Path: path, Value: appendToList(path, v)})
	case action == "ADD":
		u.Add = append(u.Add, expr.AddAction{Path: path, Value: v})
	default:
		return validate.BadAttributeAction(action, name)
	}
	return nil
}

// appendToList is list_append(if_not_exists(path, []), v).
func appendToList(path expr.Path, v *expr.ValueOperand) expr.Operand {
	empty := &expr.ValueOperand{Value: attr.Value{L: []attr.Value{}}}
	cur := &expr.CallOperand{Func: "if_not_exists", Args: []expr.Operand{&expr.PathOperand{Path: path}, empty}}
	return &expr.CallOperand{Func: "list_append", Args: []expr.Operand{cur, v}}
}
