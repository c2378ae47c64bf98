package design

import (
	"strconv"
	"strings"
)

// vectorSpace is vector index v of t seen as the attributes a search
// conditions, for rendering its key condition and listing its patterns:
// the hash as its partition key, the filters after it. It is never one
// of spaces(t), which hold entities by their key templates.
func vectorSpace(t *Table, v *VectorIndex) *space {
	s := &space{name: v.Name, table: t, index: &Index{Name: v.Name, Projection: v.Projection, Pos: v.Pos}, sk: v.Filters}
	if v.Hash != nil {
		s.pk = []KeyAttr{*v.Hash}
	}
	return s
}

// writeVectorIndexes lists the vector indexes under the tables, with the
// patterns that search each; nothing when the design has none.
func writeVectorIndexes(b *strings.Builder, d *Design) {
	if !hasVectorIndexes(d) {
		return
	}
	b.WriteString("### Vector indexes\n\n")
	header(b, "Vector index", "Table", "Vector", "Dimensions", "Distance", "Hash", "Filters", "Projection", "Purpose")
	for i := range d.Tables {
		t := &d.Tables[i]
		for j := range t.VectorIndexes {
			v := &t.VectorIndexes[j]
			s := vectorSpace(t, v)
			row(b, v.Name, t.Name, v.VectorAttribute+" (L)", strconv.Itoa(v.Dimensions), v.DistanceFunction,
				keyList(s.pk), keyList(s.sk), projectionText(v.Projection), purpose(d, t.Name, s))
		}
	}
	b.WriteString("\n")
}

func hasVectorIndexes(d *Design) bool {
	for _, t := range d.Tables {
		if len(t.VectorIndexes) > 0 {
			return true
		}
	}
	return false
}

// vectorSpaceOf is the vector index pattern p searches as a space, or
// nil when p searches none the design declares.
func vectorSpaceOf(d *Design, p *Pattern) *space {
	for i := range d.Tables {
		t := &d.Tables[i]
		if v := VectorIndexOf(t, p.Index); t.Name == p.Table && v != nil {
			return vectorSpace(t, v)
		}
	}
	return nil
}

// searchCost is a SearchVectors pattern's cost cell: DynamoDB meters a
// search in bytes of vector data, not read units, and publishes no
// formula to estimate them by.
const searchCost = "vector search"

// searchNote follows the access pattern table when a pattern searches.
const searchNote = "A vector search is metered in bytes of vector data searched " +
	"(VectorSearchRequestBytes), not read capacity; it grows with the dimensions, topK and what is projected.\n\n"

func hasSearches(d *Design) bool {
	for _, p := range d.Patterns {
		if p.Operation == SearchOp {
			return true
		}
	}
	return false
}
