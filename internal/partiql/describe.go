package partiql

import (
	"slices"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/expr"
)

// Access control (internal/auth/access) must know, before anything runs,
// which partitions and attributes a statement touches. These read the parsed
// statement only; they neither plan nor run it.

// PartitionValues returns the values a statement pins the attribute name
// to: an INSERT's item value, or a WHERE conjunct that is name = v,
// name IN [..] or an OR of such equalities (the forms the SELECT reference
// lists as not a full scan). ok is false when no conjunct pins it, which
// for a SELECT is a full table scan.
func (st *Statement) PartitionValues(name string) (vals []attr.Value, ok bool) {
	if st.Kind == Insert {
		v, ok := st.Item[name]
		return []attr.Value{v}, ok
	}
	for _, c := range conjuncts(st.Where) {
		if vals, ok := pinned(c, name); ok {
			return vals, true
		}
	}
	return nil, false
}

// pinned returns the values c restricts name to, when c restricts it to a
// finite list.
func pinned(c expr.Cond, name string) ([]attr.Value, bool) {
	if v, ok := equality(c, name); ok {
		return []attr.Value{v}, true
	}
	switch c := c.(type) {
	case *expr.InCond:
		return inValues(c, name)
	case *expr.OrCond:
		l, lok := pinned(c.L, name)
		r, rok := pinned(c.R, name)
		return append(l, r...), lok && rok
	}
	return nil, false
}

func inValues(c *expr.InCond, name string) ([]attr.Value, bool) {
	if !isName(c.X, name) {
		return nil, false
	}
	vals := make([]attr.Value, 0, len(c.List))
	for _, o := range c.List {
		v, ok := o.(*expr.ValueOperand)
		if !ok {
			return nil, false
		}
		vals = append(vals, v.Value)
	}
	return vals, true
}

// AttributeNames returns the top-level attribute names the statement reads
// or writes (projection, WHERE, ORDER BY, SET and REMOVE paths and the
// values SET reads, an INSERT's item), sorted, without repeats.
func (st *Statement) AttributeNames() []string {
	var names []string
	add := func(p expr.Path) {
		if len(p) > 0 {
			names = append(names, p[0].Name)
		}
	}
	for _, p := range st.Projection {
		add(p)
	}
	for _, p := range expr.CondPaths(st.Where) {
		add(p)
	}
	add(st.OrderBy)
	updateNames(st.Update, add)
	for name := range st.Item {
		names = append(names, name)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

func updateNames(u *expr.Update, add func(expr.Path)) {
	if u == nil {
		return
	}
	for _, s := range u.Set {
		add(s.Path)
		for _, p := range expr.CondPaths(&expr.CompareCond{L: s.Value}) {
			add(p)
		}
	}
	for _, p := range u.Remove {
		add(p)
	}
}
