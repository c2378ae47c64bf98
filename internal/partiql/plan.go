package partiql

import (
	"cmp"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/expr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// keys are the key attribute names of the table or index a statement
// names; sort is "" when there is no sort key.
type keys struct{ partition, sort string }

// Plan is the native request a statement runs as: exactly one field set.
type Plan struct {
	Get    *protocol.GetItemInput    `json:",omitempty"`
	Query  *protocol.QueryInput      `json:",omitempty"`
	Scan   *protocol.ScanInput       `json:",omitempty"`
	Put    *protocol.PutItemInput    `json:",omitempty"`
	Update *protocol.UpdateItemInput `json:",omitempty"`
	Delete *protocol.DeleteItemInput `json:",omitempty"`
	Check  *protocol.TransactAction  `json:",omitempty"` // EXISTS, as a ConditionCheck
	// Paths is a SELECT's projection when it names a document path: the
	// answer holds each path's value under its last name (facts 36.3).
	Paths expr.Projection `json:"-"`
}

// conjuncts flattens the top-level ANDs of c.
func conjuncts(c expr.Cond) []expr.Cond {
	if a, ok := c.(*expr.AndCond); ok {
		return append(conjuncts(a.L), conjuncts(a.R)...)
	}
	if c == nil {
		return nil
	}
	return []expr.Cond{c}
}

// and joins conditions back; nil for none.
func and(cs []expr.Cond) expr.Cond {
	var c expr.Cond
	for _, x := range cs {
		if c == nil {
			c = x
		} else {
			c = &expr.AndCond{L: c, R: x}
		}
	}
	return c
}

// isName reports whether o is the top-level attribute name.
func isName(o expr.Operand, name string) bool {
	p, ok := o.(*expr.PathOperand)
	return ok && len(p.Path) == 1 && !p.Path[0].IsIndex && p.Path[0].Name == name
}

// equality returns the value c pins name to, when c is name = value.
func equality(c expr.Cond, name string) (attr.Value, bool) {
	cmp, ok := c.(*expr.CompareCond)
	if !ok || cmp.Op != "=" {
		return attr.Value{}, false
	}
	l, r := cmp.L, cmp.R
	if !isName(l, name) {
		l, r = r, l
	}
	v, isValue := r.(*expr.ValueOperand)
	if !isName(l, name) || !isValue {
		return attr.Value{}, false
	}
	return v.Value, true
}

// sortCondition reports whether c is a condition a KeyConditionExpression
// accepts on the sort key.
func sortCondition(c expr.Cond, name string) bool {
	switch c := c.(type) {
	case *expr.CompareCond:
		return c.Op != "<>" && (isName(c.L, name) || isName(c.R, name))
	case *expr.BetweenCond:
		return isName(c.X, name)
	case *expr.FuncCond:
		return c.Func == "begins_with" && isName(c.Args[0], name)
	}
	return false
}

// splitKey takes the key equalities out of conds: the key they pin (nil
// when they do not pin the whole key) and the conditions left.
func splitKey(conds []expr.Cond, k keys) (attr.Item, []expr.Cond) {
	key, rest := attr.Item{}, []expr.Cond{}
	for _, c := range conds {
		if v, ok := equality(c, k.partition); ok && !has(key, k.partition) {
			key[k.partition] = v
		} else if v, ok := equality(c, k.sort); ok && k.sort != "" && !has(key, k.sort) {
			key[k.sort] = v
		} else {
			rest = append(rest, c)
		}
	}
	if !has(key, k.partition) || (k.sort != "" && !has(key, k.sort)) {
		return nil, rest
	}
	return key, rest
}

func has(it attr.Item, name string) bool { _, ok := it[name]; return ok }

// refuse is the error of a statement that cannot run as planned.
func refuse(msg string) error { return apierr.Validationf("%s", msg) }

// The longest IN lists DynamoDB documents (ql-operators): on the partition
// key, and on any other attribute.
const (
	maxInKey    = 50
	maxInValues = 100
)

// inLimits refuses the first IN, anywhere in c, longer than DynamoDB allows.
func inLimits(c expr.Cond, k keys) error {
	switch c := c.(type) {
	case *expr.AndCond:
		return cmp.Or(inLimits(c.L, k), inLimits(c.R, k))
	case *expr.OrCond:
		return cmp.Or(inLimits(c.L, k), inLimits(c.R, k))
	case *expr.NotCond:
		return inLimits(c.X, k)
	case *expr.InCond:
		return inLimit(c, k)
	}
	return nil
}

func inLimit(c *expr.InCond, k keys) error {
	if isName(c.X, k.partition) && len(c.List) > maxInKey {
		return refuse(msgInKey)
	}
	if len(c.List) > maxInValues {
		return refuse(msgInValues)
	}
	return nil
}
