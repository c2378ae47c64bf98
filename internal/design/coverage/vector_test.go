package coverage

import (
	"fmt"
	"testing"

	"github.com/sortkeydb/sortkey/internal/design"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// library is the Library design with a second vector index, without a
// hash, and a pattern that searches all of it.
func library(t *testing.T) *design.Design {
	t.Helper()
	d, err := design.Load("../testdata/library.yaml")
	if err != nil {
		t.Fatal(err)
	}
	d.Tables[0].VectorIndexes = append(d.Tables[0].VectorIndexes, design.VectorIndex{Name: "ByCover", VectorAttribute: "cover",
		Dimensions: 2, DistanceFunction: "EUCLIDEAN", Projection: design.Projection{Type: "KEYS_ONLY"}})
	d.Patterns = append(d.Patterns, design.Pattern{Number: "4", Name: "Books with a cover like this", Returns: []string{"Book"},
		Operation: "SearchVectors", Table: "Books", Index: "ByCover", TopK: 3})
	return d
}

const coverSearch = `{"TableName":"Books","IndexName":"ByCover","SearchVector":[{"N":"1"},{"N":"2"}],"TopK":3`

func TestSearchWithoutConditionFitsAPatternWithoutKey(t *testing.T) {
	r := New(library(t))
	observe(t, r, "SearchVectors", coverSearch+`}`, &protocol.SearchVectorsOutput{SearchResults: make([]protocol.SearchResultItem, 3)})
	rep := r.Report()
	if p := pattern(t, rep, "4"); p.Calls != 1 || p.Items != 3 || p.RCU != 0 {
		t.Errorf("pattern 4: %+v", p)
	}
	if len(rep.Undeclared) != 0 {
		t.Errorf("undeclared %+v", rep.Undeclared)
	}
}

// A condition the parser refuses, or one on an index no pattern reads,
// is undeclared under its operation, table and index.
func TestSearchesOfNoPatternAreUndeclared(t *testing.T) {
	r := New(library(t))
	observe(t, r, "SearchVectors", coverSearch+`,"SearchConditionExpression":"shelf = "}`, nil)
	observe(t, r, "SearchVectors", `{"TableName":"Books","IndexName":"Other","SearchVector":[{"N":"1"}],"TopK":1,`+
		`"SearchConditionExpression":"shelf = :s","ExpressionAttributeValues":{":s":{"S":"S#sf"}}}`, nil)
	rep := r.Report()
	want := []string{"SearchVectors Books (index ByCover)", `SearchVectors Books (index Other): shelf = "S#…"`}
	if len(rep.Undeclared) != 2 || rep.Undeclared[0].Request != want[0] || rep.Undeclared[1].Request != want[1] {
		t.Errorf("undeclared %+v, want %q", rep.Undeclared, want)
	}
	if p := pattern(t, rep, "4"); p.Calls != 0 {
		t.Errorf("pattern 4: %+v", p)
	}
}

// A search condition is parsed once per expression and #names, as a
// Query's key condition is: the same text with other #names is another
// condition, and a call refused for its values decides nothing.
func TestSearchConditionsParsedOnceStillFitTheirPatterns(t *testing.T) {
	r := New(library(t))
	const cond = `"SearchConditionExpression":"#a = :s","ExpressionAttributeNames":{"#a":%q}`
	for _, body := range []string{
		fmt.Sprintf(cond+`}`, "shelf"),
		fmt.Sprintf(cond+`,"ExpressionAttributeValues":{":s":{"S":"S#sf"}}}`, "shelf"),
		fmt.Sprintf(cond+`,"ExpressionAttributeValues":{":s":{"S":"S#sf"}}}`, "lang"),
	} {
		observe(t, r, "SearchVectors", `{"TableName":"Books","IndexName":"ByEmbedding","SearchVector":[{"N":"1"},{"N":"2"}],"TopK":3,`+body, nil)
	}
	rep := r.Report()
	if p := pattern(t, rep, "2"); p.Calls != 1 {
		t.Errorf("pattern 2: %+v, want the call with its value", p)
	}
	want := []string{"SearchVectors Books (index ByEmbedding)", `SearchVectors Books (index ByEmbedding): lang = "S#…"`}
	if len(rep.Undeclared) != 2 || rep.Undeclared[0].Request != want[0] || rep.Undeclared[1].Request != want[1] {
		t.Errorf("undeclared %+v, want %q", rep.Undeclared, want)
	}
}
