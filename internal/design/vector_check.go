package design

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sortkeydb/sortkey/internal/vector"
)

var distances = []string{"COSINE", "EUCLIDEAN", "DOT_PRODUCT"}

// vectorIndexes checks table t's vector indexes by the rules CreateTable
// applies: an on-demand table, at most vector.MaxIndexesPerTable, names
// unique among all its indexes (names), search attributes typed S, N or
// B and as the keys type them (types), one length per vector attribute.
func (c *checker) vectorIndexes(t *Table, names map[string]Pos, types map[string]string) {
	if len(t.VectorIndexes) > 0 && t.BillingMode == "PROVISIONED" {
		c.add(t.VectorIndexes[0].Pos, "vector-billing", t.Name)
	}
	// Every search attribute's type is known before any vector attribute
	// is judged, so that one index's vector cannot be another's filter.
	for i := range t.VectorIndexes {
		c.searchSchema(t, &t.VectorIndexes[i], types)
	}
	first := map[string]*VectorIndex{} // vector attribute -> its first index
	for i := range t.VectorIndexes {
		v := &t.VectorIndexes[i]
		c.unique(names, "index", v.Name, v.Pos, fmt.Sprintf("vector index %d of table %s", i+1, t.Name), "name")
		if i == vector.MaxIndexesPerTable {
			c.add(v.Pos, "vector-count", t.Name, len(t.VectorIndexes), vector.MaxIndexesPerTable)
		}
		c.vectorIndex(t, v, types)
		c.sameDimensions(v, first)
	}
}

func (c *checker) vectorIndex(t *Table, v *VectorIndex, types map[string]string) {
	if v.Name != "" && v.Name == t.Name {
		c.add(v.Pos, "index-is-table", v.Name)
	}
	switch typ, isKey := types[v.VectorAttribute]; {
	case v.VectorAttribute == "":
		c.add(v.Pos, "missing", "vector index "+v.Name, "vectorAttribute", "vectorAttribute")
	case isKey:
		c.add(v.Pos, "vector-scalar", v.Name, v.VectorAttribute, typ, t.Name)
	}
	if v.Dimensions < 1 || v.Dimensions > vector.MaxDimensions {
		c.add(v.Pos, "vector-dims", v.Name, v.Dimensions, vector.MaxDimensions)
	}
	if !slices.Contains(distances, v.DistanceFunction) {
		c.add(v.Pos, "vector-distance", v.Name, v.DistanceFunction)
	}
	if len(v.Filters) > vector.MaxInlineFilters {
		c.add(v.Pos, "vector-filters", v.Name, len(v.Filters), vector.MaxInlineFilters)
	}
	c.projectionOf(v.Name, v.Projection, v.Pos)
}

// searchSchema checks v's hash and filters: named once each, not the
// vector, typed S, N or B, and one type per attribute across the table.
func (c *checker) searchSchema(t *Table, v *VectorIndex, types map[string]string) {
	seen := map[string]bool{}
	what := "vector index " + v.Name
	for _, k := range v.searchAttrs() {
		pos := orPos(k.Pos, v.Pos)
		switch prev, typed := types[k.Name]; {
		case k.Name == "":
			c.add(pos, "missing", what+"'s search attribute", "name", "name")
		case seen[k.Name]:
			c.add(pos, "vector-schema-twice", v.Name, k.Name)
		case k.Name == v.VectorAttribute:
			c.add(pos, "vector-in-schema", v.Name, k.Name)
		case !slices.Contains(keyTypes, k.Type):
			c.add(pos, "key-type", what, k.Name, k.Type)
		case typed && prev != k.Type:
			c.add(pos, "attr-conflict", what, k.Name, k.Type, prev, t.Name)
		default:
			types[k.Name] = k.Type
		}
		seen[k.Name] = true
	}
}

// sameDimensions wants indexes of one vector attribute to agree on its
// length, as CreateTable does.
func (c *checker) sameDimensions(v *VectorIndex, first map[string]*VectorIndex) {
	f, ok := first[v.VectorAttribute]
	switch {
	case v.VectorAttribute == "":
	case !ok:
		first[v.VectorAttribute] = v
	case f.Dimensions != v.Dimensions:
		c.add(v.Pos, "vector-dims-differ", v.Name, v.VectorAttribute, v.Dimensions, f.Dimensions, f.Name)
	}
}

// vectors checks what the design says of its vector indexes beyond
// their declarations: entities' types for their attributes, and that a
// pattern reads each index.
func (c *checker) vectors() {
	for i := range c.d.Entities {
		e := &c.d.Entities[i]
		if t := c.tables[e.Table]; t != nil {
			c.vectorEntity(e, t)
		}
	}
	c.vectorUsage()
}

// vectorEntity wants e's vector attributes declared L and its search
// attributes with the index's type.
func (c *checker) vectorEntity(e *Entity, t *Table) {
	for _, a := range e.Attributes {
		for i := range t.VectorIndexes {
			v := &t.VectorIndexes[i]
			if a.Name == v.VectorAttribute && a.Type != "L" && slices.Contains(attrTypes, a.Type) {
				c.add(orPos(a.Pos, e.Pos), "vector-type", e.Name, a.Name, v.Name, a.Type)
			}
			// The vector named as a search attribute is reported on the index.
			if k := searchAttr(v, a.Name); k != nil && a.Name != v.VectorAttribute && a.Type != k.Type && slices.Contains(keyTypes, k.Type) {
				c.add(orPos(a.Pos, e.Pos), "search-attr-type", e.Name, a.Name, a.Type, v.Name, k.Type, k.Type)
			}
		}
	}
}

func searchAttr(v *VectorIndex, name string) *KeyAttr {
	for _, k := range v.searchAttrs() {
		if k.Name == name {
			return &k
		}
	}
	return nil
}

// vectorUsage warns of a vector index no pattern searches: every write
// of an item with a vector pays for its entry.
func (c *checker) vectorUsage() {
	for _, t := range c.d.Tables {
		for _, v := range t.VectorIndexes {
			if !slices.ContainsFunc(c.d.Patterns, func(p Pattern) bool { return p.Table == t.Name && p.Index == v.Name }) {
				c.add(v.Pos, "index-unused", v.Name)
			}
		}
	}
}

// search checks a SearchVectors pattern: a vector index of a declared
// table, topK in range, none of Query's options, entities that are in the
// index, equalities on its hash and filters only, the hash given, and
// what it reads projected.
func (c *checker) search(p *Pattern) {
	c.searchOptions(p)
	t, v := c.searchIndex(p)
	c.returned(p, nil)
	if v == nil {
		return
	}
	ents := c.searchReturns(p, t, v)
	c.searchKey(p, v)
	c.searchProjected(p, t, v, ents)
}

func (c *checker) searchOptions(p *Pattern) {
	if p.TopK < vector.MinTopK || p.TopK > vector.MaxTopK {
		c.add(p.Pos, "topk", p.Number, p.TopK, vector.MinTopK, vector.MaxTopK)
	}
	for _, o := range []struct {
		set        bool
		name, hint string
	}{
		{p.Filter != "", "filter", "put equalities on the index's filters under key:"},
		{p.Direction != "", "direction", "results come nearest first"},
		{p.PageSize != 0, "pageSize", "topK is how many it returns"},
	} {
		if o.set {
			c.add(p.Pos, "search-option", p.Number, o.name, o.name, o.hint)
		}
	}
}

// searchIndex resolves the table and vector index a pattern searches.
func (c *checker) searchIndex(p *Pattern) (*Table, *VectorIndex) {
	t := c.tables[p.Table]
	if t == nil {
		c.add(p.Pos, "pattern-table", p.Number, p.Table, names(c.tables))
		return nil, nil
	}
	v := VectorIndexOf(t, p.Index)
	if v == nil {
		c.add(p.Pos, "search-index", p.Number, t.Name, p.Index, vectorIndexNames(t))
	}
	return t, v
}

func vectorIndexNames(t *Table) string {
	var out []string
	for _, v := range t.VectorIndexes {
		out = append(out, v.Name)
	}
	if len(out) == 0 {
		return "none: declare one under vectorIndexes"
	}
	return strings.Join(out, ", ")
}

// searchReturns are the entities p returns that can be in v, reporting
// the others.
func (c *checker) searchReturns(p *Pattern, t *Table, v *VectorIndex) []*Entity {
	var out []*Entity
	for _, name := range p.Returns {
		e := c.entities[name]
		switch {
		case e == nil:
		case e.Table != t.Name:
			c.add(p.Pos, "other-table", p.Number, name, e.Table, t.Name)
		case !inVector(e, t, v):
			missing := strings.Join(missingForVector(e, v), " and ")
			c.add(p.Pos, "not-in-vector", p.Number, name, missing, v.Name)
		default:
			out = append(out, e)
		}
	}
	return out
}

// searchKey checks the search condition: equalities on v's search
// attributes, each template parsing, and the hash given.
func (c *checker) searchKey(p *Pattern, v *VectorIndex) {
	allowed := v.SearchAttrNames()
	for _, name := range sortedKeys(p.Key) {
		cond, pos := p.Key[name], orPos(p.KeyPos[name], p.Pos)
		switch {
		case !slices.Contains(allowed, name):
			c.add(pos, "search-attr", p.Number, name, v.Name, orNone(allowed))
		case cond.Op != "=":
			c.add(pos, "search-op", p.Number, name, cond.Op)
		case cond.Value2 != "":
			c.add(pos, "value2", p.Number, name, cond.Op)
		}
		if _, err := cond.Value.Parts(); err != nil {
			c.add(pos, "template", "pattern "+p.Number+" key."+name, string(cond.Value), err)
		}
	}
	if h := v.Hash; h != nil && h.Name != "" {
		if _, ok := p.Key[h.Name]; !ok {
			c.add(p.Pos, "search-hash", p.Number, v.Name, h.Name, h.Name)
		}
	}
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// searchProjected wants what p reads (its attributes, else its entities'
// every attribute) to be in v: the table's keys, the vector, the search
// attributes, and the projection.
func (c *checker) searchProjected(p *Pattern, t *Table, v *VectorIndex, ents []*Entity) {
	if v.Projection.Type == "ALL" {
		return
	}
	have := append(spaces(t)[0].keyNames(), v.VectorAttribute)
	have = append(append(have, v.SearchAttrNames()...), v.Projection.Attributes...)
	var missing []string
	for _, a := range readAttrs(p, ents) {
		if !slices.Contains(have, a) {
			missing = append(missing, a)
		}
	}
	if len(missing) > 0 {
		c.add(p.Pos, "proj-missing", p.Number, strings.Join(missing, ", "), v.Name)
	}
}

// readAttrs are the attributes a pattern reads: its attributes, or else
// every attribute of the entities it returns.
func readAttrs(p *Pattern, ents []*Entity) []string {
	if len(p.Attributes) > 0 {
		return p.Attributes
	}
	var need []string
	for _, e := range ents {
		for _, a := range e.Attributes {
			if !slices.Contains(need, a.Name) {
				need = append(need, a.Name)
			}
		}
	}
	return need
}
