package engine

import (
	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/vector"
)

// A vector index is kept as a secondary index whose partition key is its
// search schema's HASH attribute (none: every entry in one partition) and
// which has no sort key. Its entries hold the projection plus the vector
// and the INLINE_FILTER attributes, so a search reads only the index.
// Only an item with a well-formed vector (and its HASH attribute, if the
// index has one) has an entry, as DynamoDB leaves the others out.

// vectorSpec is what a vector index adds to an indexSchema.
type vectorSpec struct {
	attr     string
	dims     int
	distance vector.Distance
	hash     string   // "" when the search schema has no HASH element
	filters  []string // the INLINE_FILTER attributes
	types    map[string]string
	// projectsAll: entries hold whole items.
	projectsAll bool
}

// vectorIndexSchema is the indexSchema of one vector index of m.
func vectorIndexSchema(m *tableMeta, v *protocol.VectorIndexDescription) indexSchema {
	spec := newVectorSpec(v, definedTypes(&m.Desc))
	var ks []protocol.KeySchemaElement
	if spec.hash != "" {
		hash := "HASH"
		ks = []protocol.KeySchemaElement{{AttributeName: &spec.hash, KeyType: &hash}}
	}
	ix := newIndexSchema(m, v.IndexName, ks, v.Projection, true)
	ix.vec = spec
	spec.projectsAll = ix.projType == "ALL"
	ix.backfilling = v.IndexStatus == "CREATING"
	if ix.projType != "ALL" {
		ix.projType = "INCLUDE" // the vector and the filters are always stored
		ix.include[spec.attr] = true
		for _, f := range spec.filters {
			ix.include[f] = true
		}
	}
	return ix
}

func newVectorSpec(v *protocol.VectorIndexDescription, types map[string]string) *vectorSpec {
	d, _ := vector.ParseDistance(v.DistanceFunction) // validated when created
	s := &vectorSpec{attr: *v.VectorAttribute.AttributeName, dims: int(v.Dimensions), distance: d, types: types}
	for _, e := range v.SearchSchema {
		if *e.SearchSchemaElementType == "HASH" {
			s.hash = *e.AttributeName
		} else {
			s.filters = append(s.filters, *e.AttributeName)
		}
	}
	return s
}

// searchSchema is the schema a SearchConditionExpression is read against.
func (s *vectorSpec) searchSchema() vector.Schema {
	types := map[string]string{}
	for _, n := range append([]string{s.hash}, s.filters...) {
		if n != "" {
			types[n] = s.types[n]
		}
	}
	return vector.Schema{Hash: s.hash, Filters: s.filters, Types: types}
}

// indexed reports whether it's vector makes it an entry of the index.
func (s *vectorSpec) indexed(it attr.Item) bool {
	_, ok := parsedVectors(nil).of(it, s)
	return ok
}

// parsedVectors are the vectors a write's check read from its item, which
// its commit reuses: reading a vector (a decimal text per dimension) costs
// more than the rest of its entry.
type parsedVectors []parsedVector

// parsedVector is attribute attr's list, read as a vector of dims.
type parsedVector struct {
	attr string
	dims int
	list []attr.Value
	vec  []float32
}

// of is it's vector for s, and whether it has a valid one (an entry). A
// vector read already is reused only if it was read from the same list:
// the commit may write an item other than the one checked, or follow an
// index created since the check.
func (p parsedVectors) of(it attr.Item, s *vectorSpec) ([]float32, bool) {
	v, found := it[s.attr]
	if !found {
		return nil, false
	}
	for _, q := range p {
		if q.attr == s.attr && q.dims == s.dims && sameList(q.list, v.L) {
			return q.vec, true
		}
	}
	vec, err := vector.FromAttribute(v, s.dims)
	return vec, err == nil
}

// sameList reports whether a and b are one list, not merely equal ones.
func sameList(a, b []attr.Value) bool {
	return len(a) == len(b) && len(a) > 0 && &a[0] == &b[0]
}

// msgBadVector is the refusal of a write whose vector attribute an index
// cannot hold; the reason comes from internal/vector.
const msgBadVector = "One or more parameter values were invalid: Invalid vector for attribute %s of vector index %s: %s"

// checkVector refuses a write whose vector attribute, when present, is not
// a list of dims numbers that fit float32 (DynamoDB refuses the whole
// write). It returns the vector read, nil when there is none.
func checkVector(ix *indexSchema, it attr.Item) ([]float32, error) {
	v, ok := it[ix.vec.attr]
	if !ok {
		return nil, nil
	}
	vec, err := vector.FromAttribute(v, ix.vec.dims)
	if err != nil {
		return nil, apierr.Validationf(msgBadVector, ix.vec.attr, ix.name, trimVectorPrefix(err))
	}
	return vec, nil
}

// checkVectorIndex checks it's vector and INLINE_FILTER attributes against
// ix, and returns its vector.
func checkVectorIndex(ix *indexSchema, it attr.Item) ([]float32, error) {
	vec, err := checkVector(ix, it)
	if err != nil {
		return nil, err
	}
	return vec, checkFilters(ix, it)
}

// checkFilters refuses an INLINE_FILTER attribute of another type than
// its definition, as a GSI key of the wrong type is refused.
func checkFilters(ix *indexSchema, it attr.Item) error {
	for _, f := range ix.vec.filters {
		k := keyAttr{name: f, kind: attr.KindOf(ix.vec.types[f])}
		if err := checkIndexKey(ix.name, k, it, maxRangeKeyBytes); err != nil {
			return err
		}
	}
	return nil
}

// vectorDesc describes a new vector index of m, ACTIVE unless status says.
func vectorDesc(m *tableMeta, v *protocol.VectorIndex, status string) protocol.VectorIndexDescription {
	m.Indexes[*v.IndexName] = m.nextIndexID()
	d := protocol.VectorIndexDescription{
		IndexName: *v.IndexName, IndexStatus: status, VectorAttribute: *v.VectorAttribute,
		Dimensions: *v.Dimensions, DistanceFunction: *v.DistanceFunction, SearchSchema: v.SearchSchema,
		Projection: v.Projection, IndexArn: m.Desc.TableArn + "/index/" + *v.IndexName,
	}
	if status == "CREATING" {
		d.Backfilling = new(bool)
		*d.Backfilling = true
	}
	return d
}

// vectorWriteBytes is what replacing old with new writes to a vector
// index, DynamoDB's VectorWriteRequestBytes. DynamoDB publishes no formula,
// only that it grows with the bytes copied into the index and that a write
// changing nothing the index holds costs none: sortkey counts the size of
// the entry written (or, for a removal, of the entry removed).
func (t *table) vectorWriteBytes(ix *indexSchema, old, new attr.Item) float64 {
	a, b := t.entryOf(ix, old), t.entryOf(ix, new)
	switch {
	case b.key != nil && (a.key == nil || !sameItem(a.item, b.item)):
		return float64(b.item.Size())
	case b.key == nil && a.key != nil:
		return float64(a.item.Size())
	}
	return 0
}

// addVector charges a vector index; one not written is not reported.
func (u *usage) addVector(name string, bytes float64) {
	if bytes == 0 {
		return
	}
	if u.vector == nil {
		u.vector = map[string]float64{}
	}
	u.vector[name] += bytes
}

// vectorBytes is INDEXES' breakdown of vector index writes. It is not in
// the write's capacity units: DynamoDB meters vector bytes apart.
func (u *usage) vectorBytes() map[string]protocol.VectorCapacity {
	if len(u.vector) == 0 {
		return nil
	}
	out := make(map[string]protocol.VectorCapacity, len(u.vector))
	for name, b := range u.vector {
		out[name] = protocol.VectorCapacity{VectorWriteRequestBytes: &b}
	}
	return out
}

// entryValue is a vector index entry's stored value: the vector v as
// float32s, then the projected item's encoding (enc, the whole item's,
// when the index projects ALL). A search scores entries from the first
// part alone.
func (s *vectorSpec) entryValue(v []float32, proj attr.Item, enc []byte) []byte {
	out := vector.AppendBinary(make([]byte, 0, 4*s.dims+len(enc)+64), v)
	if enc != nil && s.projectsAll {
		return append(out, enc...)
	}
	return attr.AppendItem(out, proj)
}
