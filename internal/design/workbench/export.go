package workbench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/sortkeydb/sortkey/internal/design"
)

const (
	formatVersion = "3.0"
	awsService    = "Amazon DynamoDB"
	dateLayout    = "Jan 2, 2006, 3:04 PM" // as Workbench writes its dates
	payPerRequest = "PAY_PER_REQUEST"
)

// dataAccess is the member every Workbench table and facet carries.
var dataAccess = json.RawMessage(`{"MySql":{}}`)

// Export writes d as a Workbench model dated now: each table with its
// GSIs, and each entity as a facet of its table holding one sample item
// whose key values are the entity's templates. The warnings name what
// the format cannot hold.
func Export(d *design.Design, now time.Time) ([]byte, []string, error) {
	if len(d.Tables) == 0 {
		return nil, nil, errors.New(errNoDesignTabs)
	}
	date := now.UTC().Format(dateLayout)
	m := model{ModelName: d.Name, ModelMetadata: &metadata{DateCreated: date, DateLastModified: date,
		Description: d.Description, AWSService: awsService, Version: formatVersion}}
	ex := &exporter{}
	tables := map[string]bool{}
	for _, t := range d.Tables {
		tables[t.Name] = true
		m.DataModel = append(m.DataModel, ex.table(d, t))
	}
	for _, e := range d.Entities {
		if !tables[e.Table] {
			ex.warn(warnLostEntity, e.Name, e.Table)
		}
	}
	if len(d.Patterns)+len(d.Writes) > 0 {
		ex.warn(warnLostPats, len(d.Patterns), len(d.Writes))
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		return nil, nil, err
	}
	return b.Bytes(), ex.warnings, nil
}

type exporter struct{ warnings []string }

func (ex *exporter) warn(format string, args ...any) {
	ex.warnings = append(ex.warnings, fmt.Sprintf(format, args...))
}

func (ex *exporter) table(d *design.Design, t design.Table) wbTable {
	out := wbTable{TableName: t.Name, KeyAttributes: keyAttributes{PartitionKey: keyList{wbAttr(t.PartitionKey)}},
		BillingMode: t.BillingMode, DataAccess: dataAccess, TableFacets: []facet{}, TableData: []item{}}
	if out.BillingMode == "" {
		out.BillingMode = payPerRequest
	}
	keys := map[string]bool{t.PartitionKey.Name: true}
	if t.SortKey != nil {
		out.KeyAttributes.SortKey = keyList{wbAttr(*t.SortKey)}
		keys[t.SortKey.Name] = true
	}
	for _, g := range t.GSIs {
		out.GlobalSecondaryIndexes = append(out.GlobalSecondaryIndexes, ex.index(t, g))
	}
	ex.lost(t)
	out.NonKeyAttributes = nonKeyAttributes(d, t, keys)
	for _, e := range d.Entities {
		if e.Table == t.Name {
			f := exportFacet(e, t, keys)
			out.TableFacets = append(out.TableFacets, f)
			out.TableData = append(out.TableData, f.TableData...)
		}
	}
	return out
}

// lost warns of what the table has that Workbench's format does not.
func (ex *exporter) lost(t design.Table) {
	if len(t.LSIs) > 0 {
		ex.warn(warnLostLSI, t.Name)
	}
	if t.TTL != "" {
		ex.warn(warnLostTTL, t.Name, t.TTL)
	}
	if t.Stream != "" {
		ex.warn(warnLostStream, t.Name, t.Stream)
	}
	if len(t.VectorIndexes) > 0 {
		ex.warn(warnLostVector, t.Name)
	}
}

func (ex *exporter) index(t design.Table, g design.Index) wbIndex {
	if len(g.PartitionKey) > 1 || len(g.SortKey) > 1 {
		ex.warn(warnMultiKey, t.Name, g.Name)
	}
	return wbIndex{IndexName: g.Name, KeyAttributes: keyAttributes{PartitionKey: wbKeys(g.PartitionKey), SortKey: wbKeys(g.SortKey)},
		Projection: projection{ProjectionType: g.Projection.Type, NonKeyAttributes: g.Projection.Attributes}}
}

func wbAttr(k design.KeyAttr) attribute {
	return attribute{AttributeName: k.Name, AttributeType: k.Type}
}

func wbKeys(k design.KeyAttrs) keyList {
	var out keyList
	for _, a := range k {
		out = append(out, wbAttr(a))
	}
	return out
}

// nonKeyAttributes is every attribute of the table's entities and every
// GSI key, but the table's keys, once each with its first type.
func nonKeyAttributes(d *design.Design, t design.Table, keys map[string]bool) []attribute {
	out := []attribute{}
	seen := map[string]bool{}
	add := func(name, typ string) {
		if !keys[name] && !seen[name] {
			seen[name] = true
			out = append(out, attribute{AttributeName: name, AttributeType: typ})
		}
	}
	for _, e := range d.Entities {
		if e.Table == t.Name {
			for _, a := range e.Attributes {
				add(a.Name, a.Type)
			}
		}
	}
	for _, g := range t.GSIs {
		for _, k := range append(append(design.KeyAttrs{}, g.PartitionKey...), g.SortKey...) {
			add(k.Name, k.Type)
		}
	}
	return out
}

func exportFacet(e design.Entity, t design.Table, keys map[string]bool) facet {
	row := sampleItem(e, t)
	f := facet{FacetName: e.Name, NonKeyAttributes: []string{}, DataAccess: dataAccess, TableData: []item{row}}
	f.KeyAttributeAlias.PartitionKeyAlias = aliasOf(e.Keys[t.Name][t.PartitionKey.Name], t.PartitionKey.Name)
	if t.SortKey != nil {
		f.KeyAttributeAlias.SortKeyAlias = aliasOf(e.Keys[t.Name][t.SortKey.Name], t.SortKey.Name)
	}
	seen := map[string]bool{}
	for _, a := range e.Attributes {
		if !keys[a.Name] && !seen[a.Name] {
			seen[a.Name] = true
			f.NonKeyAttributes = append(f.NonKeyAttributes, a.Name)
		}
	}
	// An index key the entity is placed by is one of its attributes,
	// or Import would not place it in that index.
	for _, attr := range slices.Sorted(maps.Keys(row)) {
		if !keys[attr] && !seen[attr] {
			seen[attr] = true
			f.NonKeyAttributes = append(f.NonKeyAttributes, attr)
		}
	}
	return f
}

// aliasOf names a key in a facet by the variable its template has, when
// it has one (a key that is the user's id is aliased UserId).
func aliasOf(t design.Template, attr string) string {
	if vars := t.Vars(); len(vars) == 1 {
		return vars[0]
	}
	return attr
}

// sampleItem is the entity's sample item: each key attribute's template
// as its value (the table's first, then each index's), and the
// discriminator's value.
func sampleItem(e design.Entity, t design.Table) item {
	typ := map[string]string{}
	for _, a := range e.Attributes {
		typ[a.Name] = a.Type
	}
	for _, k := range design.KeyAttrs(append([]design.KeyAttr{t.PartitionKey}, indexKeys(t)...)) {
		if _, ok := typ[k.Name]; !ok {
			typ[k.Name] = k.Type
		}
	}
	row := item{}
	for _, name := range append([]string{t.Name}, indexNames(t)...) {
		for attr, tmpl := range e.Keys[name] {
			if _, done := row[attr]; !done {
				if v, ok := sampleValue(typ[attr], tmpl); ok {
					row[attr] = v
				}
			}
		}
	}
	if dc := e.Discriminator; dc != nil {
		row[dc.Attribute], _ = sampleValue("S", design.Template(dc.Value))
	}
	return row
}

// sampleValue is a template as a DynamoDB-JSON value of type typ: any
// template as a string, a number only when it is a constant.
func sampleValue(typ string, t design.Template) (json.RawMessage, bool) {
	switch {
	case typ == "S" || typ == "":
		b, _ := json.Marshal(map[string]string{"S": string(t)})
		return b, true
	case typ == "N" && t.Constant():
		b, _ := json.Marshal(map[string]string{"N": string(t)})
		return b, true
	}
	return nil, false
}

func indexNames(t design.Table) []string {
	var out []string
	for _, x := range append(append([]design.Index{}, t.GSIs...), t.LSIs...) {
		out = append(out, x.Name)
	}
	return out
}

func indexKeys(t design.Table) []design.KeyAttr {
	var out []design.KeyAttr
	if t.SortKey != nil {
		out = append(out, *t.SortKey)
	}
	for _, x := range t.GSIs {
		out = append(append(out, x.PartitionKey...), x.SortKey...)
	}
	return out
}
