package workbench

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/sortkeydb/sortkey/internal/design"
)

// maxModelBytes bounds a model file; Workbench's own are far smaller,
// sample data included.
const maxModelBytes = 16 << 20

// Import reads a Workbench model (file names it in messages) as a
// design: its tables with their GSIs, and each facet as an entity whose
// key templates are derived from its sample items. The warnings say
// what was guessed. A model it cannot read is an error, never a panic.
func Import(data []byte, file string) (*design.Design, []string, error) {
	if len(data) > maxModelBytes {
		return nil, nil, fmt.Errorf(errTooLarge, file, maxModelBytes)
	}
	var m model
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, nil, fmt.Errorf(errJSON, file, err)
	}
	if len(m.DataModel) == 0 {
		return nil, nil, fmt.Errorf(errNoTables, file)
	}
	d := &design.Design{Version: 1, Name: m.ModelName, File: file}
	if d.Name == "" {
		d.Name = defaultModelName
	}
	if m.ModelMetadata != nil {
		d.Description = m.ModelMetadata.Description
	}
	im := &importer{d: d, file: file}
	for i, t := range m.DataModel {
		if err := im.table(i, t); err != nil {
			return nil, nil, err
		}
	}
	return d, im.warnings, nil
}

type importer struct {
	d        *design.Design
	file     string
	warnings []string
}

func (im *importer) warn(format string, args ...any) {
	im.warnings = append(im.warnings, fmt.Sprintf(format, args...))
}

func (im *importer) table(i int, t wbTable) error {
	if t.TableName == "" {
		return fmt.Errorf(errTableName, im.file, i)
	}
	pk, sk := t.KeyAttributes.PartitionKey, t.KeyAttributes.SortKey
	if len(pk) != 1 || pk[0].AttributeName == "" || len(sk) > 1 || (len(sk) == 1 && sk[0].AttributeName == "") {
		return fmt.Errorf(errTableKey, im.file, t.TableName)
	}
	dt := design.Table{Name: t.TableName, PartitionKey: keyAttr(pk[0])}
	if len(sk) == 1 {
		k := keyAttr(sk[0])
		dt.SortKey = &k
	}
	if t.BillingMode != "PAY_PER_REQUEST" {
		dt.BillingMode = t.BillingMode // PAY_PER_REQUEST is a design's default
	}
	for j, g := range t.GlobalSecondaryIndexes {
		if g.IndexName == "" || len(g.KeyAttributes.PartitionKey) == 0 || !named(g.KeyAttributes.PartitionKey) || !named(g.KeyAttributes.SortKey) {
			return fmt.Errorf(errIndex, im.file, t.TableName, j)
		}
		dt.GSIs = append(dt.GSIs, design.Index{Name: g.IndexName, PartitionKey: keyAttrs(g.KeyAttributes.PartitionKey),
			SortKey: keyAttrs(g.KeyAttributes.SortKey), Projection: design.Projection{Type: g.Projection.ProjectionType, Attributes: g.Projection.NonKeyAttributes}})
	}
	im.d.Tables = append(im.d.Tables, dt)
	im.entities(t)
	return nil
}

func named(k keyList) bool {
	for _, a := range k {
		if a.AttributeName == "" {
			return false
		}
	}
	return true
}

func keyAttr(a attribute) design.KeyAttr {
	return design.KeyAttr{Name: a.AttributeName, Type: a.AttributeType}
}

func keyAttrs(k keyList) design.KeyAttrs {
	var out design.KeyAttrs
	for _, a := range k {
		out = append(out, keyAttr(a))
	}
	return out
}

// entities makes each of the table's facets an entity.
func (im *importer) entities(t wbTable) {
	types := attributeTypes(t)
	rows := facetRows(t)
	first := len(im.d.Entities)
	for i, f := range t.TableFacets {
		im.d.Entities = append(im.d.Entities, im.entity(t, i, f, rows[i], types))
	}
	if attr, values := discriminator(t, rows); attr != "" {
		im.warn(warnDiscrim, t.TableName, attr)
		for i := range t.TableFacets {
			if values[i] == "" {
				continue
			}
			im.d.Entities[first+i].Discriminator = &design.Discriminator{Attribute: attr, Value: values[i]}
		}
	}
}

// attributeTypes is the type of every attribute the table declares.
func attributeTypes(t wbTable) map[string]string {
	out := map[string]string{}
	add := func(as []attribute) {
		for _, a := range as {
			if _, ok := out[a.AttributeName]; !ok {
				out[a.AttributeName] = a.AttributeType
			}
		}
	}
	add(t.KeyAttributes.PartitionKey)
	add(t.KeyAttributes.SortKey)
	add(t.NonKeyAttributes)
	for _, g := range t.GlobalSecondaryIndexes {
		add(g.KeyAttributes.PartitionKey)
		add(g.KeyAttributes.SortKey)
	}
	return out
}

func (im *importer) entity(t wbTable, i int, f facet, rows []item, types map[string]string) design.Entity {
	e := design.Entity{Name: f.FacetName, Table: t.TableName, Keys: map[string]design.KeyTemplates{}}
	if e.Name == "" {
		e.Name = fmt.Sprintf(defaultFacetName, i+1)
	}
	pk := t.KeyAttributes.PartitionKey[0].AttributeName
	keys := []string{pk}
	aliases := map[string]string{pk: f.KeyAttributeAlias.PartitionKeyAlias}
	if sk := t.KeyAttributes.SortKey; len(sk) == 1 {
		keys = append(keys, sk[0].AttributeName)
		aliases[sk[0].AttributeName] = f.KeyAttributeAlias.SortKeyAlias
	}
	has := map[string]bool{}
	for _, k := range keys {
		has[k] = true
		e.Attributes = append(e.Attributes, design.Attribute{Name: k, Type: types[k], Required: true})
	}
	for _, a := range f.NonKeyAttributes {
		if has[a] {
			continue
		}
		has[a] = true
		typ, ok := types[a]
		if !ok {
			typ = defaultAttrType
			im.warn(warnUntyped, e.Name, a)
		}
		e.Attributes = append(e.Attributes, design.Attribute{Name: a, Type: typ})
	}
	im.placeEntity(&e, t, keys, aliases, has, rows)
	return e
}

// placeEntity writes the entity's key templates for the table and for
// each GSI whose key attributes the entity has (the others it is not in:
// they are sparse for it).
func (im *importer) placeEntity(e *design.Entity, t wbTable, keys []string, aliases map[string]string, has map[string]bool, rows []item) {
	d := deriver{rows: rows}
	e.Keys[t.TableName] = d.templates(keys, aliases)
	for _, g := range t.GlobalSecondaryIndexes {
		names := append(attrNames(g.KeyAttributes.PartitionKey), attrNames(g.KeyAttributes.SortKey)...)
		if all(names, has) {
			e.Keys[g.IndexName] = d.templates(names, aliases)
		}
	}
	if len(d.guessed) == 0 {
		return
	}
	list := "(" + strings.Join(d.guessed, ", ") + ")"
	if len(rows) == 0 {
		im.warn(warnPlaceheld, e.Name, list)
	} else {
		im.warn(warnGuessed, e.Name, list, len(rows))
	}
}

func attrNames(k keyList) []string {
	var out []string
	for _, a := range k {
		out = append(out, a.AttributeName)
	}
	return out
}

func all(names []string, has map[string]bool) bool {
	for _, n := range names {
		if !has[n] {
			return false
		}
	}
	return true
}
