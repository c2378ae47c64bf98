package engine

import (
	"slices"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/validate"
	"github.com/sortkeydb/sortkey/internal/vector"
)

// applyVectorUpdates applies UpdateTable's one VectorIndexUpdate to m,
// which the caller owns (see ownedMeta).
func (e *Engine) applyVectorUpdates(m *tableMeta, ups []protocol.VectorIndexUpdate, defs []protocol.AttributeDefinition) (indexChange, error) {
	var ch indexChange
	for _, u := range ups {
		var err error
		if u.Create != nil {
			ch.created, err = createVectorIndex(m, u.Create, defs)
		} else {
			ch.droppedVector, ch.dropID, err = dropVectorIndex(m, *u.Delete.IndexName)
		}
		if err != nil {
			return indexChange{}, err
		}
	}
	return ch, nil
}

func createVectorIndex(m *tableMeta, v *protocol.VectorIndex, defs []protocol.AttributeDefinition) (uint16, error) {
	if err := canCreateVectorIndex(m, v); err != nil {
		return 0, err
	}
	if err := mergeDefinitions(&m.Desc, defs, searchKeySchema(v.SearchSchema)); err != nil {
		return 0, err
	}
	if err := validate.SearchSchemaDefined(v.SearchSchema, definedTypes(&m.Desc)); err != nil {
		return 0, err
	}
	m.Desc.VectorIndexes = append(m.Desc.VectorIndexes, vectorDesc(m, v, "CREATING"))
	return m.Indexes[*v.IndexName], nil
}

// canCreateVectorIndex applies the rules that depend on the table: its
// billing mode, a free name, at most vector.MaxIndexesPerTable, one
// dimension count per vector attribute, and a vector attribute that no
// key uses.
func canCreateVectorIndex(m *tableMeta, v *protocol.VectorIndex) error {
	d := &m.Desc
	if billingMode(d) != "PAY_PER_REQUEST" {
		return apierr.Validationf(validate.MsgVectorOnDemand)
	}
	if _, ok := m.Indexes[*v.IndexName]; ok {
		return apierr.Validationf("One or more parameter values were invalid: Index with name %s already exists on table %s", *v.IndexName, d.TableName)
	}
	if len(d.VectorIndexes) >= vector.MaxIndexesPerTable {
		return apierr.Validationf(validate.MsgVectorCount, vector.MaxIndexesPerTable)
	}
	for _, x := range d.VectorIndexes {
		if *x.VectorAttribute.AttributeName == *v.VectorAttribute.AttributeName && x.Dimensions != *v.Dimensions {
			return apierr.Validationf(validate.MsgVectorDimensions, *x.VectorAttribute.AttributeName, x.IndexName, x.Dimensions)
		}
	}
	if schemaUsing(d, *v.VectorAttribute.AttributeName) != nil {
		return apierr.Validationf(validate.MsgVectorOnKey, *v.VectorAttribute.AttributeName)
	}
	return validate.ProjectedAttributes(projectedAttrs(d) + validate.VectorProjected(v))
}

// searchKeySchema is a search schema as a key schema, for the refusal of
// a redefined attribute, which prints the new index's schema.
func searchKeySchema(schema []protocol.SearchSchemaItem) []protocol.KeySchemaElement {
	out := make([]protocol.KeySchemaElement, len(schema))
	for i := range schema {
		out[i] = protocol.KeySchemaElement{AttributeName: schema[i].AttributeName, KeyType: schema[i].SearchSchemaElementType}
	}
	return out
}

func dropVectorIndex(m *tableMeta, name string) (*protocol.VectorIndexDescription, uint16, error) {
	d, id, err := removeIndex(m, &m.Desc.VectorIndexes, name, func(v *protocol.VectorIndexDescription) string { return v.IndexName })
	if err == nil {
		d.IndexStatus, d.Backfilling = "DELETING", nil
	}
	return d, id, err
}

// keepVectorsOnDemand refuses switching a table with vector indexes to
// provisioned capacity: vector indexes exist only on on-demand tables.
func keepVectorsOnDemand(d *protocol.TableDescription) error {
	if len(d.VectorIndexes) > 0 && billingMode(d) != "PAY_PER_REQUEST" {
		return apierr.Validationf(validate.MsgVectorOnDemand)
	}
	return nil
}

// markSearchSchemas marks the attributes vector indexes' search schemas use,
// whose definitions the table keeps.
func markSearchSchemas(d *protocol.TableDescription, used map[string]bool) {
	for _, v := range d.VectorIndexes {
		for _, e := range v.SearchSchema {
			used[*e.AttributeName] = true
		}
	}
}

// sourceVectors is a restored table's vector indexes: its source's.
func sourceVectors(d *protocol.TableDescription) []protocol.VectorIndex {
	var out []protocol.VectorIndex
	for i := range d.VectorIndexes {
		v := &d.VectorIndexes[i]
		out = append(out, protocol.VectorIndex{IndexName: &v.IndexName, VectorAttribute: &v.VectorAttribute,
			Dimensions: &v.Dimensions, DistanceFunction: &v.DistanceFunction, Projection: v.Projection, SearchSchema: v.SearchSchema})
	}
	return out
}

// msgVectorOverride refuses a VectorIndexOverride entry the source table
// does not have: an override keeps some of the source's vector indexes,
// it does not add new ones.
const msgVectorOverride = "One or more parameter values were invalid: VectorIndexOverride names %s, which is not a vector index of the source table"

// overrideVectors keeps only the vector indexes the override lists, when
// it is given.
func overrideVectors(in *protocol.CreateTableInput, src *protocol.TableDescription, o []protocol.VectorIndex) error {
	if o == nil {
		return nil
	}
	for _, v := range o {
		if v.IndexName == nil || !slices.ContainsFunc(src.VectorIndexes, func(x protocol.VectorIndexDescription) bool { return x.IndexName == *v.IndexName }) {
			return apierr.Validationf(msgVectorOverride, deref(v.IndexName))
		}
	}
	in.VectorIndexes = o
	in.AttributeDefinitions = dropSearchOnly(in, src)
	return nil
}

// dropSearchOnly is the request's definitions without those only the
// source's dropped vector indexes used: a definition no index uses is
// refused.
func dropSearchOnly(in *protocol.CreateTableInput, src *protocol.TableDescription) []protocol.AttributeDefinition {
	used := map[string]bool{}
	for _, ks := range append([][]protocol.KeySchemaElement{in.KeySchema}, indexKeySchemas(in)...) {
		for _, k := range ks {
			used[*k.AttributeName] = true
		}
	}
	for _, v := range in.VectorIndexes {
		for _, e := range v.SearchSchema {
			used[*e.AttributeName] = true
		}
	}
	dropped := map[string]bool{}
	markSearchSchemas(src, dropped)
	return slices.DeleteFunc(slices.Clone(in.AttributeDefinitions), func(a protocol.AttributeDefinition) bool {
		return dropped[*a.AttributeName] && !used[*a.AttributeName]
	})
}

func indexKeySchemas(in *protocol.CreateTableInput) [][]protocol.KeySchemaElement {
	var out [][]protocol.KeySchemaElement
	for _, g := range in.GlobalSecondaryIndexes {
		out = append(out, g.KeySchema)
	}
	for _, l := range in.LocalSecondaryIndexes {
		out = append(out, l.KeySchema)
	}
	return out
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// definedTypes is the table's attribute definitions by name.
func definedTypes(d *protocol.TableDescription) map[string]string {
	types := make(map[string]string, len(d.AttributeDefinitions))
	for _, a := range d.AttributeDefinitions {
		types[*a.AttributeName] = *a.AttributeType
	}
	return types
}
