package design

import (
	"fmt"
	"slices"
	"strings"
)

// fits reports whether entity e's templates in s can meet every
// condition of p's key: = overlaps the entity's template, begins_with
// overlaps it as a prefix; ranges are not judged.
func fits(p *Pattern, s *space, e *Entity) bool {
	for name, cond := range p.Key {
		tmpl, ok := e.Keys[s.name][name]
		if !ok {
			continue
		}
		switch cond.Op {
		case "=":
			if !Overlaps(cond.Value, tmpl) {
				return false
			}
		case "begins_with":
			if !overlaps(cond.Value, true, tmpl) {
				return false
			}
		}
	}
	return true
}

// matches wants the key condition to fit at least one returned entity,
// and warns when a filter must discard other entities the key reads.
func (c *checker) matches(p *Pattern, s *space, ents []*Entity) {
	if len(ents) > 0 && len(p.Key) > 0 && !slices.ContainsFunc(ents, func(e *Entity) bool { return fits(p, s, e) }) {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name)
		}
		c.add(p.Pos, "key-mismatch", p.Number, s.name, renderKey(p, s), strings.Join(names, ", "))
	}
	if p.Filter == "" || p.Operation != "Query" {
		return
	}
	var others []string
	for i := range c.d.Entities {
		e := &c.d.Entities[i]
		if in(e, s) && !slices.Contains(p.Returns, e.Name) && fits(p, s, e) {
			others = append(others, e.Name)
		}
	}
	if len(others) > 0 {
		c.add(p.Pos, "filter-discard", p.Number, strings.Join(others, ", "))
	}
}

// renderKey writes a pattern's key condition as a key condition
// expression, key attributes in the index's order.
func renderKey(p *Pattern, s *space) string {
	var out []string
	order := s.keyNames()
	for _, name := range sortedKeys(p.Key) {
		if !slices.Contains(order, name) {
			order = append(order, name)
		}
	}
	for _, name := range order {
		cond, ok := p.Key[name]
		if !ok {
			continue
		}
		switch cond.Op {
		case "between":
			out = append(out, fmt.Sprintf("%s BETWEEN %q AND %q", name, cond.Value, cond.Value2))
		case "begins_with":
			out = append(out, fmt.Sprintf("begins_with(%s, %q)", name, cond.Value))
		default:
			out = append(out, fmt.Sprintf("%s %s %q", name, cond.Op, cond.Value))
		}
	}
	return strings.Join(out, " AND ")
}

// projected wants every attribute a pattern on a secondary index reads
// to be projected into it.
func (c *checker) projected(p *Pattern, s *space, ents []*Entity) {
	if s.index == nil || s.index.Projection.Type == "ALL" {
		return
	}
	need := p.Attributes
	if len(need) == 0 {
		for _, e := range ents {
			for _, a := range e.Attributes {
				if !slices.Contains(need, a.Name) {
					need = append(need, a.Name)
				}
			}
		}
	}
	have := append(spaces(s.table)[0].keyNames(), s.keyNames()...)
	if s.index.Projection.Type == "INCLUDE" {
		have = append(have, s.index.Projection.Attributes...)
	}
	var missing []string
	for _, a := range need {
		if !slices.Contains(have, a) {
			missing = append(missing, a)
		}
	}
	if len(missing) == 0 {
		return
	}
	code := "proj-missing"
	if s.local {
		code = "lsi-fetch"
	}
	c.add(p.Pos, code, p.Number, strings.Join(missing, ", "), s.name)
}

// indexes warns of an index no pattern queries, and of entities in an
// index that no pattern on it returns and that could be left out of it.
func (c *checker) indexes() {
	for i := range c.d.Tables {
		t := &c.d.Tables[i]
		for _, s := range spaces(t)[1:] {
			var returned []string
			used := false
			for _, p := range c.d.Patterns {
				if p.Table == t.Name && p.Index == s.name {
					used = true
					returned = append(returned, p.Returns...)
				}
			}
			if !used {
				c.add(s.index.Pos, "index-unused", s.name)
				continue
			}
			for j := range c.d.Entities {
				e := &c.d.Entities[j]
				if in(e, s) && !slices.Contains(returned, e.Name) && canLeave(s) {
					c.add(orPos(e.KeysPos[s.name], e.Pos), "index-extra", s.name, e.Name, s.name, e.Name)
				}
			}
		}
	}
}

// canLeave reports whether items could stay out of index s: one of its
// keys is not one of the table's, which every item has (a
// reverse index of the table's own keys is dense by construction).
func canLeave(s *space) bool {
	table := spaces(s.table)[0]
	return slices.ContainsFunc(s.keyNames(), func(k string) bool { return !table.isKey(k) })
}

// collisions wants no two entities of a table able to have the same
// primary key: one would overwrite the other. Sharing a partition (an
// item collection) is how single-table design works and is not judged;
// their sort keys must then keep them apart.
func (c *checker) collisions() {
	for i := range c.d.Tables {
		t := &c.d.Tables[i]
		s := spaces(t)[0]
		var ents []*Entity
		for j := range c.d.Entities {
			if e := &c.d.Entities[j]; in(e, s) && c.entities[e.Name] == e {
				ents = append(ents, e)
			}
		}
		for j, a := range ents {
			for _, b := range ents[j+1:] {
				if collide(s, a, b) {
					c.add(orPos(b.KeysPos[t.Name], b.Pos), "collision", a.Name, b.Name, t.Name, describeKeys(s, a, b))
				}
			}
		}
	}
}

func collide(s *space, a, b *Entity) bool {
	for _, k := range s.keyNames() {
		if !Overlaps(a.Keys[s.name][k], b.Keys[s.name][k]) {
			return false
		}
	}
	return true
}

func describeKeys(s *space, a, b *Entity) string {
	var out []string
	for _, k := range s.keyNames() {
		out = append(out, fmt.Sprintf("%s %q and %q", k, a.Keys[s.name][k], b.Keys[s.name][k]))
	}
	return strings.Join(out, ", ")
}

func (c *checker) writes() {
	first := map[string]Pos{}
	for i := range c.d.Writes {
		w := &c.d.Writes[i]
		c.unique(first, "write", w.Number, w.Pos, fmt.Sprintf("write %d", i+1), "number")
		if w.Name == "" {
			c.add(w.Pos, "missing", "write "+w.Number, "name", "name")
		}
		if !slices.Contains(writeOps, w.Operation) {
			c.add(w.Pos, "write-op", w.Number, w.Operation)
		}
		if len(w.Entities) == 0 {
			c.add(w.Pos, "no-returns", "write "+w.Number, "writes", "entities")
		}
		for _, name := range w.Entities {
			if c.entities[name] == nil {
				c.add(w.Pos, "unknown-entity", "write "+w.Number, name, names(c.entities))
			}
		}
	}
}
