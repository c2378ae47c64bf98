package apply

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/internal/design"
)

// library is a design with a vector index of a hash and two filters.
func library(t *testing.T) *design.Design {
	t.Helper()
	d, err := design.Load("../testdata/library.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func vectorOf(td *types.TableDescription, name string) *types.VectorIndexDescription {
	i := slices.IndexFunc(td.VectorIndexes, func(v types.VectorIndexDescription) bool { return aws.ToString(v.IndexName) == name })
	if i < 0 {
		return nil
	}
	return &td.VectorIndexes[i]
}

// vectorText is a live vector index as the design writes one.
func vectorText(v *types.VectorIndexDescription) string {
	return strings.Join([]string{vectorAttr(v.VectorAttribute), string(v.DistanceFunction),
		schemaElements(v.SearchSchema), projectionText(v.Projection), string(v.IndexStatus)}, " / ")
}

func TestApplyCreatesVectorIndexes(t *testing.T) {
	c := server(t)
	r := apply(t, c, library(t), Options{})
	want := []Change{{Table: "Books", Action: "create the table with 0 global and 0 local secondary indexes, vector indexes ByEmbedding"}}
	if !slices.Equal(r.Changes, want) || !r.Matches() {
		t.Fatalf("report:\n%s", r)
	}
	td := describe(t, c, "Books")
	v := vectorOf(td, "ByEmbedding")
	if v == nil || aws.ToInt64(v.Dimensions) != 3 || aws.ToBool(v.Backfilling) {
		t.Fatalf("vector indexes: %+v", td.VectorIndexes)
	}
	if got := vectorText(v); got != "emb / COSINE / HASH shelf, INLINE_FILTER lang, INLINE_FILTER year / INCLUDE (title) / ACTIVE" {
		t.Errorf("ByEmbedding: %s", got)
	}
	if got := liveTypes(td.AttributeDefinitions); got["shelf"] != "S" || got["lang"] != "S" || got["year"] != "N" || len(got) != 5 {
		t.Errorf("attribute definitions: %v", got)
	}
	searchFinds(t, c)
	if r := apply(t, c, library(t), Options{}); len(r.Changes) != 0 || len(r.Differences) != 0 {
		t.Errorf("second apply:\n%s", r)
	}
}

// searchFinds stores a book and finds it through the index apply made,
// as the design's pattern 2 does.
func searchFinds(t *testing.T, c *dynamodb.Client) {
	t.Helper()
	n := func(s string) types.AttributeValue { return &types.AttributeValueMemberN{Value: s} }
	_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Books"), Item: map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: "B#1"}, "sk": &types.AttributeValueMemberS{Value: "B"},
		"shelf": &types.AttributeValueMemberS{Value: "S#sf"}, "title": &types.AttributeValueMemberS{Value: "Dune"},
		"emb": &types.AttributeValueMemberL{Value: []types.AttributeValue{n("1"), n("0"), n("0")}}}})
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.SearchVectors(ctx, &dynamodb.SearchVectorsInput{TableName: aws.String("Books"), IndexName: aws.String("ByEmbedding"),
		SearchVector: []types.AttributeValue{n("1"), n("0.1"), n("0")}, TopK: aws.Int32(10),
		SearchConditionExpression: aws.String("shelf = :s"), ExpressionAttributeValues: map[string]types.AttributeValue{":s": &types.AttributeValueMemberS{Value: "S#sf"}}})
	if err != nil || len(out.SearchResults) != 1 {
		t.Fatalf("search: %v %+v", err, out)
	}
	if title, _ := out.SearchResults[0].Item["title"].(*types.AttributeValueMemberS); title == nil || title.Value != "Dune" {
		t.Errorf("found %+v", out.SearchResults[0].Item)
	}
}

func TestApplyAddsVectorIndexes(t *testing.T) {
	c := server(t)
	d := library(t)
	designed := d.Tables[0].VectorIndexes
	d.Tables[0].VectorIndexes = nil
	apply(t, c, d, Options{})
	d.Tables[0].VectorIndexes = append(designed, design.VectorIndex{Name: "ByCover", VectorAttribute: "cover", Dimensions: 2,
		DistanceFunction: "DOT_PRODUCT", Projection: design.Projection{Type: "KEYS_ONLY"}})
	if r := apply(t, c, d, Options{DryRun: true}); len(r.Changes) != 2 || len(describe(t, c, "Books").VectorIndexes) != 0 {
		t.Fatalf("dry run:\n%s", r)
	}
	r := apply(t, c, d, Options{})
	want := []Change{{Table: "Books", Index: "ByEmbedding", Action: actAddVector}, {Table: "Books", Index: "ByCover", Action: actAddVector}}
	if !slices.Equal(r.Changes, want) || !r.Matches() {
		t.Fatalf("report:\n%s", r)
	}
	td := describe(t, c, "Books")
	if v := vectorOf(td, "ByCover"); v == nil || vectorText(v) != "cover / DOT_PRODUCT / none / KEYS_ONLY / ACTIVE" {
		t.Errorf("ByCover: %+v", v)
	}
	searchFinds(t, c)
	if r := apply(t, c, d, Options{}); len(r.Changes) != 0 || len(r.Differences) != 0 {
		t.Errorf("third apply:\n%s", r)
	}
}

// TestApplyReportsVectorDifferences builds a live vector index unlike
// its design in every member, and one the design lacks.
func TestApplyReportsVectorDifferences(t *testing.T) {
	c := server(t)
	d := library(t)
	live := createInput(d.Tables[0])
	live.AttributeDefinitions = []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
		{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS}, {AttributeName: aws.String("lang"), AttributeType: types.ScalarAttributeTypeS}}
	live.VectorIndexes = []types.VectorIndex{
		{IndexName: aws.String("ByEmbedding"), VectorAttribute: &types.VectorAttributeDefinition{AttributeName: aws.String("vec")},
			Dimensions: aws.Int64(4), DistanceFunction: types.VectorDistanceFunctionEuclidean,
			Projection:   &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
			SearchSchema: []types.SearchSchemaElement{{AttributeName: aws.String("lang"), SearchSchemaElementType: types.SearchSchemaElementTypeHash}}},
		{IndexName: aws.String("Old"), VectorAttribute: &types.VectorAttributeDefinition{AttributeName: aws.String("old")},
			Dimensions: aws.Int64(2), DistanceFunction: types.VectorDistanceFunctionCosine, Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}
	if _, err := c.CreateTable(ctx, live); err != nil {
		t.Fatal(err)
	}
	r := apply(t, c, d, Options{})
	var got []string
	for _, diff := range r.Differences {
		got = append(got, diff.String())
	}
	const cannot = ": a vector index cannot be changed; delete the index and apply again, or change the design"
	want := []string{
		"table Books, index ByEmbedding: the vector attribute is vec, the design has emb" + cannot,
		"table Books, index ByEmbedding: the dimensions is 4, the design has 3" + cannot,
		"table Books, index ByEmbedding: the distance function is EUCLIDEAN, the design has COSINE" + cannot,
		"table Books, index ByEmbedding: the search schema is HASH lang, the design has HASH shelf, INLINE_FILTER lang, INLINE_FILTER year" + cannot,
		"table Books, index ByEmbedding: the projection is KEYS_ONLY, the design has INCLUDE (title): an index's projection cannot be changed; delete the index and apply again, or change the design",
		"table Books, index Old: the table has this vector index and the design does not: add it to the design, or delete it",
	}
	if !slices.Equal(got, want) || len(r.Changes) != 0 || r.Matches() {
		t.Errorf("differences:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A provisioned live table cannot have a vector index: apply says so
// rather than send an UpdateTable DynamoDB would refuse.
func TestApplyVectorOnProvisionedTable(t *testing.T) {
	c := server(t)
	d := library(t)
	designed := d.Tables[0].VectorIndexes
	d.Tables[0].VectorIndexes, d.Tables[0].BillingMode = nil, "PROVISIONED"
	apply(t, c, d, Options{})
	d.Tables[0].VectorIndexes, d.Tables[0].BillingMode = designed, ""
	r := apply(t, c, d, Options{})
	want := []Difference{
		{Table: "Books", Message: "the billing mode is PROVISIONED, the design has PAY_PER_REQUEST: apply does not change billing; use UpdateTable or change the design"},
		{Table: "Books", Index: "ByEmbedding", Message: msgVectorProvisioned},
	}
	if !slices.Equal(r.Differences, want) || len(r.Changes) != 0 {
		t.Errorf("report:\n%s", r)
	}
}

func TestApplyRefusesBadVectorIndexes(t *testing.T) {
	c := server(t)
	d := library(t)
	b := &d.Tables[0]
	b.BillingMode = "PROVISIONED"
	b.GSIs = []design.Index{{Name: "ByEmbedding", PartitionKey: design.KeyAttrs{{Name: "year", Type: "N"}}, Projection: design.Projection{Type: "ALL"}}}
	b.VectorIndexes = append(b.VectorIndexes, design.VectorIndex{Name: "x", Projection: design.Projection{Type: "ALL"}})
	b.VectorIndexes[0].Filters[1].Type = "S"
	_, err := Apply(ctx, c, d, Options{})
	if !errors.Is(err, ErrInvalid) {
		t.Fatalf("got %v", err)
	}
	for _, want := range []string{
		"../testdata/library.yaml:6:5: table Books: vector indexes need billing mode PAY_PER_REQUEST",
		"table Books: index ByEmbedding is designed twice",
		`table Books: index name "x": DynamoDB names are 3 to 255`,
		"table Books: vector index x needs a vectorAttribute, dimensions of at least 1 and a distanceFunction of COSINE, EUCLIDEAN or DOT_PRODUCT",
		"table Books: attribute year is a key of type N and of type S",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%v\nlacks %q", err, want)
		}
	}
	if out, _ := c.ListTables(ctx, &dynamodb.ListTablesInput{}); len(out.TableNames) != 0 {
		t.Errorf("a refused design created %v", out.TableNames)
	}
}
