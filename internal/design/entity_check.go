package design

import (
	"fmt"
	"slices"
	"strings"
)

func (c *checker) allEntities() {
	first := map[string]Pos{}
	for i := range c.d.Entities {
		e := &c.d.Entities[i]
		c.unique(first, "entity", e.Name, e.Pos, fmt.Sprintf("entity %d", i+1), "name")
		c.entity(e)
	}
}

func (c *checker) entity(e *Entity) {
	attrs := map[string]Pos{}
	for _, a := range e.Attributes {
		c.unique(attrs, "attribute of entity "+e.Name, a.Name, a.Pos, "an attribute of entity "+e.Name, "name")
		if !slices.Contains(attrTypes, a.Type) {
			c.add(orPos(a.Pos, e.Pos), "attr-type", e.Name, a.Name, a.Type)
		}
	}
	if dc := e.Discriminator; dc != nil && !slices.ContainsFunc(e.Attributes, func(a Attribute) bool { return a.Name == dc.Attribute }) {
		c.add(orPos(dc.Pos, e.Pos), "discriminator", e.Name, dc.Attribute, dc.Attribute)
	}
	t := c.tables[e.Table]
	if t == nil {
		c.add(e.Pos, "entity-table", e.Name, e.Table, names(c.tables))
		return
	}
	if _, ok := e.Keys[t.Name]; !ok {
		c.add(e.Pos, "no-table-keys", e.Name, t.Name, t.Name)
	}
	// The table's entry is the reference the indexes' entries must agree with.
	order := sortedKeys(e.Keys)
	if i := slices.Index(order, t.Name); i > 0 {
		order = append([]string{t.Name}, slices.Delete(order, i, i+1)...)
	}
	values := map[string]string{} // attribute -> the keys entry that first gave its template
	for _, sp := range order {
		c.entityKeys(e, t, sp, values)
	}
}

// entityKeys checks one keys entry: it names the table or an index, gives
// a template for exactly its key attributes, each parsing, declared with
// the key's type, and the same as any other entry's for that attribute.
func (c *checker) entityKeys(e *Entity, t *Table, sp string, values map[string]string) {
	pos := orPos(e.KeysPos[sp], e.Pos)
	s := c.spaces[t.Name][sp]
	if s == nil {
		c.add(pos, "keys-space", e.Name, sp, t.Name, indexNames(t))
		return
	}
	tmpls := e.Keys[sp]
	for _, k := range append(slices.Clone(s.pk), s.sk...) {
		tmpl, ok := tmpls[k.Name]
		if !ok {
			c.add(pos, "keys-missing", e.Name, sp, k.Name, k.Name)
			continue
		}
		if _, err := tmpl.Parts(); err != nil {
			c.add(pos, "template", "entity "+e.Name+" keys."+sp+"."+k.Name, string(tmpl), err)
		}
		c.keyAttrDeclared(e, k, pos)
		if other, ok := values[k.Name]; ok && e.Keys[other][k.Name] != tmpl {
			c.add(pos, "keys-differ", e.Name, k.Name, string(tmpl), sp, string(e.Keys[other][k.Name]), other)
		} else if !ok {
			values[k.Name] = sp
		}
	}
	for _, name := range sortedKeys(tmpls) {
		if !s.isKey(name) {
			c.add(pos, "keys-extra", e.Name, sp, name, sp, strings.Join(s.keyNames(), ", "))
		}
	}
}

// keyAttrDeclared wants a key attribute among the entity's attributes,
// with the key's type; an entity that lists no attributes is not judged.
func (c *checker) keyAttrDeclared(e *Entity, k KeyAttr, pos Pos) {
	if len(e.Attributes) == 0 || k.Name == "" {
		return
	}
	i := slices.IndexFunc(e.Attributes, func(a Attribute) bool { return a.Name == k.Name })
	switch {
	case i < 0:
		c.add(pos, "key-undeclared", e.Name, k.Name, k.Name, k.Type)
	case e.Attributes[i].Type != k.Type && slices.Contains(keyTypes, k.Type):
		c.add(orPos(e.Attributes[i].Pos, pos), "key-attr-type", e.Name, k.Name, e.Attributes[i].Type, k.Type, k.Type)
	}
}

func indexNames(t *Table) string {
	var out []string
	for _, x := range append(slices.Clone(t.GSIs), t.LSIs...) {
		out = append(out, x.Name)
	}
	if len(out) == 0 {
		return "it has none"
	}
	return strings.Join(out, ", ")
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// in reports whether entity e lives in space s: it belongs to s's table
// and has a keys entry for s.
func in(e *Entity, s *space) bool {
	_, ok := e.Keys[s.name]
	return ok && e.Table == s.table.Name
}
