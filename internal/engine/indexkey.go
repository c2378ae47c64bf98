package engine

import (
	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// indexSchema is a secondary index as reads and writes need it.
type indexSchema struct {
	name     string
	id       uint16 // storage index id
	key      keySchema
	global   bool
	projType string          // ALL, KEYS_ONLY or INCLUDE
	include  map[string]bool // INCLUDE's NonKeyAttributes
	// backfilling is set while a GSI added by UpdateTable is being filled
	// from the table's items; writers then check for an entry before
	// removing it (see Engine.writeIndexes).
	backfilling bool
	// vec is set for a vector index (vectorindex.go).
	vec *vectorSpec
}

func indexSchemas(m *tableMeta) []indexSchema {
	d := &m.Desc
	var out []indexSchema
	for _, g := range d.GlobalSecondaryIndexes {
		ix := newIndexSchema(m, g.IndexName, g.KeySchema, g.Projection, true)
		ix.backfilling = g.IndexStatus == "CREATING"
		out = append(out, ix)
	}
	for _, l := range d.LocalSecondaryIndexes {
		out = append(out, newIndexSchema(m, l.IndexName, l.KeySchema, l.Projection, false))
	}
	for i := range d.VectorIndexes {
		out = append(out, vectorIndexSchema(m, &d.VectorIndexes[i]))
	}
	return out
}

func newIndexSchema(m *tableMeta, name string, ks []protocol.KeySchemaElement, p *protocol.Projection, global bool) indexSchema {
	ix := indexSchema{name: name, id: m.Indexes[name], key: schemaOf(ks, m.Desc.AttributeDefinitions), global: global, projType: "ALL"}
	if p != nil && p.ProjectionType != nil {
		ix.projType = *p.ProjectionType
		ix.include = map[string]bool{}
		for _, a := range p.NonKeyAttributes {
			ix.include[a] = true
		}
	}
	return ix
}

// maxIndexKeyText is DynamoDB's answer to an item whose value for an index
// key is larger than a key may be (2048 bytes for a partition key, 1024
// for a sort key), as reported of the real service.
const maxIndexKeyText = "One or more parameter values were invalid: Size limit exceeded for Index Key %s Actual Size: %d bytes Max Size: %d bytes IndexName: %s"

// checkIndexKeys refuses an item whose secondary-index key attributes have
// the wrong type, are empty or are too large. An item without them is
// fine: it is simply not in that index (a sparse index).
// It returns the vectors it read, for the commit to reuse.
func (t *table) checkIndexKeys(it attr.Item) (parsedVectors, error) {
	var vecs parsedVectors
	for i := range t.indexes {
		ix := &t.indexes[i]
		vec, err := checkIndexKeysOf(ix, it)
		if err != nil {
			return nil, err
		}
		if vec != nil {
			vecs = append(vecs, parsedVector{ix.vec.attr, ix.vec.dims, it[ix.vec.attr].L, vec})
		}
	}
	return vecs, nil
}

// checkIndexKeysOf checks it against one index's key schema, and returns
// its vector when ix is a vector index and it has one.
// Each attribute of a multi-attribute key is checked on its own, with the
// limit of its key type.
func checkIndexKeysOf(ix *indexSchema, it attr.Item) ([]float32, error) {
	var vec []float32
	if ix.vec != nil {
		var err error
		if vec, err = checkVectorIndex(ix, it); err != nil {
			return nil, err
		}
	}
	for _, k := range ix.key.hashes {
		if err := checkIndexKey(ix.name, k, it, maxHashKeyBytes); err != nil {
			return nil, err
		}
	}
	for _, k := range ix.key.rngs {
		if err := checkIndexKey(ix.name, k, it, maxRangeKeyBytes); err != nil {
			return nil, err
		}
	}
	return vec, nil
}

func checkIndexKey(index string, k keyAttr, it attr.Item, limit int) error {
	v, ok := it[k.name]
	if k.name == "" || !ok {
		return nil
	}
	if v.Kind() != k.kind {
		return apierr.Validationf("One or more parameter values were invalid: Type mismatch for Index Key %s Expected: %s Actual: %s IndexName: %s", k.name, k.kind, v.Kind(), index)
	}
	if (v.S != nil && *v.S == "") || (v.B != nil && len(v.B) == 0) {
		return apierr.Validationf("One or more parameter values are not valid. A value specified for a secondary index key is not supported. The AttributeValue for a key attribute cannot contain an empty %s value. IndexName: %s, IndexKey: %s", emptyKind(&v), index, k.name)
	}
	if size := v.Size(); size > limit {
		return apierr.Validationf(maxIndexKeyText, k.name, size, limit, index)
	}
	return nil
}

func emptyKind(v *attr.Value) string {
	if v.S != nil {
		return "string"
	}
	return "binary"
}
