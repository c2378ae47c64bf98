package apply

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/internal/design"
)

// vectorIndex is the CreateTable form of v.
func vectorIndex(v design.VectorIndex) types.VectorIndex {
	c := vectorCreate(v)
	return types.VectorIndex{IndexName: c.IndexName, VectorAttribute: c.VectorAttribute, Dimensions: c.Dimensions,
		DistanceFunction: c.DistanceFunction, Projection: c.Projection, SearchSchema: c.SearchSchema}
}

// vectorCreate is the UpdateTable form of v, which has the same members.
func vectorCreate(v design.VectorIndex) *types.CreateVectorIndexAction {
	return &types.CreateVectorIndexAction{
		IndexName:        aws.String(v.Name),
		VectorAttribute:  &types.VectorAttributeDefinition{AttributeName: aws.String(v.VectorAttribute)},
		Dimensions:       aws.Int64(int64(v.Dimensions)),
		DistanceFunction: types.VectorDistanceFunction(v.DistanceFunction),
		Projection:       projection(v.Projection),
		SearchSchema:     searchSchema(v),
	}
}

func searchSchema(v design.VectorIndex) []types.SearchSchemaElement {
	var out []types.SearchSchemaElement
	if v.Hash != nil {
		out = append(out, types.SearchSchemaElement{AttributeName: aws.String(v.Hash.Name), SearchSchemaElementType: types.SearchSchemaElementTypeHash})
	}
	for _, f := range v.Filters {
		out = append(out, types.SearchSchemaElement{AttributeName: aws.String(f.Name), SearchSchemaElementType: types.SearchSchemaElementTypeInlineFilter})
	}
	return out
}

// searchAttrs are the attributes t's vector indexes search on, which
// AttributeDefinitions must type as it types keys.
func searchAttrs(t design.Table) []design.KeyAttr {
	var out []design.KeyAttr
	for _, v := range t.VectorIndexes {
		if v.Hash != nil {
			out = append(out, *v.Hash)
		}
		out = append(out, v.Filters...)
	}
	return out
}

func vectorNote(t design.Table) string {
	if len(t.VectorIndexes) == 0 {
		return ""
	}
	var names []string
	for _, v := range t.VectorIndexes {
		names = append(names, v.Name)
	}
	return fmt.Sprintf(noteVectors, strings.Join(names, ", "))
}

// addVectors adds t's vector indexes the live table lacks, one per
// UpdateTable as DynamoDB requires; a provisioned table can have none,
// and that is reported instead.
func (a *applier) addVectors(ctx context.Context, t design.Table, live *types.TableDescription) error {
	for _, v := range t.VectorIndexes {
		if slices.ContainsFunc(live.VectorIndexes, func(l types.VectorIndexDescription) bool { return aws.ToString(l.IndexName) == v.Name }) {
			continue
		}
		if liveBilling(live) != payPerRequest {
			a.differ(t.Name, v.Name, msgVectorProvisioned)
			continue
		}
		if err := a.addVector(ctx, t, v); err != nil {
			return err
		}
	}
	return nil
}

func (a *applier) addVector(ctx context.Context, t design.Table, v design.VectorIndex) error {
	a.change(t.Name, v.Name, actAddVector)
	if a.o.DryRun {
		return nil
	}
	_, err := a.c.UpdateTable(ctx, &dynamodb.UpdateTableInput{
		TableName:            aws.String(t.Name),
		AttributeDefinitions: definitions(t),
		VectorIndexUpdates:   []types.VectorIndexUpdate{{Create: vectorCreate(v)}},
	})
	if err != nil {
		return err
	}
	return a.waitActive(ctx, t.Name)
}

// compareVectors reports designed vector indexes that differ from the
// live ones, and live ones the design lacks; a missing one is added.
func (a *applier) compareVectors(t design.Table, live []types.VectorIndexDescription) {
	byName := map[string]types.VectorIndexDescription{}
	for _, l := range live {
		byName[aws.ToString(l.IndexName)] = l
	}
	for _, v := range t.VectorIndexes {
		l, ok := byName[v.Name]
		delete(byName, v.Name)
		if ok {
			a.compareVector(t.Name, v, l)
		}
	}
	for _, l := range live {
		if _, ok := byName[aws.ToString(l.IndexName)]; ok {
			a.differ(t.Name, aws.ToString(l.IndexName), "%s", msgVectorExtra)
		}
	}
}

// compareVector reports each member of a live vector index that is not
// as designed: none can be changed in place.
func (a *applier) compareVector(table string, v design.VectorIndex, l types.VectorIndexDescription) {
	want := vectorIndex(v)
	for _, m := range []struct{ what, have, want string }{
		{"vector attribute", vectorAttr(l.VectorAttribute), vectorAttr(want.VectorAttribute)},
		{"dimensions", fmt.Sprint(aws.ToInt64(l.Dimensions)), fmt.Sprint(v.Dimensions)},
		{"distance function", string(l.DistanceFunction), v.DistanceFunction},
		{"search schema", schemaElements(l.SearchSchema), schemaElements(want.SearchSchema)},
	} {
		if m.have != m.want {
			a.differ(table, v.Name, msgVectorMember, m.what, m.have, m.want)
		}
	}
	if w, h := projectionText(want.Projection), projectionText(l.Projection); w != h {
		a.differ(table, v.Name, msgProjection, h, w)
	}
}

func vectorAttr(v *types.VectorAttributeDefinition) string {
	if v == nil {
		return ""
	}
	return aws.ToString(v.AttributeName)
}

// schemaElements is a search schema as a person reads it, e.g.
// "HASH shelf, INLINE_FILTER lang", or "none".
func schemaElements(s []types.SearchSchemaElement) string {
	if len(s) == 0 {
		return "none"
	}
	var out []string
	for _, e := range s {
		out = append(out, string(e.SearchSchemaElementType)+" "+aws.ToString(e.AttributeName))
	}
	return strings.Join(out, ", ")
}

// vectorsActive reports whether every vector index of t is ACTIVE and
// done backfilling: until then DynamoDB refuses searches of it and the
// next UpdateTable.
func vectorsActive(t *types.TableDescription) bool {
	for _, v := range t.VectorIndexes {
		if v.IndexStatus != types.IndexStatusActive || aws.ToBool(v.Backfilling) {
			return false
		}
	}
	return true
}

// vectorProblems are what DynamoDB would refuse in t's vector indexes
// before Apply sends anything; names shares the table's index names.
func vectorProblems(t design.Table, names map[string]bool) []string {
	var ps []string
	if len(t.VectorIndexes) > 0 && billing(t) != payPerRequest {
		ps = append(ps, errVectorBilling)
	}
	for _, v := range t.VectorIndexes {
		ps = append(ps, namedIndexProblems(v.Name, v.Projection, names)...)
		if v.VectorAttribute == "" || v.Dimensions < 1 || !distances[v.DistanceFunction] {
			ps = append(ps, fmt.Sprintf(errVector, v.Name))
		}
	}
	return ps
}

var distances = map[string]bool{"COSINE": true, "EUCLIDEAN": true, "DOT_PRODUCT": true}
