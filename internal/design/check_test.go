package design

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// shop is a small clean design; each case below breaks it one way.
const shop = `version: 1
name: Shop
tables:
  - name: Shop
    partitionKey: {name: pk, type: S}
    sortKey: {name: sk, type: S}
    globalSecondaryIndexes:
      - name: GSI1
        partitionKey: {name: gsi1pk, type: S}
        sortKey: {name: gsi1sk, type: S}
        projection: {type: INCLUDE, attributes: [total]}
entities:
  - name: Customer
    table: Shop
    discriminator: {attribute: tp, value: C}
    attributes:
      - {name: pk, type: S}
      - {name: sk, type: S}
      - {name: tp, type: S}
      - {name: email, type: S}
    keys:
      Shop: {pk: "C#{customerId}", sk: "C#{customerId}"}
  - name: Order
    table: Shop
    attributes:
      - {name: pk, type: S}
      - {name: sk, type: S}
      - {name: gsi1pk, type: S}
      - {name: gsi1sk, type: S}
      - {name: total, type: N}
    keys:
      Shop: {pk: "C#{customerId}", sk: "O#{orderId}"}
      GSI1: {gsi1pk: "S#{status}", gsi1sk: "O#{orderId}"}
writes:
  - number: W1
    name: Place an order
    operation: PutItem
    entities: [Order]
patterns:
  - number: 1
    name: Get customer
    returns: [Customer]
    operation: GetItem
    table: Shop
    key: {pk: "C#{customerId}", sk: "C#{customerId}"}
  - number: 2
    name: Orders of a customer
    returns: [Order]
    operation: Query
    table: Shop
    key: {pk: "C#{customerId}", sk: {op: begins_with, value: "O#"}}
  - number: 3
    name: Orders by status
    returns: [Order]
    operation: Query
    table: Shop
    index: GSI1
    key: {gsi1pk: "S#{status}"}
    attributes: [total]
`

// multi has a GSI with multi-attribute keys.
const multi = `version: 1
name: M
tables:
  - name: T
    partitionKey: {name: pk, type: S}
    sortKey: {name: sk, type: S}
    globalSecondaryIndexes:
      - name: G
        partitionKey: [{name: tenant, type: S}, {name: region, type: S}]
        sortKey: [{name: year, type: N}, {name: month, type: N}, {name: day, type: N}]
        projection: {type: ALL}
      - name: R
        partitionKey: {name: sk, type: S}
        sortKey: {name: pk, type: S}
        projection: {type: KEYS_ONLY}
entities:
  - name: E
    table: T
    keys:
      T: {pk: "E#{id}", sk: "E"}
      R: {sk: "E", pk: "E#{id}"}
      G: {tenant: "{tenant}", region: "{region}", year: "{year}", month: "{month}", day: "{day}"}
patterns:
  - number: 1
    name: Events of a month from a day on
    returns: [E]
    operation: Query
    table: T
    index: G
    key: {tenant: "{t}", region: "{r}", year: "2024", month: "3", day: {op: ">=", value: "10"}}
  - number: 2
    name: Every E
    returns: [E]
    operation: Query
    table: T
    index: R
    key: {sk: "E"}
`

func mustParse(t *testing.T, doc string) *Design {
	t.Helper()
	d, err := Parse([]byte(doc), "t.yaml")
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, doc)
	}
	return d
}

func TestCheckCleanDesigns(t *testing.T) {
	for name, doc := range map[string]string{"shop": shop, "multi": multi} {
		if fs := Check(mustParse(t, doc)); len(fs) > 0 {
			t.Errorf("%s: %v", name, fs)
		}
	}
}

type breakCase struct {
	name     string
	base     string
	old, new string
	code     string
	at       string // a text on the line the finding must point at
	says     string // a text the message must hold
}

// The list first: each mistake it names has a case here.
var breakCases = []breakCase{
	{"pattern on an index that does not exist", shop, "index: GSI1", "index: GSI9", "pattern-index", "number: 3", "has no index \"GSI9\": use one of GSI1"},
	{"key condition on a non-key attribute", shop, `key: {gsi1pk: "S#{status}"}`, `key: {gsi1pk: "S#{status}", total: "5"}`, "not-key-attr", "key: {gsi1pk", "move total to filter"},
	{"two entities whose keys collide", shop, `sk: "O#{orderId}"}`, `sk: "C#{orderId}"}`, "collision", `Shop: {pk: "C#{customerId}", sk: "C#{orderId}"}`, "Customer and Order can have the same primary key"},
	{"index does not project what a pattern reads", shop, "attributes: [total]}", "attributes: [email]}", "proj-missing", "number: 3", "reads total, which index GSI1 does not project"},
	{"unused index", shop, "  - number: 3\n    name: Orders by status\n    returns: [Order]\n    operation: Query\n    table: Shop\n    index: GSI1\n    key: {gsi1pk: \"S#{status}\"}\n    attributes: [total]\n", "", "index-unused", "name: GSI1", "serves no pattern"},
	{"pattern that needs a Scan", shop, "  - number: 3\n", "  - number: 4\n    name: Customer by email\n    returns: [Customer]\n    operation: Scan\n    table: Shop\n    filter: \"email = :e\"\n  - number: 3\n", "scan", "number: 4", "add an index keyed by email"},

	{"version", shop, "version: 1", "version: 2", "version", "version: 2", "write version: 1"},
	{"duplicate pattern number", shop, "number: 2", "number: 1", "duplicate", "number: 1\n    name: Orders", "first at line"},
	{"missing name", shop, "name: Get customer", "name: \"\"", "missing", "number: 1", "pattern 1 has no name"},
	{"key type", shop, "{name: gsi1sk, type: S}\n        projection", "{name: gsi1sk, type: BOOL}\n        projection", "key-type", "", "a key attribute is S, N or B"},
	{"billing mode", shop, "    sortKey: {name: sk, type: S}\n    global", "    sortKey: {name: sk, type: S}\n    billingMode: ON_DEMAND\n    global", "billing", "- name: Shop", "ON_DEMAND"},
	{"stream", shop, "    sortKey: {name: sk, type: S}\n    global", "    sortKey: {name: sk, type: S}\n    stream: ALL\n    global", "stream", "- name: Shop", "stream \"ALL\""},
	{"index named as its table", shop, "- name: GSI1", "- name: Shop", "index-is-table", "", "rename the index"},
	{"GSI key of five attributes", multi, "{name: region, type: S}]", "{name: region, type: S}, {name: a, type: S}, {name: b, type: S}, {name: c, type: S}]", "gsi-keys", "- name: G", "this one has 5"},
	{"attribute with two key types", shop, "{name: gsi1pk, type: S}", "{name: sk, type: N}", "attr-conflict", "", "key attribute sk has type N here but S"},
	{"projection type", shop, "{type: INCLUDE, attributes: [total]}", "{type: SOME}", "proj-type", "projection:", "\"SOME\""},
	{"INCLUDE without attributes", shop, "{type: INCLUDE, attributes: [total]}", "{type: INCLUDE}", "proj-include", "projection:", "list them"},
	{"attributes on ALL", shop, "{type: INCLUDE, attributes: [total]}", "{type: ALL, attributes: [total]}", "proj-attrs", "projection:", "make it INCLUDE"},
	{"entity on an unknown table", shop, "  - name: Order\n    table: Shop", "  - name: Order\n    table: Shops", "entity-table", "- name: Order", "use one of Shop"},
	{"attribute type", shop, "{name: total, type: N}", "{name: total, type: INT}", "attr-type", "name: total", "\"INT\""},
	{"discriminator not an attribute", shop, "{attribute: tp, value: C}", "{attribute: kind, value: C}", "discriminator", "discriminator:", "add {name: kind, type: S}"},
	{"no keys for the table", shop, "      Shop: {pk: \"C#{customerId}\", sk: \"C#{customerId}\"}\n", "      GSI1: {gsi1pk: \"X#{customerId}\", gsi1sk: \"X\"}\n", "no-table-keys", "- name: Customer", "add Shop:"},
	{"keys for an unknown index", shop, "      GSI1: {gsi1pk:", "      GSI2: {gsi1pk:", "keys-space", "GSI2:", "(GSI1)"},
	{"keys miss a key attribute", shop, "GSI1: {gsi1pk: \"S#{status}\", gsi1sk: \"O#{orderId}\"}", "GSI1: {gsi1pk: \"S#{status}\"}", "keys-missing", "GSI1: {gsi1pk", "add gsi1sk:"},
	{"keys give a non-key attribute", shop, "gsi1sk: \"O#{orderId}\"}", "gsi1sk: \"O#{orderId}\", total: \"1\"}", "keys-extra", "GSI1: {gsi1pk", "gives total"},
	{"same attribute, two templates", multi, `R: {sk: "E", pk: "E#{id}"}`, `R: {sk: "E", pk: "E#{key}"}`, "keys-differ", "R: {sk", `pk is "E#{key}" in keys entry R but "E#{id}" in T`},
	{"no table", "version: 1\nname: X\n", "X", "Y", "no-tables", "version", "add one under tables:"},
	{"key attribute undeclared", shop, "      - {name: gsi1sk, type: S}\n", "", "key-undeclared", "GSI1: {gsi1pk", "add {name: gsi1sk, type: S}"},
	{"key attribute of another type", shop, "{name: gsi1pk, type: S}\n      - {name: gsi1sk", "{name: gsi1pk, type: N}\n      - {name: gsi1sk", "key-attr-type", "{name: gsi1pk, type: N}", "declare it S"},
	{"template does not parse", shop, `gsi1pk: "S#{status}", gsi1sk`, `gsi1pk: "S#{status", gsi1sk`, "template", "GSI1: {gsi1pk", "does not parse"},
	{"unknown operation", shop, "operation: GetItem", "operation: Get", "operation", "number: 1", "\"Get\""},
	{"unknown table", shop, "table: Shop\n    key: {pk: \"C#{customerId}\", sk: \"C#{customerId}\"}", "table: Shopp\n    key: {pk: \"C#{customerId}\", sk: \"C#{customerId}\"}", "pattern-table", "number: 1", "use one of Shop"},
	{"returns nothing", shop, "returns: [Customer]", "returns: []", "no-returns", "number: 1", "list what it reads under returns"},
	{"returns an unknown entity", shop, "returns: [Customer]", "returns: [Client]", "unknown-entity", "number: 1", "\"Client\""},
	{"returns an entity not in the index", shop, "    returns: [Order]\n    operation: Query\n    table: Shop\n    index: GSI1", "    returns: [Order, Customer]\n    operation: Query\n    table: Shop\n    index: GSI1", "not-in-index", "number: 3", "Customer, which has no keys entry for GSI1"},
	{"GetItem on an index", shop, "operation: GetItem\n    table: Shop\n", "operation: GetItem\n    table: Shop\n    index: GSI1\n", "get-index", "number: 1", "remove index: GSI1"},
	{"GetItem without the sort key", shop, `key: {pk: "C#{customerId}", sk: "C#{customerId}"}`, `key: {pk: "C#{customerId}"}`, "get-key", "number: 1", `give pk: "...", sk: "..."`},
	{"GetItem with a filter", shop, "operation: GetItem\n", "operation: GetItem\n    filter: \"email = :e\"\n", "get-filter", "number: 1", "takes no filter"},
	{"Scan with a key", shop, "operation: GetItem", "operation: Scan", "scan-key", "number: 1", "remove key:"},
	{"Query without its partition key", shop, `key: {gsi1pk: "S#{status}"}`, `key: {gsi1sk: "O#{orderId}"}`, "pk-missing", "number: 3", "add gsi1pk:"},
	{"partition key with a range", multi, `region: "{r}"`, `region: {op: "<", value: "m"}`, "pk-op", "key:", "takes only ="},
	{"sort key attribute skipped", multi, `year: "2024", `, ``, "sk-gap", "key:", "add year with ="},
	{"range before the last sort key attribute", multi, `month: "3"`, `month: {op: ">", value: "3"}`, "sk-range", "key:", "month is compared with >"},
	{"unknown operator", shop, "{op: begins_with, value: \"O#\"}", "{op: like, value: \"O#\"}", "op", "sk: {op", "\"like\""},
	{"begins_with on a number", multi, `year: "2024"`, `year: {op: begins_with, value: "20"}`, "begins-type", "key:", "use between"},
	{"between without value2", shop, "{op: begins_with, value: \"O#\"}", "{op: between, value: \"O#1\"}", "between", "sk: {op", "add value2:"},
	{"value2 without between", shop, "{op: begins_with, value: \"O#\"}", "{op: \">\", value: \"O#\", value2: \"O#9\"}", "value2", "sk: {op", "only for between"},
	{"key condition matching no returned entity", shop, "{op: begins_with, value: \"O#\"}", "{op: begins_with, value: \"ORDER#\"}", "key-mismatch", "number: 2", "cannot match the keys of Order"},
	{"direction", shop, "operation: Query\n    table: Shop\n    key", "operation: Query\n    direction: up\n    table: Shop\n    key", "direction", "number: 2", "\"up\""},
	{"negative page size", shop, "operation: Query\n    table: Shop\n    key", "operation: Query\n    pageSize: -1\n    table: Shop\n    key", "negative", "number: 2", "pageSize is -1"},
	{"filter discarding items", shop, `key: {pk: "C#{customerId}", sk: {op: begins_with, value: "O#"}}`, "key: {pk: \"C#{customerId}\"}\n    filter: \"total > :t\"", "filter-discard", "number: 2", "also holds Customer"},
	{"index holding an entity nothing reads there", shop, "      Shop: {pk: \"C#{customerId}\", sk: \"C#{customerId}\"}\n", "      Shop: {pk: \"C#{customerId}\", sk: \"C#{customerId}\"}\n      GSI1: {gsi1pk: \"E#{email}\", gsi1sk: \"C\"}\n", "index-extra", "GSI1: {gsi1pk: \"E#", "GSI1 holds Customer"},
	{"unknown write operation", shop, "operation: PutItem", "operation: Put", "write-op", "number: W1", "\"Put\""},
	{"write of nothing", shop, "entities: [Order]", "entities: []", "no-returns", "number: W1", "under entities"},
}

func TestCheckFindsEachMistake(t *testing.T) {
	for _, c := range breakCases {
		doc := strings.Replace(c.base, c.old, c.new, 1)
		if doc == c.base {
			t.Fatalf("%s: %q is not in the base design", c.name, c.old)
		}
		fs := Check(mustParse(t, doc))
		i := slices.IndexFunc(fs, func(f Finding) bool { return f.Code == c.code })
		if i < 0 {
			t.Errorf("%s: no %s finding in %v", c.name, c.code, fs)
			continue
		}
		f := fs[i]
		if !strings.Contains(f.Message, c.says) || strings.Contains(f.Message, "%!") {
			t.Errorf("%s: message %q, want it to say %q", c.name, f.Message, c.says)
		}
		if want := lineOf(doc, c.at); c.at != "" && f.Pos.Line != want {
			t.Errorf("%s: finding at line %d, want %d (%q): %s", c.name, f.Pos.Line, want, c.at, f.Message)
		}
		if f.Severity != messages[c.code].severity {
			t.Errorf("%s: severity %s", c.name, f.Severity)
		}
	}
}

// lineOf is the line on which text starts in doc.
func lineOf(doc, text string) int {
	i := strings.Index(doc, text)
	if i < 0 {
		return -1
	}
	return strings.Count(doc[:i], "\n") + 1
}

func TestEveryFindingHasACase(t *testing.T) {
	tested := map[string]bool{}
	for _, c := range breakCases {
		tested[c.code] = true
	}
	for _, c := range lsiCases {
		tested[c.code] = true
	}
	for _, c := range vectorCases {
		tested[c.code] = true
	}
	for code := range messages {
		if !tested[code] {
			t.Errorf("finding %s has no test case", code)
		}
	}
}

// lsiCases give Shop a local index, then break it.
var lsiCases = []breakCase{
	{"LSI on another partition key", withLSI(`[{name: gsi1pk, type: S}]`, `{name: placed, type: S}`, "ALL"), "", "", "lsi-pk", "- name: LSI1", "write partitionKey: {name: pk, type: S}"},
	{"LSI with two sort key attributes", withLSI(`{name: pk, type: S}`, `[{name: placed, type: S}, {name: x, type: S}]`, "ALL"), "", "", "lsi-sk", "- name: LSI1", "this one has 2"},
	{"LSI on a table without a sort key", strings.Replace(withLSI(`{name: pk, type: S}`, `{name: placed, type: S}`, "ALL"), "    sortKey: {name: sk, type: S}\n", "", 1), "", "", "lsi-table", "- name: LSI1", "give table Shop a sortKey"},
	{"LSI not projecting what is read", withLSI(`{name: pk, type: S}`, `{name: placed, type: S}`, "KEYS_ONLY"), "", "", "lsi-fetch", "number: 4", "reads total, which local index LSI1"},
}

func withLSI(pk, sk, projection string) string {
	doc := strings.Replace(shop, "entities:\n", "    localSecondaryIndexes:\n      - name: LSI1\n        partitionKey: "+pk+"\n        sortKey: "+sk+"\n        projection: {type: "+projection+"}\nentities:\n", 1)
	doc = strings.Replace(doc, "      - {name: total, type: N}\n", "      - {name: total, type: N}\n      - {name: placed, type: S}\n", 1)
	doc = strings.Replace(doc, "      GSI1: {gsi1pk:", "      LSI1: {pk: \"C#{customerId}\", placed: \"{placed}\"}\n      GSI1: {gsi1pk:", 1)
	return doc + "  - number: 4\n    name: Orders by date\n    returns: [Order]\n    operation: Query\n    table: Shop\n    index: LSI1\n    key: {pk: \"C#{customerId}\"}\n    attributes: [total]\n"
}

func TestCheckLocalIndexes(t *testing.T) {
	if fs := Check(mustParse(t, withLSI(`{name: pk, type: S}`, `{name: placed, type: S}`, "ALL"))); len(fs) > 0 {
		t.Fatalf("a good local index: %v", fs)
	}
	for _, c := range lsiCases {
		fs := Check(mustParse(t, c.base))
		i := slices.IndexFunc(fs, func(f Finding) bool { return f.Code == c.code })
		if i < 0 || !strings.Contains(fs[i].Message, c.says) || fs[i].Pos.Line != lineOf(c.base, c.at) {
			t.Errorf("%s: want %s at %q saying %q; got %v", c.name, c.code, c.at, c.says, fs)
		}
	}
}

func TestCheckMarketSeed(t *testing.T) {
	d, err := Load("testdata/market-seed.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range Check(d) {
		got = append(got, f.Severity+" "+f.Code)
	}
	// The seed as written: the handle puts users in the id index though
	// no pattern reads them there, and "last N orders" filters out the
	// order items it reads.
	want := []string{"warning index-extra", "warning filter-discard"}
	if !slices.Equal(got, want) {
		t.Errorf("findings %v, want %v", got, want)
	}
}

func TestFindingString(t *testing.T) {
	f := Finding{Pos: Pos{3, 5}, Severity: SeverityError, Message: "m"}
	if got := f.String("a.yaml"); got != "a.yaml:3:5: error: m" {
		t.Errorf("got %q", got)
	}
	if got := (Finding{Severity: SeverityWarning, Message: "m"}).String("a.yaml"); got != "a.yaml: warning: m" {
		t.Errorf("got %q", got)
	}
}

func FuzzCheck(f *testing.F) {
	f.Add(shop)
	f.Add(multi)
	for _, file := range []string{"testdata/market.yaml", "testdata/market-seed.yaml", "testdata/library.yaml"} {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	f.Add(withLSI(`{name: pk, type: S}`, `{name: placed, type: S}`, "KEYS_ONLY"))
	f.Add("tables: [{name: T, partitionKey: {name: pk, type: S}, localSecondaryIndexes: [{name: L}]}]\npatterns: [{operation: Query, table: T, index: L, key: {x: {op: between}}}]")
	f.Fuzz(func(t *testing.T, doc string) {
		d, err := Parse([]byte(doc), "fuzz.yaml")
		if err != nil {
			return
		}
		for _, f := range Check(d) {
			if f.Message == "" || (f.Severity != SeverityError && f.Severity != SeverityWarning) {
				t.Fatalf("finding %+v", f)
			}
		}
		_ = Markdown(d)
	})
}
