package agent_test

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sortkeydb/sortkey/internal/agent"
	"github.com/sortkeydb/sortkey/internal/design"
)

// withDesign is args with the design file's text as its design member.
func withDesign(t *testing.T, file string, args map[string]any) string {
	t.Helper()
	doc, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	args["design"] = string(doc)
	b, _ := json.Marshal(args)
	return string(b)
}

func TestDesignDocIsTheCommandsMarkdown(t *testing.T) {
	cs := connect(t, agent.Options{})
	out := mustCall(t, cs, "design_doc", withDesign(t, "../design/testdata/market-seed.yaml", map[string]any{}))
	want, err := os.ReadFile("../design/testdata/market-seed.md") // sortkey design doc's golden output
	if err != nil {
		t.Fatal(err)
	}
	if out["markdown"] != string(want) {
		t.Fatalf("design_doc differs from sortkey design doc's Markdown:\n%v", out["markdown"])
	}
	if _, e := callTool(t, cs, "design_doc", `{"design":"version: 1\ntabels: []\n"}`); !strings.Contains(e, "design.yaml:2:1") {
		t.Fatalf("a misspelt key answered %q", e)
	}
}

// tablesOf is the tables and their GSIs of a design file's text.
func tablesOf(t *testing.T, text string) []string {
	t.Helper()
	d, err := design.Parse([]byte(text), "converted.yaml")
	if err != nil {
		t.Fatalf("the converted design does not parse: %v\n%s", err, text)
	}
	var out []string
	for _, tb := range d.Tables {
		out = append(out, tb.Name)
		for _, g := range tb.GSIs {
			out = append(out, tb.Name+"/"+g.Name)
		}
	}
	return out
}

func TestWorkbenchRoundTrip(t *testing.T) {
	cs := connect(t, agent.Options{})
	exported := mustCall(t, cs, "workbench_export", withDesign(t, "../design/testdata/market.yaml", map[string]any{}))
	var model map[string]any
	if err := json.Unmarshal([]byte(exported["text"].(string)), &model); err != nil || model["DataModel"] == nil {
		t.Fatalf("workbench_export answered no Workbench model (%v): %v", err, exported)
	}
	if warnings := exported["warnings"].([]any); !slices.ContainsFunc(warnings, func(w any) bool { return strings.Contains(w.(string), "ttl") || strings.Contains(w.(string), "TTL") }) {
		t.Errorf("Workbench cannot hold Market's TTL, and the warnings do not say so: %v", warnings)
	}
	args, _ := json.Marshal(map[string]any{"model": exported["text"]})
	imported := mustCall(t, cs, "workbench_import", string(args))
	got := tablesOf(t, imported["text"].(string))
	if want := []string{"Market", "Market/ReverseIndex", "Market/IdLookupIndex"}; !slices.Equal(got, want) {
		t.Fatalf("Market through Workbench and back has tables %v, want %v", got, want)
	}
	if _, e := callTool(t, cs, "workbench_import", `{"model":"{not json","file":"m.json"}`); !strings.Contains(e, "m.json") {
		t.Fatalf("a broken model answered %q, want its file named", e)
	}
}

func TestWorkbenchImportLibrary(t *testing.T) {
	cs := connect(t, agent.Options{})
	model, err := os.ReadFile("../design/workbench/testdata/library.json")
	if err != nil {
		t.Fatal(err)
	}
	args, _ := json.Marshal(map[string]any{"model": string(model), "json": true})
	out := mustCall(t, cs, "workbench_import", string(args))
	if text := out["text"].(string); !strings.HasPrefix(text, "{") || len(tablesOf(t, text)) == 0 {
		t.Fatalf("library.json imported as JSON answered %v", out)
	}
}

// costOf calls design_cost on market.yaml with args.
func costOf(t *testing.T, cs *mcp.ClientSession, args map[string]any) (map[string]any, string) {
	t.Helper()
	return callTool(t, cs, "design_cost", withDesign(t, "../design/testdata/market.yaml", args))
}

func TestDesignCostOfMarket(t *testing.T) {
	cs := connect(t, agent.Options{})
	out, e := costOf(t, cs, map[string]any{"rates": map[string]float64{"1": 100, "2": 10, "W1": 1},
		"consistent": map[string]bool{"1": true}, "storage_gb": 10})
	if e != "" {
		t.Fatal(e)
	}
	// 1: a strongly consistent GetItem of a 1 KB item, 1 unit; 2: a Query
	// of a page of 10 items, 10 KB in 3 blocks of 4 KB, 1.5 units; W1: a
	// PutItem of a User, kept in the table and two GSIs, 3 units. A month
	// is 2,592,000 seconds.
	want := map[string][2]float64{"1": {1, 32.4}, "2": {1.5, 4.86}, "W1": {3, 4.86}}
	for _, p := range out["patterns"].([]any) {
		line := p.(map[string]any)
		w := want[line["number"].(string)]
		if line["units_per_call"] != w[0] || line["cost_usd"] != w[1] {
			t.Errorf("pattern %v: %v units per call costing %v, want %v", line["number"], line["units_per_call"], line["cost_usd"], w)
		}
	}
	if out["read_cost_usd"] != 37.26 || out["write_cost_usd"] != 4.86 || out["storage_cost_usd"] != 2.5 || out["total_usd"] != 44.62 {
		t.Fatalf("totals %v %v %v %v, want 37.26 + 4.86 + 2.5 = 44.62", out["read_cost_usd"], out["write_cost_usd"], out["storage_cost_usd"], out["total_usd"])
	}
	if unrated := out["unrated"].([]any); len(unrated) != 2 || unrated[0] != "4" || unrated[1] != "4b" {
		t.Fatalf("unrated = %v, want 4 and 4b", unrated)
	}
}

func TestDesignCostTakesPrices(t *testing.T) {
	cs := connect(t, agent.Options{})
	out, e := costOf(t, cs, map[string]any{"rates": map[string]float64{"W1": 1}, "prices": map[string]float64{"write_per_million": 1}})
	if e != "" {
		t.Fatal(e)
	}
	if out["total_usd"] != 7.776 || out["prices"].(map[string]any)["read_per_million"] != 0.125 {
		t.Fatalf("7,776,000 write units at $1 a million answered %v with prices %v", out["total_usd"], out["prices"])
	}
}

func TestDesignCostRefusals(t *testing.T) {
	cs := connect(t, agent.Options{})
	for want, args := range map[string]map[string]any{
		"the design has no pattern numbered 3, W9 (its patterns: 1, 2, 4, 4b, W1)": {"rates": map[string]float64{"1": 1, "3": 1, "W9": 2}},
		"consistent is for reads, and pattern W1 is a write":                       {"rates": map[string]float64{"1": 1}, "consistent": map[string]bool{"W1": true}},
		"rates.1 must not be negative, got -1":                                     {"rates": map[string]float64{"1": -1}},
		"prices.storage_gb_month must not be negative, got -0.5":                   {"rates": map[string]float64{"1": 1}, "prices": map[string]float64{"storage_gb_month": -0.5}},
		"rates is empty": {"rates": map[string]float64{}},
	} {
		if _, e := costOf(t, cs, args); !strings.HasPrefix(e, want) {
			delete(args, "design")
			t.Errorf("design_cost on market.yaml with %v answered %q, want %q", args, e, want)
		}
	}
}

const scanAndTransaction = `version: 1
name: Ledger
tables: [{name: Ledger, partitionKey: {name: pk, type: S}}]
entities:
  - {name: Entry, table: Ledger, attributes: [{name: pk, type: S}], keys: {Ledger: {pk: "E#{id}"}}}
patterns:
  - {number: 1, name: Everything, returns: [Entry], operation: Scan, table: Ledger}
writes:
  - {number: W1, name: Transfer, operation: TransactWriteItems, entities: [Entry, Entry]}
`

func TestDesignCostOfScansAndTransactions(t *testing.T) {
	cs := connect(t, agent.Options{})
	args, _ := json.Marshal(map[string]any{"design": scanAndTransaction, "rates": map[string]float64{"1": 1, "W1": 1}})
	out := mustCall(t, cs, "design_cost", string(args))
	lines := out["patterns"].([]any)
	scan, transfer := lines[0].(map[string]any), lines[1].(map[string]any)
	if scan["units_per_call"] != 0.0 || !strings.Contains(scan["note"].(string), "not estimated") {
		t.Errorf("a Scan's line is %v, want it marked not estimated", scan)
	}
	// Two 1 KB items in a transaction: 2 units each.
	if transfer["units_per_call"] != 4.0 || out["write_units_per_month"] != 4.0*2592000 {
		t.Errorf("a transaction of two items: %v, %v units a month", transfer, out["write_units_per_month"])
	}
}
