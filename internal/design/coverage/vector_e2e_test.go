package coverage_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/internal/design"
	"github.com/sortkeydb/sortkey/internal/design/apply"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// libraryServer serves the Library design's table, created as `sortkey
// design apply` creates it, with three books on two shelves.
func libraryServer(t *testing.T) (*sortkeytest.Server, *dynamodb.Client) {
	t.Helper()
	doc, err := os.ReadFile("../testdata/library.yaml")
	if err != nil {
		t.Fatal(err)
	}
	d, err := design.Parse(doc, "library.yaml")
	if err != nil {
		t.Fatal(err)
	}
	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{Design: doc})
	c := dynamodb.NewFromConfig(srv.NetworkAWSConfig())
	if _, err := c.CreateTable(bg, apply.CreateTableInput(d.Tables[0])); err != nil {
		t.Fatal(err)
	}
	for _, b := range []struct{ id, shelf, lang string }{{"1", "S#sf", "en"}, {"2", "S#sf", "fr"}, {"3", "S#poetry", "en"}} {
		item := map[string]types.AttributeValue{"pk": s("B#" + b.id), "sk": s("B"), "shelf": s(b.shelf), "lang": s(b.lang),
			"title": s("Book " + b.id), "emb": vec("1", b.id, "0")}
		if _, err := c.PutItem(bg, &dynamodb.PutItemInput{TableName: aws.String("Books"), Item: item}); err != nil {
			t.Fatal(err)
		}
	}
	return srv, c
}

func vec(ns ...string) types.AttributeValue {
	l := &types.AttributeValueMemberL{}
	for _, n := range ns {
		l.Value = append(l.Value, &types.AttributeValueMemberN{Value: n})
	}
	return l
}

func search(t *testing.T, c *dynamodb.Client, cond string, names map[string]string, values map[string]types.AttributeValue) int {
	t.Helper()
	in := &dynamodb.SearchVectorsInput{TableName: aws.String("Books"), IndexName: aws.String("ByEmbedding"),
		SearchVector: []types.AttributeValue{&types.AttributeValueMemberN{Value: "1"}, &types.AttributeValueMemberN{Value: "1"},
			&types.AttributeValueMemberN{Value: "0"}},
		TopK: aws.Int32(10), SearchConditionExpression: aws.String(cond), ExpressionAttributeNames: names, ExpressionAttributeValues: values}
	out, err := c.SearchVectors(bg, in)
	if err != nil {
		t.Fatal(err)
	}
	return len(out.SearchResults)
}

// SearchVectors calls count under the pattern whose hash (and filter)
// templates their search condition fits, with the items they returned
// and no read units; one that fits none is undeclared.
func TestSearchesCountUnderTheirPatterns(t *testing.T) {
	srv, c := libraryServer(t)
	if n := search(t, c, "shelf = :s", nil, map[string]types.AttributeValue{":s": s("S#sf")}); n != 2 {
		t.Fatalf("shelf sf: %d results", n)
	}
	if n := search(t, c, "#s = :s AND #l = :l", map[string]string{"#s": "shelf", "#l": "lang"},
		map[string]types.AttributeValue{":s": s("S#sf"), ":l": s("en")}); n != 1 {
		t.Fatalf("shelf sf in English: %d results", n)
	}
	search(t, c, "shelf = :s", nil, map[string]types.AttributeValue{":s": s("poetry")})
	search(t, c, "shelf = :s AND #y = :y", map[string]string{"#y": "year"}, map[string]types.AttributeValue{":s": s("S#sf"), ":y": &types.AttributeValueMemberN{Value: "1965"}})
	rep := report(t, srv)
	if p := patternOf(t, rep, "2"); p.Calls != 1 || p.Items != 2 || p.RCU != 0 || p.Operation != "SearchVectors" {
		t.Errorf("pattern 2: %+v", p)
	}
	p3 := patternOf(t, rep, "3")
	if p3.Calls != 1 || p3.Items != 1 || p3.RCU != 0 {
		t.Errorf("pattern 3: %+v", p3)
	}
	if f := p3.First; f == nil || f.Operation != "SearchVectors" || f.Limit != 10 || f.Items != 1 ||
		len(f.Bindings) != 2 || f.Bindings["shelf"] != "sf" || f.Bindings["lang"] != "en" {
		b, _ := json.Marshal(p3.First)
		t.Errorf("pattern 3's first call: %s", b)
	}
	u := undeclared(rep)
	for _, want := range []string{`SearchVectors Books (index ByEmbedding): shelf = "poetry"`,
		`SearchVectors Books (index ByEmbedding): shelf = "S#…", year = "1965"`} {
		if u[want].Calls != 1 {
			t.Errorf("no undeclared %q in %+v", want, rep.Undeclared)
		}
	}
	if len(rep.Undeclared) != 2 {
		t.Errorf("undeclared %+v", rep.Undeclared)
	}
}
