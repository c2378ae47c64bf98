package workbench

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey/internal/design"
)

// same reports whether two designs are equal but for positions: their
// marshalled forms, which hold no positions, are compared.
func same(t *testing.T, got, want *design.Design) {
	t.Helper()
	g, err := design.Marshal(got, false)
	if err != nil {
		t.Fatal(err)
	}
	w, err := design.Marshal(want, false)
	if err != nil {
		t.Fatal(err)
	}
	if string(g) != string(w) {
		t.Errorf("got\n%s\nwant\n%s", g, w)
	}
}

func TestImportLibrary(t *testing.T) {
	data, err := os.ReadFile("testdata/library.json")
	if err != nil {
		t.Fatal(err)
	}
	got, warnings, err := Import(data, "library.json")
	if err != nil {
		t.Fatal(err)
	}
	want, err := design.Load("testdata/library.yaml")
	if err != nil {
		t.Fatal(err)
	}
	same(t, got, want)
	for _, w := range []string{
		`entity Author: key templates (PK: "AUTHOR#{AuthorId}") were derived from 2 sample item(s)`,
		`entity Book: key templates (PK: "AUTHOR#{AuthorId}", SK: "BOOK#{BookId}") were derived from 2 sample item(s)`,
		`entity Loan: no sample items, so its key templates (PK: "{MemberId}", SK: "{LoanId}") are placeholders`,
		"entity Loan: attribute shelf has no type",
		"table Library: the entities' discriminator was taken to be kind",
		`entity Counter: key templates (name: "loans") were derived from 1 sample item(s)`,
	} {
		if !slices.ContainsFunc(warnings, func(s string) bool { return strings.HasPrefix(s, w) }) {
			t.Errorf("no warning %q in\n%s", w, strings.Join(warnings, "\n"))
		}
	}
	if len(warnings) != 6 {
		t.Errorf("%d warnings:\n%s", len(warnings), strings.Join(warnings, "\n"))
	}
}

// lossy is what a design keeps through Workbench: no TTL, stream, LSIs,
// patterns or writes, required only on the table's keys, and
// PAY_PER_REQUEST as the default it is.
func lossy(d *design.Design) *design.Design {
	c := *d
	c.Tables = slices.Clone(d.Tables)
	for i := range c.Tables {
		t := &c.Tables[i]
		t.TTL, t.Stream, t.LSIs = "", "", nil
		if t.BillingMode == "PAY_PER_REQUEST" {
			t.BillingMode = ""
		}
	}
	c.Entities = slices.Clone(d.Entities)
	for i := range c.Entities {
		e := &c.Entities[i]
		e.Attributes = slices.Clone(e.Attributes)
		for j := range e.Attributes {
			a := &e.Attributes[j]
			a.Required = a.Name == tableOf(d, e.Table).PartitionKey.Name || (tableOf(d, e.Table).SortKey != nil && a.Name == tableOf(d, e.Table).SortKey.Name)
		}
		for _, l := range tableOf(d, e.Table).LSIs {
			delete(e.Keys, l.Name)
		}
	}
	c.Patterns, c.Writes = nil, nil
	return &c
}

func tableOf(d *design.Design, name string) design.Table {
	for _, t := range d.Tables {
		if t.Name == name {
			return t
		}
	}
	return design.Table{}
}

func TestExportImportRoundTrip(t *testing.T) {
	market, err := design.Load("../testdata/market.yaml")
	if err != nil {
		t.Fatal(err)
	}
	market.Tables[0].Stream = "NEW_IMAGE"
	library, err := design.Load("testdata/library.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []*design.Design{market, library} {
		out, warnings, err := Export(d, time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC))
		if err != nil {
			t.Fatal(err)
		}
		back, _, err := Import(out, "exported.json")
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		same(t, back, lossy(d))
		if d == market && !slices.Contains(warnings, "table Market: Time to Live (ttl) is not in Workbench's format and was left out") {
			t.Errorf("export warnings: %q", warnings)
		}
	}
}

func TestExportWritesWorkbenchMembers(t *testing.T) {
	d, err := design.Load("../testdata/market.yaml")
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := Export(d, time.Date(2026, 11, 25, 15, 4, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"ModelName": "Market"`, `"Version": "3.0"`, `"DateCreated": "Nov 25, 2026, 3:04 PM"`,
		`"PartitionKeyAlias": "userId"`, `"SortKeyAlias": "orderId"`, `"ProjectionType": "KEYS_ONLY"`, `"pk": {`, `"S": "U#{userId}#O"`,
		`"BillingMode": "PAY_PER_REQUEST"`, `"MySql": {}`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("export lacks %s:\n%s", want, out)
		}
	}
}

func TestImportRefuses(t *testing.T) {
	cases := map[string]string{
		`[]`:                  "not a NoSQL Workbench model",
		`{"DataModel": []}`:   "the model has no tables",
		`{"DataModel": [{}]}`: "DataModel[0] has no TableName",
		`{"DataModel": [{"TableName": "T", "KeyAttributes": {}}]}`: "table T: KeyAttributes needs one PartitionKey",
		`{"DataModel": [{"TableName": "T", "KeyAttributes": {"PartitionKey": {"AttributeName": "pk"}},
		  "GlobalSecondaryIndexes": [{"IndexName": "G"}]}]}`: "table T: GlobalSecondaryIndexes[0] needs",
		`{"DataModel": [{"TableName": 7}]}`: "not a NoSQL Workbench model",
	}
	for doc, want := range cases {
		if _, _, err := Import([]byte(doc), "m.json"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", doc, err, want)
		}
	}
	if _, _, err := Export(&design.Design{}, time.Time{}); err == nil {
		t.Error("a design without tables was exported")
	}
}

func FuzzImportWorkbench(f *testing.F) {
	// Small seeds: the fuzzer minimizes every new input it finds, which
	// takes long from a model the size of testdata/library.json.
	f.Add(`{"ModelName": "M", "DataModel": [{"TableName": "T", "KeyAttributes": {"PartitionKey": {"AttributeName": "pk", "AttributeType": "S"},
		"SortKey": {"AttributeName": "sk", "AttributeType": "S"}}, "NonKeyAttributes": [{"AttributeName": "tp", "AttributeType": "S"}],
		"TableFacets": [{"FacetName": "A", "KeyAttributeAlias": {"PartitionKeyAlias": "id"}, "NonKeyAttributes": ["tp", "g"]},
		{"FacetName": "B", "TableData": [{"pk": {"S": "B#{id}"}, "tp": {"S": "b"}}]}],
		"GlobalSecondaryIndexes": [{"IndexName": "G", "KeyAttributes": {"PartitionKey": {"AttributeName": "g", "AttributeType": "S"}}, "Projection": {"ProjectionType": "ALL"}}],
		"TableData": [{"pk": {"S": "A#1"}, "sk": {"S": "A"}, "tp": {"S": "a"}}, {"pk": {"S": "A#2"}, "sk": {"S": "A"}, "g": {"S": "x"}}]}]}`)
	f.Add(`{"DataModel": [{"TableName": "T", "KeyAttributes": {"PartitionKey": [{"AttributeName": "a"}, {"AttributeName": "b"}]},
		"TableFacets": [{"FacetName": "F", "TableData": [{"a": {"S": "x#{y"}}, {"a": {"N": "1"}}, {"a": 3}]}], "TableData": [{"b": {"S": "}"}}]}]}`)
	f.Fuzz(func(t *testing.T, doc string) {
		d, _, err := Import([]byte(doc), "fuzz.json")
		if err != nil {
			return
		}
		for _, e := range d.Entities {
			for _, keys := range e.Keys {
				for attr, tmpl := range keys {
					if _, err := tmpl.Parts(); err != nil {
						t.Fatalf("entity %s: %s's template %q does not parse: %v", e.Name, attr, tmpl, err)
					}
				}
			}
		}
		if _, _, err := Export(d, time.Time{}); err != nil {
			t.Fatalf("an imported design does not export: %v", err)
		}
	})
}

// TestExportWarnsOfVectorIndexes: Workbench's format has no vector
// indexes, so an export says it left them out.
func TestExportWarnsOfVectorIndexes(t *testing.T) {
	d, err := design.Load("../testdata/library.yaml")
	if err != nil {
		t.Fatal(err)
	}
	out, warnings, err := Export(d, time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(warnings, "table Books: vector indexes are not in Workbench's format and were left out") {
		t.Errorf("export warnings: %q", warnings)
	}
	if strings.Contains(string(out), "ByEmbedding") {
		t.Errorf("the export holds the vector index:\n%s", out)
	}
}
