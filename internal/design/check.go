package design

import (
	"fmt"
	"slices"
	"strings"
)

// Check judges a parsed design: its structure, every pattern's key
// condition against the index it queries, the entities' key templates,
// key collisions, projections, unused and over-full indexes, Scans and
// wasteful filters. Findings come in file order; Check never modifies d.
func Check(d *Design) []Finding {
	c := newChecker(d)
	c.structure()
	c.allEntities()
	c.collisions()
	c.patterns()
	c.indexes()
	c.vectors()
	c.writes()
	slices.SortStableFunc(c.out, func(a, b Finding) int {
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line - b.Pos.Line
		}
		return a.Pos.Col - b.Pos.Col
	})
	return c.out
}

// space is a table or one of its indexes seen as what a request keys:
// its partition and sort key attributes.
type space struct {
	name   string
	table  *Table
	index  *Index // nil for the table itself
	local  bool
	pk, sk []KeyAttr
}

func (s *space) keyNames() []string {
	var out []string
	for _, k := range append(slices.Clone(s.pk), s.sk...) {
		out = append(out, k.Name)
	}
	return out
}

func (s *space) isKey(name string) bool { return slices.Contains(s.keyNames(), name) }

// spaces lists t itself, then its GSIs and LSIs.
func spaces(t *Table) []*space {
	out := []*space{{name: t.Name, table: t, pk: []KeyAttr{t.PartitionKey}}}
	if t.SortKey != nil {
		out[0].sk = []KeyAttr{*t.SortKey}
	}
	for i := range t.GSIs {
		x := &t.GSIs[i]
		out = append(out, &space{name: x.Name, table: t, index: x, pk: x.PartitionKey, sk: x.SortKey})
	}
	for i := range t.LSIs {
		x := &t.LSIs[i]
		out = append(out, &space{name: x.Name, table: t, index: x, local: true, pk: x.PartitionKey, sk: x.SortKey})
	}
	return out
}

type checker struct {
	d        *Design
	out      []Finding
	tables   map[string]*Table
	entities map[string]*Entity
	spaces   map[string]map[string]*space // table -> table or index name -> space
}

func newChecker(d *Design) *checker {
	c := &checker{d: d, tables: map[string]*Table{}, entities: map[string]*Entity{}, spaces: map[string]map[string]*space{}}
	for i := range d.Tables {
		t := &d.Tables[i]
		if _, dup := c.tables[t.Name]; dup || t.Name == "" {
			continue
		}
		c.tables[t.Name] = t
		c.spaces[t.Name] = map[string]*space{}
		for _, s := range spaces(t) {
			if _, dup := c.spaces[t.Name][s.name]; !dup && s.name != "" {
				c.spaces[t.Name][s.name] = s
			}
		}
	}
	for i := range d.Entities {
		if e := &d.Entities[i]; c.entities[e.Name] == nil && e.Name != "" {
			c.entities[e.Name] = e
		}
	}
	return c
}

func (c *checker) add(pos Pos, code string, args ...any) {
	m, ok := messages[code]
	if !ok {
		panic("design: no message for finding " + code) // a programming error, caught by the tests
	}
	c.out = append(c.out, Finding{Pos: pos, Severity: m.severity, Code: code, Message: fmt.Sprintf(m.format, args...)})
}

// unique reports a missing or duplicate name (or number, field) within
// one list, remembering first uses.
func (c *checker) unique(first map[string]Pos, what, name string, pos Pos, element, field string) {
	if name == "" {
		c.add(pos, "missing", element, field, field)
		return
	}
	if p, dup := first[name]; dup {
		c.add(pos, "duplicate", what, name, p.Line)
		return
	}
	first[name] = pos
}

func (c *checker) structure() {
	d := c.d
	if d.Version != 1 {
		c.add(d.Pos, "version", d.Version)
	}
	if d.Name == "" {
		c.add(d.Pos, "missing", "the design", "name", "name")
	}
	if len(d.Tables) == 0 {
		c.add(d.Pos, "no-tables")
	}
	names := map[string]Pos{}
	for i := range d.Tables {
		t := &d.Tables[i]
		c.unique(names, "table", t.Name, t.Pos, fmt.Sprintf("table %d", i+1), "name")
		c.table(t)
	}
}

var (
	keyTypes    = []string{"S", "N", "B"}
	attrTypes   = []string{"S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS"}
	billing     = []string{"", "PAY_PER_REQUEST", "PROVISIONED"}
	streams     = []string{"", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES", "KEYS_ONLY"}
	projections = []string{"ALL", "KEYS_ONLY", "INCLUDE"}
)

func (c *checker) table(t *Table) {
	if !slices.Contains(billing, t.BillingMode) {
		c.add(t.Pos, "billing", t.Name, t.BillingMode)
	}
	if !slices.Contains(streams, t.Stream) {
		c.add(t.Pos, "stream", t.Name, t.Stream)
	}
	types := map[string]string{}
	for _, s := range spaces(t) {
		c.keyAttrs(t, s, types)
	}
	names := map[string]Pos{}
	for i := range t.GSIs {
		c.unique(names, "index", t.GSIs[i].Name, t.GSIs[i].Pos, fmt.Sprintf("index %d of table %s", i+1, t.Name), "name")
		c.gsi(t, &t.GSIs[i])
	}
	for i := range t.LSIs {
		c.unique(names, "index", t.LSIs[i].Name, t.LSIs[i].Pos, fmt.Sprintf("local index %d of table %s", i+1, t.Name), "name")
		c.lsi(t, &t.LSIs[i])
	}
	c.vectorIndexes(t, names, types)
}

// keyAttrs checks a space's key attributes' names and types, and that an
// attribute keeps one type across the table and its indexes.
func (c *checker) keyAttrs(t *Table, s *space, types map[string]string) {
	what := "table " + t.Name
	if s.index != nil {
		what = "index " + s.name
	}
	for _, k := range append(slices.Clone(s.pk), s.sk...) {
		pos := orPos(k.Pos, t.Pos)
		if k.Name == "" {
			c.add(pos, "missing", what+"'s key attribute", "name", "name")
			continue
		}
		if !slices.Contains(keyTypes, k.Type) {
			c.add(pos, "key-type", what, k.Name, k.Type)
			continue
		}
		if prev, ok := types[k.Name]; ok && prev != k.Type {
			c.add(pos, "attr-conflict", what, k.Name, k.Type, prev, t.Name)
		} else if !ok {
			types[k.Name] = k.Type
		}
	}
}

func orPos(p, fallback Pos) Pos {
	if p.Line == 0 {
		return fallback
	}
	return p
}

func (c *checker) gsi(t *Table, x *Index) {
	if x.Name != "" && x.Name == t.Name {
		c.add(x.Pos, "index-is-table", x.Name)
	}
	if n := len(x.PartitionKey); n < 1 || n > 4 {
		c.add(x.Pos, "gsi-keys", x.Name, "partition key", n)
	}
	if n := len(x.SortKey); n > 4 {
		c.add(x.Pos, "gsi-keys", x.Name, "sort key", n)
	}
	c.projection(x)
}

func (c *checker) lsi(t *Table, x *Index) {
	if x.Name != "" && x.Name == t.Name {
		c.add(x.Pos, "index-is-table", x.Name)
	}
	if t.SortKey == nil {
		c.add(x.Pos, "lsi-table", x.Name, t.Name)
	}
	if len(x.PartitionKey) != 1 || x.PartitionKey[0].Name != t.PartitionKey.Name || x.PartitionKey[0].Type != t.PartitionKey.Type {
		c.add(x.Pos, "lsi-pk", x.Name, t.PartitionKey.Name, t.PartitionKey.Type)
	}
	if len(x.SortKey) != 1 {
		c.add(x.Pos, "lsi-sk", x.Name, len(x.SortKey))
	}
	c.projection(x)
}

func (c *checker) projection(x *Index) { c.projectionOf(x.Name, x.Projection, x.Pos) }

// projectionOf checks index name's projection p (written at pos, or in
// the index at fallback).
func (c *checker) projectionOf(name string, p Projection, fallback Pos) {
	pos := orPos(p.Pos, fallback)
	switch {
	case !slices.Contains(projections, p.Type):
		c.add(pos, "proj-type", name, p.Type)
	case p.Type == "INCLUDE" && len(p.Attributes) == 0:
		c.add(pos, "proj-include", name)
	case p.Type != "INCLUDE" && len(p.Attributes) > 0:
		c.add(pos, "proj-attrs", name, p.Type, strings.Join(p.Attributes, ", "))
	}
}

// names lists a map's keys sorted, for "use one of ..." messages.
func names[V any](m map[string]V) string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	if len(out) == 0 {
		return "(none declared)"
	}
	return strings.Join(out, ", ")
}
