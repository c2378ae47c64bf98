package design

import (
	"strings"
	"testing"
)

func TestParseMarket(t *testing.T) {
	d, err := Load("testdata/market.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "Market" || len(d.Tables) != 1 || len(d.Tables[0].GSIs) != 2 || len(d.Entities) != 3 || len(d.Patterns) != 4 {
		t.Fatalf("parsed %+v", d)
	}
	gsi := d.Tables[0].GSIs[0]
	if gsi.Pos != (Pos{11, 9}) || gsi.PartitionKey[0].Name != "sk" || gsi.PartitionKey[0].Pos.Line != 12 {
		t.Errorf("ReverseIndex at %v, its key %+v", gsi.Pos, gsi.PartitionKey)
	}
	p := d.Patterns[3]
	if p.Number != "4b" || p.Key["sk"] != (Condition{Op: "begins_with", Value: "O#{orderId}"}) || p.Key["pk"].Op != "=" || p.KeyPos["sk"].Line == 0 {
		t.Errorf("pattern 4b: %+v", p)
	}
	if d.Patterns[0].Number != "1" {
		t.Errorf("a number written as an integer: %q", d.Patterns[0].Number)
	}
	if d.Entities[1].Keys["IdLookupIndex"]["tp"] != "O" || d.Entities[1].KeysPos["ReverseIndex"].Line == 0 {
		t.Errorf("Order's keys: %+v at %v", d.Entities[1].Keys, d.Entities[1].KeysPos)
	}
}

func TestParseJSON(t *testing.T) {
	doc := "{\n\t\"version\": 1, \"name\": \"T\",\n\t\"tables\": [{\"name\": \"T\", \"partitionKey\": {\"name\": \"pk\", \"type\": \"S\"}}]\n}"
	d, err := Parse([]byte(doc), "t.json")
	if err != nil {
		t.Fatal(err)
	}
	if d.Tables[0].Pos != (Pos{3, 13}) {
		t.Errorf("table at %v", d.Tables[0].Pos)
	}
}

func TestParseRefuses(t *testing.T) {
	cases := []struct{ doc, want string }{
		{"version: 1\ntables:\n  - name: T\n    partitionKey: {name: pk, type: S}\n    sortkey: {name: sk, type: S}\n", "f.yaml:5:5: error: unknown key \"sortkey\": did you mean sortKey?"},
		{"tables: [", "f.yaml: "},
		{"", "the file is empty"},
		{"patterns:\n  - key: {pk: [1, 2]}\n", "f.yaml: line 2"},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.doc), "f.yaml")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.doc, err, c.want)
		}
	}
}

// A misspelt key is refused where it was written, file:line:col as
// Check's findings are, with the valid key nearest to it, at any depth of
// a YAML or JSON design.
func TestParseRefusesUnknownKeyWithPlaceAndSuggestion(t *testing.T) {
	table := "version: 1\ntables:\n  - name: T\n    partitionKey: {name: pk, type: S}\n"
	cases := []struct{ file, doc, want string }{
		{"d.yaml", "version: 1\nnmae: X\n", `d.yaml:2:1: error: unknown key "nmae": did you mean name?`},
		{"d.yaml", table + "    sortkey: {name: sk, type: S}\n", `d.yaml:5:5: error: unknown key "sortkey": did you mean sortKey?`},
		{"d.yaml", table + "    globalSecondaryIndexes:\n      - name: G\n        partitionKey: {name: g, tipe: S}\n",
			`d.yaml:7:33: error: unknown key "tipe": did you mean type?`},
		{"d.yaml", table + "    localSecondaryIndexes:\n      - name: L\n        projection: {type: INCLUDE, atributes: [a]}\n",
			`d.yaml:7:37: error: unknown key "atributes": did you mean attributes?`},
		{"d.yaml", "patterns:\n  - number: 1\n    key: {pk: {op: begins_with, valeu: x}}\n", `d.yaml:3:33: error: unknown key "valeu": did you mean value?`},
		{"d.yaml", "entities:\n  - name: E\n    discriminator: {attribute: tp, vaule: E}\n", `d.yaml:3:36: error: unknown key "vaule": did you mean value?`},
		{"d.yaml", "tables:\n  - &t\n    name: T\n  - <<: *t\n    nmae: U\n", `d.yaml:5:5: error: unknown key "nmae": did you mean name?`},
		{"d.json", "{\n  \"version\": 1,\n  \"tables\": [{\"name\": \"T\", \"partitionkey\": {}}]\n}", `d.json:3:28: error: unknown key "partitionkey": did you mean partitionKey?`},
	}
	for _, c := range cases {
		if _, err := Parse([]byte(c.doc), c.file); err == nil || err.Error() != c.want {
			t.Errorf("%q:\ngot  %v\nwant %s", c.doc, err, c.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add("version: 1\nname: x\ntables: [{name: T, partitionKey: {name: pk, type: S}}]")
	f.Add(`{"patterns": [{"key": {"pk": "U#{id}", "sk": {"op": "between", "value": "a", "value2": "b"}}}]}`)
	f.Add("entities:\n  - keys: {T: {pk: a}}\n")
	f.Fuzz(func(t *testing.T, doc string) {
		d, err := Parse([]byte(doc), "fuzz.yaml")
		if err == nil && d == nil {
			t.Fatal("no design and no error")
		}
	})
}
