package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sortkeydb/sortkey/internal/agent"
)

// validateModel calls data_model_validate with the model's text.
func validateModel(t *testing.T, cs *mcp.ClientSession, model string, replace bool) (map[string]any, string) {
	t.Helper()
	args, _ := json.Marshal(map[string]any{"model": model, "replace": replace})
	return callTool(t, cs, "data_model_validate", string(args))
}

func shopModel(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("testdata/dynamodb_data_model.json")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// tableNames are the tables the server has, as list_tables answers.
func tableNames(t *testing.T, cs *mcp.ClientSession) string {
	t.Helper()
	out, e := callTool(t, cs, "list_tables", `{}`)
	if e != "" {
		t.Fatal(e)
	}
	b, _ := json.Marshal(out["response"].(map[string]any)["TableNames"])
	return string(b)
}

// figures are the numbers of one pattern's result a user reads.
func figures(p map[string]any) string {
	return fmt.Sprintf("%v %v %v items=%v scanned=%v pages=%v rcu=%v wcu=%v served=%v index=%v",
		p["pattern"], p["status"], p["operation"], p["items"], p["scanned"], p["pages"], p["read_units"], p["write_units"], p["served"], p["index"])
}

func TestDataModelValidatesTheShopModel(t *testing.T) {
	cs := connect(t, agent.Options{})
	out, e := validateModel(t, cs, shopModel(t), false)
	if e != "" {
		t.Fatal(e)
	}
	if out["valid"] != true {
		t.Fatalf("the shop model is not valid: %v", out)
	}
	tables := out["tables"].([]any)
	if load := tables[0].(map[string]any); len(tables) != 1 || load["table"] != "Shop" || load["items"] != 8.0 || load["errors"] != nil {
		t.Fatalf("tables = %v, want Shop with its 8 items", tables)
	}
	// Every item is under 1 KB, and a page of them under 4 KB: a read is
	// half a unit eventually consistent, a put one unit on the table and
	// one on GSI1. A Scan of a whole table costs at least 2 units
	// eventually consistent, as AWS charges (docs/COMPATIBILITY.md).
	want := []string{
		"1 ok GetItem items=1 scanned=1 pages=1 rcu=0.5 wcu=0 served=key index=<nil>",
		"2 ok Query items=4 scanned=4 pages=1 rcu=0.5 wcu=0 served=key condition index=<nil>",
		"3 ok Query items=3 scanned=3 pages=1 rcu=0.5 wcu=0 served=key condition index=GSI1",
		"4 ok Query items=1 scanned=4 pages=1 rcu=0.5 wcu=0 served=key condition index=<nil>",
		"5 ok Scan items=2 scanned=8 pages=1 rcu=2 wcu=0 served=scan index=<nil>",
		"6 ok PutItem items=0 scanned=0 pages=1 rcu=0 wcu=2 served=key index=<nil>",
		"7-8 skipped <nil> items=0 scanned=0 pages=0 rcu=0 wcu=0 served=<nil> index=<nil>",
	}
	patterns := out["patterns"].([]any)
	for i, w := range want {
		if got := figures(patterns[i].(map[string]any)); i >= len(patterns) || got != w {
			t.Errorf("pattern %d:\n got %s\nwant %s", i, got, w)
		}
	}
	flags := func(i int) string { return fmt.Sprint(patterns[i].(map[string]any)["flags"]) }
	if !strings.Contains(flags(3), "the filter discarded 3 of the 4 items the key condition read") || flags(1) != "<nil>" {
		t.Errorf("pattern 4's filter keeps 1 of 4, pattern 2 has none: flags %s and %s", flags(3), flags(1))
	}
	if !strings.Contains(flags(4), "served by a Scan") {
		t.Errorf("the Scan is not flagged: %s", flags(4))
	}
	if skipped := patterns[6].(map[string]any); !strings.HasPrefix(skipped["reason"].(string), "Full-text search") {
		t.Errorf("the reason-only pattern lost its reason: %v", skipped)
	}
	totals, _ := json.Marshal(out["totals"])
	if string(totals) != `{"errors":0,"items":11,"ok":6,"patterns":7,"read_units":4,"skipped":1,"write_units":2}` {
		t.Errorf("totals = %s", totals)
	}
	if got, e := callTool(t, cs, "get_item", `{"TableName":"Shop","Key":{"pk":{"S":"CUST#c2"},"sk":{"S":"ORDER#2026-04-01#o7"}}}`); e != "" || got["response"].(map[string]any)["Item"] == nil {
		t.Fatalf("pattern 6's order is not in the table: %v %s", got, e)
	}
}

func TestDataModelReplacesOnlyWhenAsked(t *testing.T) {
	cs := connect(t, agent.Options{})
	if out, e := validateModel(t, cs, shopModel(t), false); e != "" || out["valid"] != true {
		t.Fatalf("first run: %v %s", out, e)
	}
	marker := `{"TableName":"Shop","Key":{"pk":{"S":"CUST#c2"},"sk":{"S":"ORDER#2026-04-01#o7"}}}`
	_, e := validateModel(t, cs, shopModel(t), false)
	if want := "the model's tables Shop already exist, and nothing was changed: pass replace"; !strings.HasPrefix(e, want) {
		t.Fatalf("a second run without replace answered %q, want %q...", e, want)
	}
	if got, _ := callTool(t, cs, "get_item", marker); got["response"].(map[string]any)["Item"] == nil {
		t.Fatal("the refused run changed the table: pattern 6's order is gone")
	}
	out, e := validateModel(t, cs, shopModel(t), true)
	if e != "" || out["valid"] != true || out["tables"].([]any)[0].(map[string]any)["replaced"] != true {
		t.Fatalf("a run with replace answered %v %s", out, e)
	}
	// Pattern 6's conditional put succeeds again only on a fresh table.
	if p6 := out["patterns"].([]any)[5].(map[string]any); p6["status"] != "ok" {
		t.Fatalf("after replace pattern 6 answered %v", p6)
	}
}

func TestDataModelRefusesABadFileAndChangesNothing(t *testing.T) {
	shop := shopModel(t)
	for name, tc := range map[string]struct{ model, want string }{
		"cut short": {shop[:200], "model: line 8, column 25: unexpected EOF"},
		"Python BOOL": {strings.Replace(shop, `"vip": {"BOOL": true}`, `"vip": {"BOOL": True}`, 1),
			"model: line 30, column 154: invalid character 'T' looking for beginning of value: Python's True is not JSON; write true"},
		"BOOL as a string": {strings.Replace(shop, `"vip": {"BOOL": true}`, `"vip": {"BOOL": "True"}`, 1),
			"- items.Shop[0].PutRequest.Item.vip: BOOL takes true or false, not \"True\""},
		"N as a number": {strings.Replace(shop, `"total": {"N": "40"}`, `"total": {"N": 40}`, 1),
			"- items.Shop[2].PutRequest.Item.total: N takes a number in a string, such as \"12.5\", not 40"},
		"nested value": {strings.Replace(shop, `{"sku": {"S": "A1"}`, `{"sku": {"STRING": "A1"}`, 1),
			"- items.Shop[7].PutRequest.Item.lines[0].sku: \"STRING\" is not a DynamoDB type"},
		"unknown command option": {strings.Replace(shop, "--no-scan-index-forward", "--no-scan-forward", 1),
			"- access_patterns[1] (pattern 2): aws dynamodb query: unknown option --no-scan-forward"},
		"file value": {strings.Replace(shop, `--item '{\"pk\"`, `--item file://order.json --x '{\"pk\"`, 1),
			"- access_patterns[5] (pattern 6): --item: file:// values are not read"},
		"operation mismatch": {strings.Replace(shop, `"dynamodb_operation": "GetItem"`, `"dynamodb_operation": "Query"`, 1),
			"- access_patterns[0] (pattern 1): dynamodb_operation is Query but the command sends GetItem"},
		"index mismatch": {strings.Replace(shop, `"index": "GSI1"`, `"index": "GSI2"`, 1),
			"- access_patterns[2] (pattern 3): index is GSI2 but the command names --index-name GSI1"},
		"no access_patterns": {`{"tables": [], "items": {}}`, `the model has no "access_patterns"`},
		"misspelt key":       {`{"tables": [], "items": {}, "access_pattern": []}`, `model: line 1, column 50: json: unknown field "access_pattern"`},
		"items of no table":  {strings.Replace(shop, `"Shop": [`, `"Shops": [`, 1), "- items.Shops: the model defines no table Shops"},
		"misspelt reason":    {strings.Replace(shop, `"reason": "Full-text`, `"reasons": "Full-text`, 1), `json: unknown field "reasons"`},
		"nothing to run": {strings.Replace(shop, `"reason": "Full-text search is not a DynamoDB access pattern: stream the orders to a search engine"`, `"reason": " "`, 1),
			"- access_patterns[6] (pattern 7-8): no implementation and no reason"},
	} {
		cs := connect(t, agent.Options{})
		_, e := validateModel(t, cs, tc.model, false)
		if !strings.Contains(e, tc.want) {
			t.Errorf("%s: answered %q, want %q", name, e, tc.want)
		}
		if tables := tableNames(t, cs); tables != "[]" {
			t.Errorf("%s: the refused model created %s", name, tables)
		}
	}
}

func TestDataModelOnAReadOnlyServer(t *testing.T) {
	cs := connect(t, agent.Options{ReadOnly: true})
	_, e := validateModel(t, cs, shopModel(t), false)
	if e != "data_model_validate writes, and this server is read-only (sortkey mcp --read-only)" {
		t.Fatalf("a read-only server answered %q", e)
	}
	if tables := tableNames(t, cs); tables != "[]" {
		t.Fatalf("the read-only server created %s", tables)
	}
}

// pagedModel is one partition of five items and patterns that page
// through it as the AWS CLI would.
const pagedModel = `{"tables": [{"TableName": "Pages", "BillingMode": "PAY_PER_REQUEST",
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "N"}],
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}]}],
 "items": {"Pages": [%s]},
 "access_patterns": [
  {"pattern": 1, "description": "all", "table": "Pages", "dynamodb_operation": "Query",
   "implementation": "aws dynamodb query --table-name Pages --key-condition-expression 'pk = :p' --expression-attribute-values '{\":p\":{\"S\":\"a\"}}' --page-size 2"},
  {"pattern": 2, "description": "first three", "table": "Pages", "dynamodb_operation": "Query",
   "implementation": "aws dynamodb query --table-name Pages --key-condition-expression 'pk = :p' --expression-attribute-values '{\":p\":{\"S\":\"a\"}}' --page-size 2 --max-items 3"},
  {"pattern": 3, "description": "one page", "table": "Pages", "dynamodb_operation": "Scan",
   "implementation": "aws dynamodb scan --table-name Pages --limit 2"},
  {"pattern": 4, "description": "missing index", "table": "Pages", "dynamodb_operation": "Query",
   "implementation": "aws dynamodb query --table-name Pages --index-name Nope --key-condition-expression 'pk = :p' --expression-attribute-values '{\":p\":{\"S\":\"a\"}}'"},
  {"pattern": 5, "description": "no such item", "table": "Pages", "dynamodb_operation": "GetItem",
   "implementation": "aws dynamodb get-item --table-name Pages --key '{\"pk\":{\"S\":\"zzz\"},\"sk\":{\"N\":\"1\"}}'"},
  {"pattern": 6, "description": "batch", "dynamodb_operation": "BatchGetItem",
   "implementation": "aws dynamodb batch-get-item --request-items '{\"Pages\":{\"Keys\":[{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}},{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"2\"}}]}}'"},
  {"pattern": 7, "description": "transact get", "dynamodb_operation": "TransactGetItems",
   "implementation": "aws dynamodb transact-get-items --transact-items '[{\"Get\":{\"TableName\":\"Pages\",\"Key\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}}},{\"Get\":{\"TableName\":\"Pages\",\"Key\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"9\"}}}}]'"},
  {"pattern": 8, "description": "partiql", "dynamodb_operation": "ExecuteStatement",
   "implementation": "aws dynamodb execute-statement --statement \"SELECT * FROM Pages WHERE pk = 'a' AND sk < 3\""},
  {"pattern": 9, "description": "update", "table": "Pages", "dynamodb_operation": "UpdateItem",
   "implementation": "aws dynamodb update-item --table-name Pages --key '{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}' --update-expression 'SET n = :n' --expression-attribute-values '{\":n\":{\"N\":\"1\"}}' --return-values ALL_NEW"},
  {"pattern": 10, "description": "transact write", "dynamodb_operation": "TransactWriteItems",
   "implementation": "aws dynamodb transact-write-items --transact-items '[{\"Put\":{\"TableName\":\"Pages\",\"Item\":{\"pk\":{\"S\":\"b\"},\"sk\":{\"N\":\"1\"}}}}]'"}]}`

func pagedItems(bad bool) string {
	var items []string
	for i := range 5 {
		items = append(items, fmt.Sprintf(`{"PutRequest": {"Item": {"pk": {"S": "a"}, "sk": {"N": "%d"}}}}`, i))
	}
	if bad {
		items[1] = `{"PutRequest": {"Item": {"pk": {"S": "a"}}}}`
	}
	return strings.Join(items, ",")
}

func TestDataModelPagesAsTheCLIDoes(t *testing.T) {
	cs := connect(t, agent.Options{})
	out, e := validateModel(t, cs, fmt.Sprintf(pagedModel, pagedItems(false)), false)
	if e != "" {
		t.Fatal(e)
	}
	patterns := out["patterns"].([]any)
	for i, want := range []string{
		// 5 items at 2 a page: the third page ends it.
		"1 ok Query items=5 scanned=5 pages=3 rcu=1.5 wcu=0 served=key condition index=<nil>",
		// --max-items stops once 3 are read: 4 read, 3 printed.
		"2 ok Query items=3 scanned=4 pages=2 rcu=1 wcu=0 served=key condition index=<nil>",
		// --limit given by hand turns the CLI's paging off.
		"3 ok Scan items=2 scanned=2 pages=1 rcu=0.5 wcu=0 served=scan index=<nil>",
		"4 error Query items=0 scanned=0 pages=0 rcu=0 wcu=0 served=key condition index=Nope",
		"5 ok GetItem items=0 scanned=0 pages=1 rcu=0.5 wcu=0 served=key index=<nil>",
		"6 ok BatchGetItem items=2 scanned=2 pages=1 rcu=1 wcu=0 served=key index=<nil>",
		// A transactional read is two units per item, found or not.
		"7 ok TransactGetItems items=1 scanned=1 pages=1 rcu=4 wcu=0 served=key index=<nil>",
		"8 ok ExecuteStatement items=3 scanned=3 pages=1 rcu=0.5 wcu=0 served=statement index=<nil>",
		"9 ok UpdateItem items=1 scanned=0 pages=1 rcu=0 wcu=1 served=key index=<nil>",
		"10 ok TransactWriteItems items=0 scanned=0 pages=1 rcu=0 wcu=2 served=key index=<nil>",
	} {
		if got := figures(patterns[i].(map[string]any)); got != want {
			t.Errorf("pattern %d:\n got %s\nwant %s", i+1, got, want)
		}
	}
	if flags := fmt.Sprint(patterns[4].(map[string]any)["flags"]); !strings.Contains(flags, "returned no items") {
		t.Errorf("a GetItem that finds nothing is not flagged: %s", flags)
	}
	p4 := patterns[3].(map[string]any)
	if p4["error"] != "ValidationException: The table does not have the specified index: Nope" || out["valid"] != false {
		t.Errorf("the query of a missing index answered %v, valid %v", p4["error"], out["valid"])
	}
}

func TestDataModelPagesStopAtTheServersCap(t *testing.T) {
	cs := connect(t, agent.Options{MaxItems: 2})
	out, e := validateModel(t, cs, fmt.Sprintf(pagedModel, pagedItems(false)), false)
	if e != "" {
		t.Fatal(e)
	}
	p1 := out["patterns"].([]any)[0].(map[string]any)
	if p1["pages"] != 2.0 || p1["items"] != 4.0 || p1["truncated"] != true || !strings.Contains(fmt.Sprint(p1["flags"]), "paging stopped after 2 pages") {
		t.Fatalf("with a cap of 2 pages, pattern 1 answered %v", p1)
	}
}

func TestDataModelNamesEachItemItCouldNotWrite(t *testing.T) {
	cs := connect(t, agent.Options{})
	out, e := validateModel(t, cs, fmt.Sprintf(pagedModel, pagedItems(true)), false)
	if e != "" {
		t.Fatal(e)
	}
	load := out["tables"].([]any)[0].(map[string]any)
	errs := fmt.Sprint(load["errors"])
	if load["items"] != 4.0 || errs != "[items.Pages[1]: ValidationException: One or more parameter values were invalid: Missing the key sk in the item]" {
		t.Fatalf("a batch with an item missing its sort key loaded %v items, errors %s", load["items"], errs)
	}
	if out["valid"] != false {
		t.Fatal("a model whose items do not load is valid")
	}
}

func TestDataModelUndoesTablesWhenCreateTableRefuses(t *testing.T) {
	cs := connect(t, agent.Options{})
	model := `{"tables": [
  {"TableName": "Alpha", "BillingMode": "PAY_PER_REQUEST", "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}], "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]},
  {"TableName": "Beta", "BillingMode": "PAY_PER_REQUEST", "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}], "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}]}],
 "items": {}, "access_patterns": []}`
	_, e := validateModel(t, cs, model, false)
	if !strings.HasPrefix(e, "creating table Beta: ValidationException: ") || !strings.Contains(e, "(the tables this call created were deleted again)") {
		t.Fatalf("a table CreateTable refuses answered %q", e)
	}
	if tables := tableNames(t, cs); tables != "[]" {
		t.Fatalf("table Alpha was left behind: %s", tables)
	}
}

// BenchmarkDataModelValidate is one validation of the shop model over an
// MCP session: its table replaced, 8 items written, 6 patterns run.
func BenchmarkDataModelValidate(b *testing.B) {
	cs := connect(b, agent.Options{})
	model, err := os.ReadFile("testdata/dynamodb_data_model.json")
	if err != nil {
		b.Fatal(err)
	}
	args := map[string]any{"model": string(model), "replace": true}
	for b.Loop() {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "data_model_validate", Arguments: args})
		if err != nil || res.IsError {
			b.Fatalf("%v %v", err, res)
		}
	}
}
