package coverage

import (
	"maps"
	"sync"
	"sync/atomic"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/expr"
)

// An application sends few distinct key condition (and search condition)
// expressions, each many times with other values: parsing one costs more
// than the rest of a classification, so its shape — attributes,
// operators and the :names of its values — is kept, and each request
// only looks its values up.

// shape is a parsed condition with its values left as :names.
type shape struct {
	names map[string]string // the #names it was resolved with
	terms []shapeTerm
	ok    bool // false: no pattern can match it
}

type shapeTerm struct {
	attr, op string
	vals     []string // :names
}

// shapes caches shapes by kind and expression, up to maxShapes of them.
type shapes struct {
	m sync.Map // shapeKey -> *shape
	n atomic.Int64
}

// shapeKey tells a key condition from a search condition of the same
// text: they are parsed by different rules.
type shapeKey struct {
	kind expr.Kind
	expr string
}

const maxShapes = 1024

// terms are the terms of condition e, of kind, with this request's
// #names and values.
func (c *shapes) terms(kind expr.Kind, e string, names map[string]string, values attr.Item, buf []term) ([]term, bool) {
	s := c.of(shapeKey{kind, e}, names, values)
	if !s.ok {
		return buf, false
	}
	return s.bind(values, buf)
}

// bind is the shape's terms with their :names looked up in values.
func (s *shape) bind(values attr.Item, buf []term) ([]term, bool) {
	for _, st := range s.terms {
		t := term{attr: st.attr, op: st.op, n: len(st.vals)}
		for i, name := range st.vals {
			v, ok := values[name]
			if !ok {
				return buf, false
			}
			if t.vals[i], ok = text(v); !ok {
				return buf, false
			}
		}
		buf = append(buf, t)
	}
	return buf, true
}

// of is the shape of k's expression as names resolve it: the cached one
// when they resolved it the same way. An expression that did not parse is
// not kept: the request's maps may be what failed (a :value it lacks),
// and DynamoDB refused that request, not the expression.
func (c *shapes) of(k shapeKey, names map[string]string, values attr.Item) *shape {
	if v, ok := c.m.Load(k); ok {
		if s := v.(*shape); maps.Equal(s.names, names) {
			return s
		}
		s, _ := parseShape(k, names, values)
		return s
	}
	s, err := parseShape(k, names, values)
	if err == nil && c.n.Add(1) <= maxShapes {
		c.m.Store(k, s)
	}
	return s
}

func parseShape(k shapeKey, names map[string]string, values attr.Item) (*shape, error) {
	s := &shape{names: names}
	c, err := expr.NewAttrs(names, values).ParseCondition(k.kind, k.expr)
	if err == nil {
		s.ok = s.add(c)
	}
	return s, err
}

func (s *shape) add(c expr.Cond) bool {
	switch c := c.(type) {
	case *expr.AndCond:
		return s.add(c.L) && s.add(c.R)
	case *expr.CompareCond:
		return s.term(c.Op, c.L, c.R)
	case *expr.BetweenCond:
		return s.term("between", c.X, c.Lo, c.Hi)
	case *expr.FuncCond:
		return c.Func == "begins_with" && len(c.Args) == 2 && s.term("begins_with", c.Args[0], c.Args[1])
	}
	return false
}

// term adds "path op values" when the operands are a top-level attribute
// and :values.
func (s *shape) term(op string, path expr.Operand, vals ...expr.Operand) bool {
	p, ok := path.(*expr.PathOperand)
	if !ok || len(p.Path) != 1 || len(vals) > 2 {
		return false
	}
	t := shapeTerm{attr: p.Path[0].Name, op: op}
	for _, v := range vals {
		vo, ok := v.(*expr.ValueOperand)
		if !ok {
			return false
		}
		t.vals = append(t.vals, vo.Name)
	}
	s.terms = append(s.terms, t)
	return true
}
