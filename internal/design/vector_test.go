package design

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseLibrary(t *testing.T) {
	d, err := Load("testdata/library.yaml")
	if err != nil {
		t.Fatal(err)
	}
	v := d.Tables[0].VectorIndexes[0]
	want := VectorIndex{Name: "ByEmbedding", VectorAttribute: "emb", Dimensions: 3, DistanceFunction: "COSINE",
		Hash:       &KeyAttr{Name: "shelf", Type: "S", Pos: Pos{14, 15}},
		Filters:    []KeyAttr{{Name: "lang", Type: "S", Pos: Pos{15, 19}}, {Name: "year", Type: "N", Pos: Pos{15, 42}}},
		Projection: Projection{Type: "INCLUDE", Attributes: []string{"title"}, Pos: Pos{16, 21}}, Pos: Pos{10, 9}}
	if !reflect.DeepEqual(v, want) {
		t.Errorf("vector index\n%+v\nwant\n%+v", v, want)
	}
	p := d.Patterns[2]
	if p.Operation != SearchOp || p.Index != "ByEmbedding" || p.TopK != 5 || p.Key["lang"] != (Condition{Op: "=", Value: "{lang}"}) || p.KeyPos["lang"] != (Pos{51, 31}) {
		t.Errorf("pattern 3: %+v", p)
	}
}

func TestParseRefusesUnknownVectorKey(t *testing.T) {
	doc := "tables:\n  - name: T\n    vectorIndexes:\n      - name: V\n        hash: {name: h, type: S}\n        filter: [{name: f, type: S}]\n"
	want := `d.yaml:6:9: error: unknown key "filter": did you mean filters?`
	if _, err := Parse([]byte(doc), "d.yaml"); err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	doc = "patterns:\n  - number: 1\n    topk: 3\n"
	want = `d.yaml:3:5: error: unknown key "topk": did you mean topK?`
	if _, err := Parse([]byte(doc), "d.yaml"); err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

// YAML and JSON carry a vector index and a SearchVectors pattern alike.
func TestMarshalLibraryRoundTrip(t *testing.T) {
	d, err := Load("testdata/library.yaml")
	if err != nil {
		t.Fatal(err)
	}
	d.Tables[0].VectorIndexes = append(d.Tables[0].VectorIndexes, VectorIndex{Name: "Plain", VectorAttribute: "emb2",
		Dimensions: 2, DistanceFunction: "DOT_PRODUCT", Projection: Projection{Type: "KEYS_ONLY"}})
	wantRoundTrip(t, d)
}

func vectorsWithoutPositions(vs []VectorIndex) []VectorIndex {
	out := append([]VectorIndex(nil), vs...)
	for i := range out {
		v := &out[i]
		v.Pos, v.Projection.Pos = Pos{}, Pos{}
		if v.Hash != nil {
			h := *v.Hash
			h.Pos, v.Hash = Pos{}, &h
		}
		v.Filters = append([]KeyAttr(nil), v.Filters...)
		for j := range v.Filters {
			v.Filters[j].Pos = Pos{}
		}
	}
	return out
}

// What a reader checks in the Library's document: the vector index with
// the patterns that search it, and each search's condition and cost.
func TestDocVectorIndexes(t *testing.T) {
	d, err := Load("testdata/library.yaml")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(Markdown(d))
	for _, want := range []string{
		"| ByEmbedding | Books | emb (L) | 3 | COSINE | shelf (S) | lang (S), year (N) | INCLUDE: title | 2 Books like this one on a shelf; 3 Books like this one on a shelf, in a language |",
		"| Books | table Books | pk (S) | sk (S) | ALL | 1 Get a book |",
		"| 2 | Books like this one on a shelf | Book | SearchVectors | Books / ByEmbedding | `shelf = \"S#{shelf}\"` | top 10 | vector search |",
		"| `shelf = \"S#{shelf}\" AND lang = \"{lang}\"` | top 5; reads pk, title | vector search |",
		"metered in bytes of vector data searched (VectorSearchRequestBytes), not read capacity",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("the document lacks %q\n%s", want, doc)
		}
	}
	market, err := Load("testdata/market-seed.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if md := string(Markdown(market)); strings.Contains(md, "Vector") || strings.Contains(md, "vector search") {
		t.Error("a design without vector indexes documents them")
	}
}
