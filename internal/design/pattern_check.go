package design

import (
	"fmt"
	"slices"
	"strings"
)

var (
	readOps  = []string{"GetItem", "Query", "Scan", "BatchGetItem", "TransactGetItems", SearchOp}
	writeOps = []string{"PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems"}
	keyOps   = []string{"=", "<", "<=", ">", ">=", "between", "begins_with"}
)

// getLike are the operations that read items by their full primary key.
func getLike(op string) bool {
	return op == "GetItem" || op == "BatchGetItem" || op == "TransactGetItems"
}

func (c *checker) patterns() {
	first := map[string]Pos{}
	for i := range c.d.Patterns {
		p := &c.d.Patterns[i]
		c.unique(first, "pattern", p.Number, p.Pos, fmt.Sprintf("pattern %d", i+1), "number")
		c.pattern(p)
	}
}

func (c *checker) pattern(p *Pattern) {
	if p.Name == "" {
		c.add(p.Pos, "missing", "pattern "+p.Number, "name", "name")
	}
	if p.Direction != "" && p.Direction != "forward" && p.Direction != "backward" {
		c.add(p.Pos, "direction", p.Number, p.Direction)
	}
	if p.PageSize < 0 {
		c.add(p.Pos, "negative", p.Number, "pageSize", p.PageSize)
	}
	if p.ExpectedItems < 0 {
		c.add(p.Pos, "negative", p.Number, "expectedItems", p.ExpectedItems)
	}
	if p.Operation == SearchOp {
		c.search(p)
		return
	}
	if p.TopK != 0 {
		c.add(p.Pos, "topk-other", p.Number, p.Operation)
	}
	s := c.patternSpace(p)
	ents := c.returned(p, s)
	if s == nil || !slices.Contains(readOps, p.Operation) {
		return
	}
	c.conditions(p, s)
	switch {
	case getLike(p.Operation):
		c.get(p, s)
	case p.Operation == "Scan":
		c.scan(p, s)
	default:
		c.query(p, s)
	}
	c.matches(p, s, ents)
	c.projected(p, s, ents)
}

// patternSpace resolves the table or index a pattern reads, reporting an
// unknown operation, table or index.
func (c *checker) patternSpace(p *Pattern) *space {
	if !slices.Contains(readOps, p.Operation) {
		c.add(p.Pos, "operation", p.Number, p.Operation)
	}
	t := c.tables[p.Table]
	if t == nil {
		c.add(p.Pos, "pattern-table", p.Number, p.Table, names(c.tables))
		return nil
	}
	if getLike(p.Operation) && p.Index != "" {
		c.add(p.Pos, "get-index", p.Number, p.Operation, p.Index)
	}
	if p.Index == "" || getLike(p.Operation) {
		return c.spaces[t.Name][t.Name]
	}
	s := c.spaces[t.Name][p.Index]
	switch {
	case (s == nil || s.index == nil) && VectorIndexOf(t, p.Index) != nil:
		c.add(p.Pos, "vector-read", p.Number, p.Index, p.Operation)
		return nil
	case s == nil || s.index == nil:
		c.add(p.Pos, "pattern-index", p.Number, t.Name, p.Index, indexNames(t))
		return nil
	}
	return s
}

// returned resolves the entities a pattern returns that live in s.
func (c *checker) returned(p *Pattern, s *space) []*Entity {
	if len(p.Returns) == 0 {
		c.add(p.Pos, "no-returns", "pattern "+p.Number, "reads", "returns")
	}
	var out []*Entity
	for _, name := range p.Returns {
		e := c.entities[name]
		switch {
		case e == nil:
			c.add(p.Pos, "unknown-entity", "pattern "+p.Number, name, names(c.entities))
		case s == nil:
		case !in(e, s):
			c.add(p.Pos, "not-in-index", p.Number, name, s.name, s.name)
		default:
			out = append(out, e)
		}
	}
	return out
}

// conditions checks each condition on its own: a key attribute, a valid
// operator for its type, between with value2, templates that parse.
func (c *checker) conditions(p *Pattern, s *space) {
	for _, name := range sortedKeys(p.Key) {
		cond, pos := p.Key[name], orPos(p.KeyPos[name], p.Pos)
		if !s.isKey(name) && p.Operation != "Scan" {
			c.add(pos, "not-key-attr", p.Number, name, s.name, strings.Join(s.keyNames(), ", "), name)
		}
		switch {
		case !slices.Contains(keyOps, cond.Op):
			c.add(pos, "op", p.Number, name, cond.Op)
		case cond.Op == "begins_with" && s.keyType(name) == "N":
			c.add(pos, "begins-type", p.Number, name)
		case cond.Op == "between" && cond.Value2 == "":
			c.add(pos, "between", p.Number, name)
		case cond.Op != "between" && cond.Value2 != "":
			c.add(pos, "value2", p.Number, name, cond.Op)
		}
		for _, v := range []Template{cond.Value, cond.Value2} {
			if _, err := v.Parts(); err != nil {
				c.add(pos, "template", "pattern "+p.Number+" key."+name, string(v), err)
			}
		}
	}
}

func (s *space) keyType(name string) string {
	for _, k := range append(slices.Clone(s.pk), s.sk...) {
		if k.Name == name {
			return k.Type
		}
	}
	return ""
}

// get wants the table's full primary key, each attribute with =, and no
// filter.
func (c *checker) get(p *Pattern, s *space) {
	var want []string
	full := true
	for _, k := range append(slices.Clone(s.pk), s.sk...) {
		want = append(want, k.Name+": \"...\"")
		if cond, ok := p.Key[k.Name]; !ok || cond.Op != "=" {
			full = false
		}
	}
	if !full {
		c.add(p.Pos, "get-key", p.Number, p.Operation, strings.Join(want, ", "))
	}
	if p.Filter != "" {
		c.add(p.Pos, "get-filter", p.Number, p.Operation)
	}
}

func (c *checker) scan(p *Pattern, s *space) {
	if len(p.Key) > 0 {
		c.add(p.Pos, "scan-key", p.Number)
	}
	c.add(p.Pos, "scan", p.Number, s.name, scanKeyHint(p.Filter))
}

// query applies DynamoDB's key condition rules: every partition key
// attribute with =; sort key attributes left to right, a range only on
// the last one given.
func (c *checker) query(p *Pattern, s *space) {
	for _, k := range s.pk {
		cond, ok := p.Key[k.Name]
		switch {
		case !ok:
			c.add(p.Pos, "pk-missing", p.Number, s.name, k.Name, k.Name)
		case cond.Op != "=" && slices.Contains(keyOps, cond.Op):
			c.add(orPos(p.KeyPos[k.Name], p.Pos), "pk-op", p.Number, k.Name, cond.Op)
		}
	}
	last := -1
	for i, k := range s.sk {
		if _, ok := p.Key[k.Name]; ok {
			last = i
		}
	}
	for i := 0; i <= last; i++ {
		k := s.sk[i]
		cond, ok := p.Key[k.Name]
		pos := orPos(p.KeyPos[s.sk[last].Name], p.Pos)
		switch {
		case !ok:
			c.add(pos, "sk-gap", p.Number, s.sk[last].Name, k.Name, k.Name)
		case i < last && cond.Op != "=":
			c.add(orPos(p.KeyPos[k.Name], p.Pos), "sk-range", p.Number, k.Name, cond.Op)
		}
	}
}

// scanKeyHint guesses the attribute a Scan selects on: the first
// attribute name in its filter.
func scanKeyHint(filter string) string {
	words := strings.FieldsFunc(filter, func(r rune) bool {
		return !(r == '_' || r == ':' || r == '#' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	})
	for _, w := range words {
		if w[0] != ':' && w[0] != '#' && !filterWords[strings.ToLower(w)] && !(w[0] >= '0' && w[0] <= '9') {
			return w
		}
	}
	return "the attribute it selects on"
}

var filterWords = map[string]bool{
	"and": true, "or": true, "not": true, "between": true, "in": true, "size": true, "contains": true,
	"begins_with": true, "attribute_exists": true, "attribute_not_exists": true, "attribute_type": true,
}
