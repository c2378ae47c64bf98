package design

import (
	"os"
	"slices"
	"strings"
	"testing"
)

func library(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("testdata/library.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// vectorCase breaks the Library design one way: the finding with code
// must be at the line where at starts, with exactly message says.
type vectorCase struct {
	name, old, new string
	code, at, says string
}

const searchPattern = "    operation: SearchVectors\n    table: Books\n    index: ByEmbedding\n    key: {shelf: \"S#{shelf}\"}\n    topK: 10\n"

const vectorIndexBlock = "    vectorIndexes:\n      - name: ByEmbedding\n        vectorAttribute: emb\n        dimensions: 3\n        distanceFunction: COSINE\n" +
	"        hash: {name: shelf, type: S}\n        filters: [{name: lang, type: S}, {name: year, type: N}]\n        projection: {type: INCLUDE, attributes: [title]}\n"

var vectorCases = []vectorCase{
	{"provisioned table", "    sortKey: {name: sk, type: S}\n", "    sortKey: {name: sk, type: S}\n    billingMode: PROVISIONED\n", "vector-billing", "- name: ByEmbedding",
		"table Books has vector indexes, which only an on-demand table can have: write billingMode: PAY_PER_REQUEST, or remove them"},
	{"six vector indexes", "    vectorIndexes:\n", "    vectorIndexes:\n" + strings.Repeat("      - {name: V, vectorAttribute: v, dimensions: 2, distanceFunction: DOT_PRODUCT, projection: {type: KEYS_ONLY}}\n", 5), "vector-count", "- name: ByEmbedding",
		"table Books has 6 vector indexes: a table has at most 5, so remove some"},
	{"vector index named as a GSI", "    vectorIndexes:\n", "    globalSecondaryIndexes:\n      - {name: ByEmbedding, partitionKey: {name: shelf, type: S}, projection: {type: ALL}}\n    vectorIndexes:\n", "duplicate", "- name: ByEmbedding\n",
		`index "ByEmbedding" is declared twice (first at line 10): rename one`},
	{"vector index named as its table", "- name: ByEmbedding", "- name: Books", "index-is-table", "- name: Books\n        vector",
		"index Books has its table's name, and keys entries are named by table or index: rename the index"},
	{"no vector attribute", "        vectorAttribute: emb\n", "", "missing", "- name: ByEmbedding",
		"vector index ByEmbedding has no vectorAttribute: add vectorAttribute:"},
	{"vector on the sort key", "vectorAttribute: emb", "vectorAttribute: sk", "vector-scalar", "- name: ByEmbedding",
		"vector index ByEmbedding: vector attribute sk is of type S in table Books, as a key or search attribute, but a vector is a list of numbers (L): keep the vector in an attribute of its own"},
	{"no dimensions", "        dimensions: 3\n", "", "vector-dims", "- name: ByEmbedding",
		"vector index ByEmbedding: dimensions is 0: give the vectors' length, 1 to 16000"},
	{"too many dimensions", "dimensions: 3", "dimensions: 16001", "vector-dims", "- name: ByEmbedding",
		"vector index ByEmbedding: dimensions is 16001: give the vectors' length, 1 to 16000"},
	{"distance function", "distanceFunction: COSINE", "distanceFunction: MANHATTAN", "vector-distance", "- name: ByEmbedding",
		`vector index ByEmbedding: distanceFunction "MANHATTAN" is not COSINE, EUCLIDEAN or DOT_PRODUCT`},
	{"too many filters", "filters: [{name: lang, type: S}, {name: year, type: N}]", "filters: [" + strings.Repeat("{name: f, type: S}, ", 16) + "{name: g, type: S}]", "vector-filters", "- name: ByEmbedding",
		"vector index ByEmbedding has 17 filters: an index has at most 16, so remove some"},
	{"filter named twice", "{name: year, type: N}]", "{name: lang, type: S}]", "vector-schema-twice", "{name: lang, type: S}]\n",
		"vector index ByEmbedding: lang is named twice among its hash and filters: name it once"},
	{"vector as a filter", "{name: year, type: N}]", "{name: emb, type: S}]", "vector-in-schema", "{name: lang, type: S}, {name: emb",
		"vector index ByEmbedding: emb is its vector attribute and so cannot be its hash or a filter: name another attribute"},
	{"hash of a non-scalar type", "hash: {name: shelf, type: S}", "hash: {name: shelf, type: SS}", "key-type", "hash:",
		`vector index ByEmbedding: key attribute shelf has type "SS": a key attribute is S, N or B`},
	{"filter typed against the keys", "{name: lang, type: S}", "{name: sk, type: N}", "attr-conflict", "filters:",
		"vector index ByEmbedding: key attribute sk has type N here but S elsewhere in table Books: an attribute has one type, so use one"},
	{"unnamed filter", "{name: lang, type: S}", "{type: S}", "missing", "filters:",
		"vector index ByEmbedding's search attribute has no name: add name:"},
	{"two lengths of one vector", "    vectorIndexes:\n", "    vectorIndexes:\n      - {name: Other, vectorAttribute: emb, dimensions: 4, distanceFunction: EUCLIDEAN, projection: {type: KEYS_ONLY}}\n", "vector-dims-differ", "- name: ByEmbedding",
		"vector index ByEmbedding: vector attribute emb has dimensions 3 here but 4 in vector index Other: an attribute holds vectors of one length, so use one"},
	{"projection type", "{type: INCLUDE, attributes: [title]}", "{type: SOME}", "proj-type", "projection: {type: SOME",
		`index ByEmbedding: projection type "SOME" is not ALL, KEYS_ONLY or INCLUDE`},
	{"vector declared a string", "{name: emb, type: L}", "{name: emb, type: S}", "vector-type", "{name: emb, type: S}",
		"entity Book: attribute emb is the vector of index ByEmbedding but is declared S: a vector is a list of numbers, so declare it L"},
	{"filter declared another type", "{name: year, type: N}\n      - {name: emb", "{name: year, type: S}\n      - {name: emb", "search-attr-type", "{name: year, type: S}",
		"entity Book: attribute year is declared S but is a search attribute of vector index ByEmbedding, of type N: declare it N"},
	{"unused vector index", "    vectorIndexes:\n", "    vectorIndexes:\n      - {name: Spare, vectorAttribute: emb, dimensions: 3, distanceFunction: EUCLIDEAN, projection: {type: KEYS_ONLY}}\n", "index-unused", "- {name: Spare",
		"index Spare serves no pattern, yet every write of an item it holds writes it too: remove it, or add the pattern it is for"},
	{"Query of a vector index", "    operation: SearchVectors\n    table: Books\n    index: ByEmbedding\n    key: {shelf: \"S#{shelf}\"}\n    topK: 10\n", "    operation: Query\n    table: Books\n    index: ByEmbedding\n    key: {shelf: \"S#{shelf}\"}\n", "vector-read", "number: 2",
		"pattern 2: ByEmbedding is a vector index, which only SearchVectors reads, not Query: make the operation SearchVectors, or read a secondary index"},
	{"topK on a GetItem", "    operation: GetItem\n", "    operation: GetItem\n    topK: 3\n", "topk-other", "number: 1",
		"pattern 1: topK is for SearchVectors, not GetItem: remove topK:, or use pageSize for a Limit"},
	{"no topK", searchPattern, strings.Replace(searchPattern, "    topK: 10\n", "", 1), "topk", "number: 2",
		"pattern 2: topK is 0: a SearchVectors pattern asks for 1 to 100 nearest items; give topK:"},
	{"topK over 100", "topK: 10", "topK: 101", "topk", "number: 2",
		"pattern 2: topK is 101: a SearchVectors pattern asks for 1 to 100 nearest items; give topK:"},
	{"a filter expression", searchPattern, searchPattern + "    filter: \"lang = :l\"\n", "search-option", "number: 2",
		"pattern 2: SearchVectors takes no filter: remove filter: (put equalities on the index's filters under key:)"},
	{"a page size", searchPattern, searchPattern + "    pageSize: 10\n", "search-option", "number: 2",
		"pattern 2: SearchVectors takes no pageSize: remove pageSize: (topK is how many it returns)"},
	{"a direction", searchPattern, searchPattern + "    direction: backward\n", "search-option", "number: 2",
		"pattern 2: SearchVectors takes no direction: remove direction: (results come nearest first)"},
	{"search of no index", "    index: ByEmbedding\n    key: {shelf: \"S#{shelf}\"}\n", "    key: {shelf: \"S#{shelf}\"}\n", "search-index", "number: 2",
		`pattern 2: table Books has no vector index "": use one of ByEmbedding`},
	{"search of a table without vector indexes", vectorIndexBlock, "", "search-index", "number: 2",
		`pattern 2: table Books has no vector index "ByEmbedding": use one of none: declare one under vectorIndexes`},
	{"search of an unknown table", "    table: Books\n    index: ByEmbedding\n    key: {shelf: \"S#{shelf}\"}\n    topK: 10", "    table: Book\n    index: ByEmbedding\n    key: {shelf: \"S#{shelf}\"}\n    topK: 10", "pattern-table", "number: 2",
		`pattern 2: table "Book" is not declared: use one of Books`},
	{"returns an entity without the vector", "      - {name: emb, type: L}\n", "", "not-in-vector", "number: 2",
		"pattern 2 returns Book, which does not declare emb and so is not in vector index ByEmbedding: add the attribute to the entity, or drop it from returns"},
	{"returns an entity of another table", "    table: Books\n    attributes:", "    table: Audit\n    attributes:", "other-table", "number: 2",
		"pattern 2 returns Book, an entity of table Audit, but reads table Books: drop it from returns"},
	{"condition on a non-search attribute", `key: {shelf: "S#{shelf}"}`, `key: {shelf: "S#{shelf}", title: "{title}"}`, "search-attr", "key: {shelf: \"S#{shelf}\", title",
		"pattern 2: title is neither the hash nor a filter of vector index ByEmbedding (its search attributes: shelf, lang, year): condition one of those, or add it to the index's filters"},
	{"range on a filter", `key: {shelf: "S#{shelf}"}`, `key: {shelf: "S#{shelf}", year: {op: ">", value: "2000"}}`, "search-op", "key: {shelf: \"S#{shelf}\", year",
		"pattern 2: year is compared with >: a search condition takes only =; give its value"},
	{"no hash", `key: {shelf: "S#{shelf}"}`, `key: {lang: "en"}`, "search-hash", "number: 2",
		`pattern 2: vector index ByEmbedding has hash shelf, whose value every search gives: add shelf: "..." under key:`},
	{"reads what is not projected", "    attributes: [pk, title]\n", "    attributes: [pk, title, summary]\n", "proj-missing", "number: 3",
		"pattern 3 reads summary, which index ByEmbedding does not project: add them with projection: {type: INCLUDE, attributes: [...]}, or project ALL"},
}

func TestCheckLibrary(t *testing.T) {
	if fs := Check(mustParse(t, library(t))); len(fs) > 0 {
		t.Fatalf("the Library design: %v", fs)
	}
}

func TestCheckVectorMistakes(t *testing.T) {
	base := library(t)
	for _, c := range vectorCases {
		doc := strings.Replace(base, c.old, c.new, 1)
		if doc == base {
			t.Fatalf("%s: %q is not in the Library design", c.name, c.old)
		}
		d, err := Parse([]byte(doc), "t.yaml")
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		fs := Check(d)
		i := slices.IndexFunc(fs, func(f Finding) bool { return f.Code == c.code && f.Message == c.says })
		if i < 0 {
			t.Errorf("%s: no %s finding saying %q in\n%v", c.name, c.code, c.says, fs)
			continue
		}
		if want := lineOf(doc, c.at); fs[i].Pos.Line != want {
			t.Errorf("%s: finding at line %d, want %d (%q)", c.name, fs[i].Pos.Line, want, c.at)
		}
	}
}

// The Library example in docs/DESIGN-FILES.md is what check finds in
// the design broken as that section says.
func TestDesignFilesShowsVectorFindings(t *testing.T) {
	docs, err := os.ReadFile("../../docs/DESIGN-FILES.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := library(t)
	for _, r := range [][2]string{
		{"dimensions: 3", "dimensions: 0"},
		{"    operation: SearchVectors", "    operation: Query"},
		{`    key: {shelf: "S#{shelf}", lang: "{lang}"}`, `    key: {lang: "{lang}"}`},
		{"    topK: 5", "    topK: 500"},
	} {
		doc = strings.Replace(doc, r[0], r[1], 1)
	}
	fs := Check(mustParse(t, doc))
	if len(fs) != 5 {
		t.Errorf("findings %v", fs)
	}
	for _, f := range fs {
		if line := f.String("library.yaml"); !strings.Contains(string(docs), line) {
			t.Errorf("DESIGN-FILES.md does not show %q", line)
		}
	}
}
