package agent_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sortkeydb/sortkey/internal/agent"
)

// openParams give pattern 4's filter its value, as design_run needs.
var openParams = map[string]any{"4": map[string]any{"values": map[string]any{":open": map[string]any{"S": "open"}}}}

// exported is data_model_export's answer, its model decoded.
type exported struct {
	text     string
	warnings []string
	model    struct {
		Tables         []map[string]any            `json:"tables"`
		Items          map[string][]map[string]any `json:"items"`
		AccessPatterns []map[string]any            `json:"access_patterns"`
	}
}

func exportModel(s *testSession, args map[string]any) *exported {
	s.t.Helper()
	var rep agent.ExportReport
	s.decode(s.ok("data_model_export", args), &rep)
	x := &exported{text: rep.Model, warnings: rep.Warnings}
	if err := json.Unmarshal([]byte(rep.Model), &x.model); err != nil {
		s.t.Fatalf("the model is not JSON: %v\n%s", err, rep.Model)
	}
	return x
}

// everyReadDesign is ordersDesign with a pattern of each other read.
const everyReadDesign = ordersDesign + `  - number: "6"
    name: Users in a batch
    returns: [User]
    operation: BatchGetItem
    table: Orders
    key: {pk: "U#{userId}", sk: "PROFILE"}
    attributes: [pk]
  - number: "7"
    name: A user in a transaction
    returns: [User]
    operation: TransactGetItems
    table: Orders
    key: {pk: "U#{userId}", sk: "PROFILE"}
`

// TestExportedModelRunsAsTheDesignDoes: the file exported from a design
// and its items, validated on a fresh sortkey, reads what design_run
// reads at the same cost, pattern by pattern.
func TestExportedModelRunsAsTheDesignDoes(t *testing.T) {
	s := loadOrders(t)
	var run agent.RunReport
	s.decode(s.ok("design_run", map[string]any{"design": everyReadDesign, "params": openParams}), &run)
	x := exportModel(s, map[string]any{"design": everyReadDesign, "params": openParams})
	if len(x.warnings) != 0 || !strings.Contains(x.text, "\n  \"tables\": [\n    {\n") {
		t.Errorf("warnings %q; the file is not indented by two spaces:\n%s", x.warnings, x.text)
	}
	fresh := &testSession{t: t, cs: connect(t, agent.Options{})}
	var rep agent.DataModelReport
	fresh.decode(fresh.ok("data_model_validate", map[string]any{"model": x.text}), &rep)
	if !rep.Valid || len(rep.Tables) != 1 || rep.Tables[0].Items != 4 || len(rep.Patterns) != len(run.Patterns) || run.Failed != 0 {
		t.Fatalf("validation of the export: %+v\ndesign_run: %+v", rep, run)
	}
	for i, got := range rep.Patterns {
		want := run.Patterns[i]
		// design_run counts no items scanned for a read of whole keys.
		scannedDiffers := want.Served != "key" && int64(got.Scanned) != want.Scanned
		if got.Status != "ok" || got.Pattern != want.Number || got.Operation != want.Operation ||
			int64(got.Items) != want.Items || scannedDiffers || got.ReadUnits != want.RCU {
			t.Errorf("pattern %s: %s, %d items, %d scanned, %v RCU; design_run: %d items, %d scanned, %v RCU (%s)",
				want.Number, got.Status, got.Items, got.Scanned, got.ReadUnits, want.Items, want.Scanned, want.RCU, got.Error)
		}
	}
}

func TestExportWritesTheTablesAndPatterns(t *testing.T) {
	s := loadOrders(t)
	x := exportModel(s, map[string]any{"design": ordersDesign, "params": openParams})
	table, _ := json.Marshal(x.model.Tables)
	want := `[{"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"},` +
		`{"AttributeName":"id","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST","GlobalSecondaryIndexes":[{"IndexName":"ById",` +
		`"KeySchema":[{"AttributeName":"id","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}],` +
		`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"TableName":"Orders"}]`
	if string(table) != want {
		t.Errorf("tables\n got %s\nwant %s", table, want)
	}
	p := x.model.AccessPatterns
	if len(p) != 5 || p[2]["index"] != "ById" || p[0]["index"] != nil || p[1]["dynamodb_operation"] != "Query" ||
		!strings.Contains(p[1]["implementation"].(string), "--no-scan-index-forward") ||
		!strings.HasPrefix(p[0]["implementation"].(string), `aws dynamodb get-item --table-name Orders --key '{"pk":{"S":"U#ann"},"sk":{"S":"PROFILE"}}'`) {
		t.Errorf("access_patterns: %v", p)
	}
}

// writesDesign is ordersDesign with a write pattern and a TTL.
var writesDesign = strings.Replace(ordersDesign, "    sortKey: {name: sk, type: S}\n",
	"    sortKey: {name: sk, type: S}\n    ttl: expires\n", 1) + `writes:
  - number: "W1"
    name: Place an order
    operation: PutItem
    entities: [Order]
`

func TestExportSaysWhatItLeavesOut(t *testing.T) {
	s := loadOrders(t)
	x := exportModel(s, map[string]any{"design": writesDesign, "max_items_per_table": 2})
	for _, want := range []string{
		"write pattern W1 (Place an order, PutItem) is not exported",
		"table Orders: Time to Live on expires is not part of a CreateTable input",
		"table Orders: only its first 2 items are exported",
		`pattern 4 has a reason and no implementation: the filter uses :open: give its value in params["4"].values`,
	} {
		if !strings.Contains(strings.Join(x.warnings, "\n"), want) {
			t.Errorf("warnings %q lack %q", x.warnings, want)
		}
	}
	if n := len(x.model.Items["Orders"]); n != 2 {
		t.Errorf("%d items exported, want 2", n)
	}
	if p := x.model.AccessPatterns[3]; p["implementation"] != nil || !strings.Contains(p["reason"].(string), ":open") {
		t.Errorf("pattern 4 without its value: %v", p)
	}
	// The file, reasons and all, is one data_model_validate reads.
	fresh := &testSession{t: t, cs: connect(t, agent.Options{})}
	var rep agent.DataModelReport
	fresh.decode(fresh.ok("data_model_validate", map[string]any{"model": x.text}), &rep)
	reasons := strings.Count(x.text, `"reason": `)
	if rep.Totals.Skipped != reasons || reasons == 0 || rep.Totals.Errors != 0 {
		t.Errorf("validating the export of %d reasons: %+v", reasons, rep.Totals)
	}
	// Variables are bound from the items exported, not from the others.
	for _, p := range rep.Patterns {
		if p.Status == "ok" && p.Items == 0 {
			t.Errorf("pattern %s read nothing of the exported items: %+v", p.Pattern, p)
		}
	}
}

func TestExportOfAnEmptyTableGivesReasons(t *testing.T) {
	s := &testSession{t: t, cs: connect(t, agent.Options{})}
	x := exportModel(s, map[string]any{"design": ordersDesign})
	if !strings.Contains(strings.Join(x.warnings, "\n"), "table Orders does not exist on this sortkey") {
		t.Errorf("warnings %q", x.warnings)
	}
	p := x.model.AccessPatterns
	if len(p) != 5 || p[0]["implementation"] != nil || !strings.Contains(p[0]["reason"].(string), "no item in table Orders is one of User") {
		t.Errorf("pattern 1 with no item to bind: %v", p[0])
	}
	if p[4]["implementation"] != "aws dynamodb scan --table-name Orders" || len(x.model.Items["Orders"]) != 0 {
		t.Errorf("a Scan needs no item: %v; items %v", p[4], x.model.Items)
	}
}

func TestExportRefusesBadInput(t *testing.T) {
	s := loadOrders(t)
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"design": ordersDesign, "max_items_per_table": -1}, "max_items_per_table is -1: give 1 to 1000"},
		{map[string]any{"design": ordersDesign, "max_items_per_table": 1001}, "max_items_per_table is 1001"},
		{map[string]any{"design": ordersDesign, "params": map[string]any{"9": map[string]any{}}}, `params names "9"`},
		{map[string]any{"design": "version: 1\nname: ["}, "design.yaml"},
	} {
		if msg := s.fails("data_model_export", c.args); !strings.Contains(msg, c.want) {
			t.Errorf("%v: %q, want %q", c.args["max_items_per_table"], msg, c.want)
		}
	}
}

// multiDesign has a GSI with multi-attribute keys, an LSI and
// provisioned capacity.
const multiDesign = `version: 1
name: M
tables:
  - name: Events
    partitionKey: {name: pk, type: S}
    sortKey: {name: sk, type: S}
    billingMode: PROVISIONED
    globalSecondaryIndexes:
      - name: ByDay
        partitionKey: [{name: tenant, type: S}, {name: region, type: S}]
        sortKey: [{name: year, type: N}, {name: month, type: N}]
        projection: {type: INCLUDE, attributes: [title]}
    localSecondaryIndexes:
      - name: ByTitle
        partitionKey: {name: pk, type: S}
        sortKey: {name: title, type: S}
        projection: {type: KEYS_ONLY}
entities:
  - name: Event
    table: Events
    keys:
      Events: {pk: "E#{id}", sk: "E"}
      ByDay: {tenant: "{tenant}", region: "{region}", year: "{year}", month: "{month}"}
patterns:
  - number: "1"
    name: A tenant's events of a month
    returns: [Event]
    operation: Query
    table: Events
    index: ByDay
    key: {tenant: "{tenant}", region: "{region}", year: "{year}", month: "{month}"}
`

func TestExportedTablesAreCreatedAsDesigned(t *testing.T) {
	s := &testSession{t: t, cs: connect(t, agent.Options{})}
	s.ok("design_apply", map[string]any{"design": multiDesign})
	var item map[string]any
	_ = json.Unmarshal([]byte(`{"pk":{"S":"E#1"},"sk":{"S":"E"},"tenant":{"S":"t"},"region":{"S":"eu"},"year":{"N":"2026"},"month":{"N":"3"},"title":{"S":"x"}}`), &item)
	s.ok("put_item", map[string]any{"TableName": "Events", "Item": item})
	x := exportModel(s, map[string]any{"design": multiDesign})
	fresh := &testSession{t: t, cs: connect(t, agent.Options{})}
	var rep agent.DataModelReport
	fresh.decode(fresh.ok("data_model_validate", map[string]any{"model": x.text}), &rep)
	if !rep.Valid || rep.Patterns[0].Items != 1 || rep.Patterns[0].Index != "ByDay" {
		t.Fatalf("validating the export: %+v", rep)
	}
	var desc struct {
		Response struct{ Table map[string]any }
	}
	fresh.decode(fresh.ok("describe_table", map[string]any{"TableName": "Events"}), &desc)
	got, _ := json.Marshal([]any{desc.Response.Table["GlobalSecondaryIndexes"].([]any)[0].(map[string]any)["KeySchema"],
		desc.Response.Table["LocalSecondaryIndexes"].([]any)[0].(map[string]any)["KeySchema"],
		desc.Response.Table["ProvisionedThroughput"].(map[string]any)["ReadCapacityUnits"]})
	want := `[[{"AttributeName":"tenant","KeyType":"HASH"},{"AttributeName":"region","KeyType":"HASH"},` +
		`{"AttributeName":"year","KeyType":"RANGE"},{"AttributeName":"month","KeyType":"RANGE"}],` +
		`[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"title","KeyType":"RANGE"}],5]`
	if string(got) != want {
		t.Errorf("the exported table was created with\n%s\nwant\n%s", got, want)
	}
}

// BenchmarkDataModelExport exports ordersDesign with four items.
func BenchmarkDataModelExport(b *testing.B) {
	cs := connect(b, agent.Options{})
	call := func(tool string, args map[string]any) {
		res, err := cs.CallTool(b.Context(), &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil || res.IsError {
			b.Fatalf("%s: %v %v", tool, err, res)
		}
	}
	call("design_apply", map[string]any{"design": ordersDesign})
	for _, sk := range []string{"PROFILE", "O#2026-01-01", "O#2026-02-01", "O#2026-03-01"} {
		call("put_item", map[string]any{"TableName": "Orders", "Item": map[string]any{
			"pk": map[string]any{"S": "U#ann"}, "sk": map[string]any{"S": sk}, "id": map[string]any{"S": sk}}})
	}
	for b.Loop() {
		call("data_model_export", map[string]any{"design": ordersDesign, "params": openParams})
	}
}
