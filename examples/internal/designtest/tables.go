package designtest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/internal/design"
)

// TB is the part of testing.TB the checks use.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
}

// Tables reports, through t, every difference between the design's
// tables and the definitions the example creates them with. Each
// definition is matched with the design table of the same name; every
// design table must have one.
func Tables(t TB, d *design.Design, defs ...*dynamodb.CreateTableInput) {
	t.Helper()
	byName := map[string]*dynamodb.CreateTableInput{}
	for _, def := range defs {
		byName[aws.ToString(def.TableName)] = def
	}
	for _, tbl := range d.Tables {
		def, ok := byName[tbl.Name]
		if !ok {
			t.Errorf("design table %s: the example creates no such table", tbl.Name)
			continue
		}
		delete(byName, tbl.Name)
		for _, diff := range tableDiffs(tbl, def) {
			t.Errorf("table %s: %s", tbl.Name, diff)
		}
	}
	for name := range byName {
		t.Errorf("the example creates table %s, which the design does not declare", name)
	}
}

func tableDiffs(tbl design.Table, def *dynamodb.CreateTableInput) []string {
	types := attrTypes(def)
	var diffs []string
	want := keyText([]design.KeyAttr{tbl.PartitionKey}, nil)
	if tbl.SortKey != nil {
		want = keyText([]design.KeyAttr{tbl.PartitionKey}, []design.KeyAttr{*tbl.SortKey})
	}
	if got := schemaText(def.KeySchema, types); got != want {
		diffs = append(diffs, fmt.Sprintf("key %s, the example's %s", want, got))
	}
	if billing := cmpOr(tbl.BillingMode, "PAY_PER_REQUEST"); billing != cmpOr(string(def.BillingMode), "PROVISIONED") {
		diffs = append(diffs, fmt.Sprintf("billing mode %s, the example's %s", billing, def.BillingMode))
	}
	if got := streamView(def); got != tbl.Stream {
		diffs = append(diffs, fmt.Sprintf("stream %q, the example's %q", tbl.Stream, got))
	}
	var gsis, lsis []index
	for _, g := range def.GlobalSecondaryIndexes {
		gsis = append(gsis, index{aws.ToString(g.IndexName), schemaText(g.KeySchema, types), projectionText(g.Projection)})
	}
	for _, l := range def.LocalSecondaryIndexes {
		lsis = append(lsis, index{aws.ToString(l.IndexName), schemaText(l.KeySchema, types), projectionText(l.Projection)})
	}
	diffs = append(diffs, indexDiffs("global secondary index", tbl.GSIs, gsis)...)
	return append(diffs, indexDiffs("local secondary index", tbl.LSIs, lsis)...)
}

// index is an index as the example defines it, in text to compare.
type index struct{ name, key, projection string }

func indexDiffs(kind string, designed []design.Index, created []index) []string {
	var diffs []string
	byName := map[string]index{}
	for _, ix := range created {
		byName[ix.name] = ix
	}
	for _, ix := range designed {
		got, ok := byName[ix.Name]
		if !ok {
			diffs = append(diffs, fmt.Sprintf("%s %s: the example does not create it", kind, ix.Name))
			continue
		}
		delete(byName, ix.Name)
		if want := keyText(ix.PartitionKey, ix.SortKey); got.key != want {
			diffs = append(diffs, fmt.Sprintf("%s %s: key %s, the example's %s", kind, ix.Name, want, got.key))
		}
		if want := designProjection(ix.Projection); got.projection != want {
			diffs = append(diffs, fmt.Sprintf("%s %s: projection %s, the example's %s", kind, ix.Name, want, got.projection))
		}
	}
	for name := range byName {
		diffs = append(diffs, fmt.Sprintf("the example creates %s %s, which the design does not declare", kind, name))
	}
	return diffs
}

func attrTypes(def *dynamodb.CreateTableInput) map[string]string {
	out := map[string]string{}
	for _, a := range def.AttributeDefinitions {
		out[aws.ToString(a.AttributeName)] = string(a.AttributeType)
	}
	return out
}

// keyText writes a key as "HASH a:S, b:S RANGE c:S", one form for both
// sides of a comparison.
func keyText(hash, rng []design.KeyAttr) string {
	var b strings.Builder
	b.WriteString("HASH")
	for _, a := range hash {
		fmt.Fprintf(&b, " %s:%s", a.Name, a.Type)
	}
	if len(rng) > 0 {
		b.WriteString(" RANGE")
	}
	for _, a := range rng {
		fmt.Fprintf(&b, " %s:%s", a.Name, a.Type)
	}
	return b.String()
}

func schemaText(schema []types.KeySchemaElement, attrTypes map[string]string) string {
	var hash, rng []design.KeyAttr
	for _, e := range schema {
		a := design.KeyAttr{Name: aws.ToString(e.AttributeName), Type: attrTypes[aws.ToString(e.AttributeName)]}
		if e.KeyType == types.KeyTypeHash {
			hash = append(hash, a)
		} else {
			rng = append(rng, a)
		}
	}
	return keyText(hash, rng)
}

func projectionText(p *types.Projection) string {
	if p == nil {
		return "<none>"
	}
	attrs := slices.Clone(p.NonKeyAttributes)
	slices.Sort(attrs)
	return strings.TrimSpace(string(p.ProjectionType) + " " + strings.Join(attrs, ","))
}

func designProjection(p design.Projection) string {
	attrs := slices.Clone(p.Attributes)
	slices.Sort(attrs)
	return strings.TrimSpace(p.Type + " " + strings.Join(attrs, ","))
}

func streamView(def *dynamodb.CreateTableInput) string {
	if s := def.StreamSpecification; s != nil && aws.ToBool(s.StreamEnabled) {
		return string(s.StreamViewType)
	}
	return ""
}

func cmpOr(s, or string) string {
	if s == "" {
		return or
	}
	return s
}
