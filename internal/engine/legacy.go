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
	"NOT_CONTAINS": {1, func(p expr.Operand, vs []expr.Operand) expr.Cond {
		return &expr.NotCond{X: funcWith("contains")(p, vs)}
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

func expectedOne(name string, e protocol.ExpectedAttributeValue) (expr.Cond, error) {
	p := &expr.PathOperand{Path: expr.Path{{Name: name}}}
	if e.ComparisonOperator != nil {
		if e.Value != nil || e.Exists != nil {
			return nil, apierr.Validationf("One or more parameter values were invalid: Value or Exists cannot be used with ComparisonOperator and AttributeValueList together")
		}
		return comparison(p, *e.ComparisonOperator, e.AttributeValueList)
	}
	if e.AttributeValueList != nil {
		return nil, apierr.Validationf("One or more parameter values were invalid: AttributeValueList can only be used with a ComparisonOperator for Attribute: %s", name)
	}
	return existence(p, name, e)
}

func existence(p *expr.PathOperand, name string, e protocol.ExpectedAttributeValue) (expr.Cond, error) {
	exists := e.Exists == nil || *e.Exists
	switch {
	case exists && e.Value == nil:
		return nil, apierr.Validationf("One or more parameter values were invalid: Value must be provided when Exists is true for Attribute: %s", name)
	case !exists && e.Value != nil:
		return nil, apierr.Validationf("One or more parameter values were invalid: Value cannot be used when Exists is false for Attribute: %s", name)
	case !exists:
		return &expr.FuncCond{Func: "attribute_not_exists", Args: []expr.Operand{p}}, nil
	}
	return &expr.CompareCond{Op: "=", L: p, R: &expr.ValueOperand{Value: *e.Value}}, nil
}

func comparison(p *expr.PathOperand, op string, list []attr.Value) (expr.Cond, error) {
	spec, ok := legacyOps[op]
	if !ok {
		return nil, validate.BadComparisonOperator(op, "expected."+p.Path[0].Name+".member.comparisonOperator")
	}
	if (spec.args >= 0 && len(list) != spec.args) || (spec.args < 0 && len(list) == 0) {
		return nil, apierr.Validationf("One or more parameter values were invalid: Invalid number of argument(s) for the %s ComparisonOperator", op)
	}
	vs := make([]expr.Operand, len(list))
	for i := range list {
		vs[i] = &expr.ValueOperand{Value: list[i]}
	}
	return spec.build(p, vs), nil
}

// attributeUpdates translates AttributeUpdates into an update: PUT sets,
// DELETE without a value removes, DELETE with a set removes members, ADD
// adds numbers and sets (and appends lists, as the legacy API does).
func attributeUpdates(ups map[string]protocol.AttributeValueUpdate) (*expr.Update, error) {
	u := &expr.Update{}
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
		return apierr.Validationf("1 validation error detected: Value '%s' at 'attributeUpdates.%s.member.action' failed to satisfy constraint: Member must satisfy enum value set: [ADD, PUT, DELETE]", action, name)
	}
	return nil
}

// appendToList is list_append(if_not_exists(path, []), v).
func appendToList(path expr.Path, v *expr.ValueOperand) expr.Operand {
	empty := &expr.ValueOperand{Value: attr.Value{L: []attr.Value{}}}
	cur := &expr.CallOperand{Func: "if_not_exists", Args: []expr.Operand{&expr.PathOperand{Path: path}, empty}}
	return &expr.CallOperand{Func: "list_append", Args: []expr.Operand{cur, v}}
}
