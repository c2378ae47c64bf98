package apply

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/internal/design"
)

// index is a secondary index in the form both sides can be compared in.
type index struct {
	name string
	keys []types.KeySchemaElement
	proj *types.Projection
}

// compareTable reports how a live table differs from its design in what
// Apply does not change.
func (a *applier) compareTable(t design.Table, live *types.TableDescription) {
	want, have := designedTypes(t), liveTypes(live.AttributeDefinitions)
	if w, h := schemaText(keySchema(tableKeys(t)), want), schemaText(live.KeySchema, have); w != h {
		a.differ(t.Name, "", msgKeys, h, w)
	}
	if h := liveBilling(live); h != billing(t) {
		a.differ(t.Name, "", msgBilling, h, billing(t))
	}
	var gsis, lsis []index
	for _, g := range live.GlobalSecondaryIndexes {
		gsis = append(gsis, index{aws.ToString(g.IndexName), g.KeySchema, g.Projection})
	}
	for _, l := range live.LocalSecondaryIndexes {
		lsis = append(lsis, index{aws.ToString(l.IndexName), l.KeySchema, l.Projection})
	}
	a.compareIndexes(t.Name, designedIndexes(t.GSIs), gsis, want, have, "", msgGSIExtra)
	a.compareIndexes(t.Name, designedIndexes(t.LSIs), lsis, want, have, msgLSIMissing, msgLSIExtra)
	a.compareVectors(t, live.VectorIndexes)
}

// compareIndexes reports indexes that differ, are missing (when missing
// is not "": a missing GSI is added instead) or are not designed.
func (a *applier) compareIndexes(table string, designed, live []index, want, have map[string]string, missing, extra string) {
	byName := map[string]index{}
	for _, l := range live {
		byName[l.name] = l
	}
	for _, d := range designed {
		l, ok := byName[d.name]
		delete(byName, d.name)
		if !ok {
			if missing != "" {
				a.differ(table, d.name, "%s", missing)
			}
			continue
		}
		if w, h := schemaText(d.keys, want), schemaText(l.keys, have); w != h {
			a.differ(table, d.name, msgIndexKeys, h, w)
		}
		if w, h := projectionText(d.proj), projectionText(l.proj); w != h {
			a.differ(table, d.name, msgProjection, h, w)
		}
	}
	for _, l := range live {
		if _, ok := byName[l.name]; ok {
			a.differ(table, l.name, "%s", extra)
		}
	}
}

func designedIndexes(ix []design.Index) []index {
	var out []index
	for _, x := range ix {
		out = append(out, index{x.Name, keySchema(x.PartitionKey, x.SortKey), projection(x.Projection)})
	}
	return out
}

func designedTypes(t design.Table) map[string]string {
	out := map[string]string{}
	for _, k := range keyAttrs(t) {
		out[k.Name] = k.Type
	}
	return out
}

func liveTypes(defs []types.AttributeDefinition) map[string]string {
	out := map[string]string{}
	for _, d := range defs {
		out[aws.ToString(d.AttributeName)] = string(d.AttributeType)
	}
	return out
}

// liveBilling is the table's billing mode; DynamoDB leaves the summary
// out for a table that has always been provisioned.
func liveBilling(t *types.TableDescription) string {
	if t.BillingModeSummary == nil || t.BillingModeSummary.BillingMode == "" {
		return string(types.BillingModeProvisioned)
	}
	return string(t.BillingModeSummary.BillingMode)
}

// schemaText is a key schema as a person reads it, e.g.
// "partition pk (S), sort sk (S)".
func schemaText(ks []types.KeySchemaElement, typ map[string]string) string {
	var hash, rng []string
	for _, k := range ks {
		s := fmt.Sprintf("%s (%s)", aws.ToString(k.AttributeName), typ[aws.ToString(k.AttributeName)])
		if k.KeyType == types.KeyTypeHash {
			hash = append(hash, s)
		} else {
			rng = append(rng, s)
		}
	}
	out := "partition " + strings.Join(hash, " + ")
	if len(rng) > 0 {
		out += ", sort " + strings.Join(rng, " + ")
	}
	return out
}

// projectionText is a projection with its attributes in order: DynamoDB
// need not return them as they were given.
func projectionText(p *types.Projection) string {
	if p == nil {
		return string(types.ProjectionTypeAll)
	}
	if len(p.NonKeyAttributes) == 0 {
		return string(p.ProjectionType)
	}
	attrs := slices.Sorted(slices.Values(p.NonKeyAttributes))
	return string(p.ProjectionType) + " (" + strings.Join(attrs, ", ") + ")"
}
