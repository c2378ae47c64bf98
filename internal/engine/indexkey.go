package engine

import (
	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// indexSchema is a secondary index's name and key.
type indexSchema struct {
	name string
	key  keySchema
}

func indexSchemas(d *protocol.TableDescription) []indexSchema {
	var out []indexSchema
	for _, g := range d.GlobalSecondaryIndexes {
		out = append(out, indexSchema{g.IndexName, schemaOf(g.KeySchema, d.AttributeDefinitions)})
	}
	for _, l := range d.LocalSecondaryIndexes {
		out = append(out, indexSchema{l.IndexName, schemaOf(l.KeySchema, d.AttributeDefinitions)})
	}
	return out
}

// checkIndexKeys refuses an item whose secondary-index key attributes have
// the wrong type or are empty. An item without them is fine: it is simply
// not in that index (a sparse index).
func (t *table) checkIndexKeys(it attr.Item) error {
	for _, ix := range t.indexes {
		for _, k := range []keyAttr{ix.key.hash, ix.key.rng} {
			if err := checkIndexKey(ix.name, k, it); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkIndexKey(index string, k keyAttr, it attr.Item) error {
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
	return nil
}

func emptyKind(v *attr.Value) string {
	if v.S != nil {
		return "string"
	}
	return "binary"
}
