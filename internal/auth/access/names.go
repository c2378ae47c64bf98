package access

import (
	"encoding/base64"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/expr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// names collects the top-level attribute names a request reads, writes or
// projects: dynamodb:Attributes.
type names struct {
	list  []string
	attrs *expr.Attrs
	exprs map[string]string
	vals  attr.Item
}

func newNames(exprNames map[string]string, vals attr.Item) *names {
	return &names{exprs: exprNames, vals: vals, list: make([]string, 0, 8)}
}

// parser returns the request's shared expression resolver, made on first
// use so that requests without expressions allocate none.
func (n *names) parser() *expr.Attrs {
	if n.attrs == nil {
		n.attrs = expr.NewAttrs(n.exprs, n.vals)
	}
	return n.attrs
}

func (n *names) add(name string) { n.list = append(n.list, name) }

func (n *names) path(p expr.Path) {
	if len(p) > 0 {
		n.add(p[0].Name)
	}
}

// unparsable records that an expression did not parse, so the names it
// held are unknown.
func (n *names) unparsable() { n.add(Unbounded) }

func (n *names) item(it attr.Item) {
	for name := range it {
		n.add(name)
	}
}

func (n *names) all(list []string) { n.list = append(n.list, list...) }

func (n *names) projection(s *string) {
	if s == nil {
		return
	}
	proj, err := n.parser().ParseProjection(*s)
	if err != nil {
		n.unparsable()
		return
	}
	for _, p := range proj {
		n.path(p)
	}
}

func (n *names) condition(kind expr.Kind, s *string) expr.Cond {
	if s == nil {
		return nil
	}
	c, err := n.parser().ParseCondition(kind, *s)
	if err != nil {
		n.unparsable()
		return nil
	}
	n.cond(c)
	return c
}

func (n *names) cond(c expr.Cond) {
	for _, p := range expr.CondPaths(c) {
		n.path(p)
	}
}

func (n *names) operand(o expr.Operand) { n.cond(&expr.CompareCond{L: o}) }

// update adds an UpdateExpression's targets and the paths its SET values
// read.
func (n *names) update(s *string) {
	if s == nil {
		return
	}
	u, err := n.parser().ParseUpdate(*s)
	if err != nil {
		n.unparsable()
		return
	}
	for _, a := range u.Set {
		n.path(a.Path)
		n.operand(a.Value)
	}
	for _, p := range u.Remove {
		n.path(p)
	}
	for _, a := range u.Add {
		n.path(a.Path)
	}
	for _, a := range u.Delete {
		n.path(a.Path)
	}
}

// legacy adds the names of a legacy map parameter (Expected,
// AttributeUpdates, KeyConditions, QueryFilter, ScanFilter).
func legacy[V any](n *names, m map[string]V) {
	for name := range m {
		n.add(name)
	}
}

// writeOptions adds the condition attributes every write can carry.
func (n *names) writeOptions(o *protocol.WriteOptions) {
	n.condition(expr.Condition, o.ConditionExpression)
	legacy(n, o.Expected)
}

func (n *names) values() []string { return set(n.list) }

// keyText is a partition key value as dynamodb:LeadingKeys holds it: an S
// as is, an N in DynamoDB's normalized text (so "1.50" and "1.5" are one
// key, as they are one item), a B in the base64 of the wire form. ok is
// false for any other type, which no key attribute can have.
func keyText(v attr.Value) (string, bool) {
	switch {
	case v.S != nil && v.Kind() == attr.S:
		return *v.S, true
	case v.N != nil && v.Kind() == attr.N:
		s, err := attr.NormalizeNumber(*v.N)
		return s, err == nil
	case v.B != nil && v.Kind() == attr.B:
		return base64.StdEncoding.EncodeToString(v.B), true
	}
	return "", false
}

// leading collects dynamodb:LeadingKeys.
type leading []string

// value adds one partition key value; a value that is missing or of no key
// type makes the request's partitions unknown.
func (l *leading) value(v attr.Value, ok bool) {
	s, good := keyText(v)
	if !ok || !good || s == "" {
		s = Unbounded
	}
	*l = append(*l, s)
}

// key adds the value of every partition attribute in the key or item.
func (l *leading) key(it attr.Item, t *target) {
	if !t.known || len(t.schema.Partition) == 0 {
		l.unbounded()
		return
	}
	for _, name := range t.schema.Partition {
		v, ok := it[name]
		l.value(v, ok)
	}
}

func (l *leading) unbounded() { *l = append(*l, Unbounded) }

func (l leading) values() []string { return set(l) }
