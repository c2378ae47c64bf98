package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/internal/agent"
)

// connect serves a fresh in-memory sortkey's tools with opts and returns
// a client session to them, as an agent's MCP client would hold one.
func connect(t testing.TB, opts agent.Options) *mcp.ClientSession {
	t.Helper()
	return connectDB(t, sortkey.Options{TTLInterval: -1}, opts)
}

// callTool calls a tool with arguments given as JSON and returns its
// structured result, or the text of its error.
func callTool(t testing.TB, cs *mcp.ClientSession, tool, args string) (map[string]any, string) {
	t.Helper()
	var in map[string]any
	if err := json.Unmarshal([]byte(args), &in); err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: in})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if res.IsError {
		return nil, res.Content[0].(*mcp.TextContent).Text
	}
	b, _ := json.Marshal(res.StructuredContent)
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out, ""
}

const createOrders = `{"TableName":"Orders","BillingMode":"PAY_PER_REQUEST",
 "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}],
 "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}]}`

func TestToolsAreListedWithDescriptions(t *testing.T) {
	cs := connect(t, agent.Options{})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		if tool.Description == "" || tool.InputSchema == nil {
			t.Errorf("%s has no description or input schema", tool.Name)
		}
	}
	for _, want := range []string{"create_table", "put_item", "get_item", "query", "scan", "execute_statement", "design_check"} {
		if !slices.Contains(names, want) {
			t.Errorf("tools %v lack %s", names, want)
		}
	}
}

func TestToolsAnswerAsDynamoDB(t *testing.T) {
	cs := connect(t, agent.Options{})
	if _, e := callTool(t, cs, "create_table", createOrders); e != "" {
		t.Fatal(e)
	}
	if _, e := callTool(t, cs, "put_item", `{"TableName":"Orders","Item":{"pk":{"S":"c1"},"sk":{"S":"o1"},"total":{"N":"12.50"}}}`); e != "" {
		t.Fatal(e)
	}
	out, e := callTool(t, cs, "get_item", `{"TableName":"Orders","Key":{"pk":{"S":"c1"},"sk":{"S":"o1"}}}`)
	if e != "" {
		t.Fatal(e)
	}
	item := out["response"].(map[string]any)["Item"].(map[string]any)
	if total := item["total"].(map[string]any)["N"]; total != "12.5" {
		t.Fatalf("total = %v, want DynamoDB's normalised 12.5", total)
	}
	_, e = callTool(t, cs, "get_item", `{"TableName":"Nope","Key":{"pk":{"S":"c1"}}}`)
	if e != "ResourceNotFoundException: Requested resource not found" {
		t.Fatalf("a missing table answered %q", e)
	}
	_, e = callTool(t, cs, "put_item", `{"TableName":"Orders","Item":{"pk":{"S":"c1"}}}`)
	if want := "ValidationException: One or more parameter values were invalid: Missing the key sk in the item"; e != want {
		t.Fatalf("an item without its sort key answered %q, want %q", e, want)
	}
}

func TestQueryStopsAtTheItemCap(t *testing.T) {
	cs := connect(t, agent.Options{MaxItems: 2})
	callTool(t, cs, "create_table", createOrders)
	for i := range 5 {
		if _, e := callTool(t, cs, "put_item", fmt.Sprintf(`{"TableName":"Orders","Item":{"pk":{"S":"c1"},"sk":{"S":"o%d"}}}`, i)); e != "" {
			t.Fatal(e)
		}
	}
	q := `{"TableName":"Orders","KeyConditionExpression":"pk = :c","ExpressionAttributeValues":{":c":{"S":"c1"}}%s}`
	out, e := callTool(t, cs, "query", fmt.Sprintf(q, ""))
	if e != "" {
		t.Fatal(e)
	}
	resp := out["response"].(map[string]any)
	if resp["Count"] != 2.0 || out["truncated"] != true || resp["LastEvaluatedKey"] == nil {
		t.Fatalf("a query of 5 items with a cap of 2 answered %v", out)
	}
	next, _ := json.Marshal(resp["LastEvaluatedKey"])
	out, _ = callTool(t, cs, "query", fmt.Sprintf(q, `,"ExclusiveStartKey":`+string(next)))
	if c := out["response"].(map[string]any)["Count"]; c != 2.0 {
		t.Fatalf("the second page has %v items, want 2", c)
	}
	out, _ = callTool(t, cs, "query", fmt.Sprintf(q, `,"Limit":1`))
	if out["truncated"] == true {
		t.Fatalf("a Limit under the cap is the agent's own, not a truncation: %v", out)
	}
}

func TestReadOnlyRefusesWrites(t *testing.T) {
	cs := connect(t, agent.Options{ReadOnly: true})
	for tool, args := range map[string]string{
		"create_table":      createOrders,
		"put_item":          `{"TableName":"Orders","Item":{"pk":{"S":"a"},"sk":{"S":"b"}}}`,
		"execute_statement": `{"Statement":"INSERT INTO Orders VALUE {'pk': 'a', 'sk': 'b'}"}`,
	} {
		if _, e := callTool(t, cs, tool, args); !strings.Contains(e, "read-only") {
			t.Errorf("%s on a read-only server answered %q", tool, e)
		}
	}
	if _, e := callTool(t, cs, "list_tables", `{}`); e != "" {
		t.Fatalf("list_tables on a read-only server: %s", e)
	}
	if _, e := callTool(t, cs, "execute_statement", `{"Statement":"SELECT * FROM Orders"}`); !strings.HasPrefix(e, "ResourceNotFoundException") {
		t.Fatalf("a SELECT on a read-only server reaches the table: %q", e)
	}
}

func TestDesignCheckFindsWithLineAndColumn(t *testing.T) {
	cs := connect(t, agent.Options{})
	doc, err := os.ReadFile("../design/testdata/market.yaml")
	if err != nil {
		t.Fatal(err)
	}
	args, _ := json.Marshal(map[string]string{"design": string(doc), "file": "market.yaml"})
	out, e := callTool(t, cs, "design_check", string(args))
	if e != "" {
		t.Fatal(e)
	}
	findings := out["findings"].([]any)
	first := findings[0].(map[string]any)
	if out["errors"] != 0.0 || len(findings) != 3 || first["line"] != 11.0 || first["col"] != 9.0 || first["severity"] != "warning" {
		t.Fatalf("market.yaml, which sortkey design check finds sound with three warnings, the first at 11:9, answered %v", out)
	}
	_, e = callTool(t, cs, "design_check", `{"design":"version: 1\ntabels: []\n"}`)
	if want := "design.yaml:2:1: error: unknown key \"tabels\": did you mean tables?"; e != want {
		t.Fatalf("a misspelt key answered %q, want %q", e, want)
	}
}

// TestAgentsDocListsEveryTool keeps docs/AGENTS.md's tool table equal to
// the tools the server registers.
func TestAgentsDocListsEveryTool(t *testing.T) {
	cs := connect(t, agent.Options{})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("| tool | what it does |\n|---|---|\n")
	for _, tool := range res.Tools {
		first, _, _ := strings.Cut(tool.Description, ". ")
		fmt.Fprintf(&b, "| `%s` | %s |\n", tool.Name, strings.TrimSuffix(first, "."))
	}
	doc, err := os.ReadFile("../../docs/AGENTS.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), b.String()) {
		t.Fatalf("docs/AGENTS.md's tool table differs from the tools; it should read:\n%s", b.String())
	}
}

// BenchmarkFirstAnswer is an agent's start: a fresh in-memory sortkey,
// its tools, a client connected and the first tool's answer.
func BenchmarkFirstAnswer(b *testing.B) {
	for b.Loop() {
		db, err := sortkey.Open("", &sortkey.Options{InMemory: true, TTLInterval: -1})
		if err != nil {
			b.Fatal(err)
		}
		ctx := context.Background()
		serverEnd, clientEnd := mcp.NewInMemoryTransports()
		ss, err := agent.New(db.Handler(), agent.Options{}).Connect(ctx, serverEnd, nil)
		if err != nil {
			b.Fatal(err)
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, clientEnd, nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_tables", Arguments: map[string]any{}}); err != nil {
			b.Fatal(err)
		}
		cs.Close()
		ss.Close()
		db.Close()
	}
}

func TestDesignApplyCreatesTheTables(t *testing.T) {
	cs := connect(t, agent.Options{})
	doc, err := os.ReadFile("../design/testdata/market.yaml")
	if err != nil {
		t.Fatal(err)
	}
	args, _ := json.Marshal(map[string]any{"design": string(doc), "dry_run": true})
	out, e := callTool(t, cs, "design_apply", string(args))
	if e != "" || out["matches"] != false || len(out["changes"].([]any)) == 0 {
		t.Fatalf("a dry run on an empty sortkey answered %v %s", out, e)
	}
	if tables, _ := callTool(t, cs, "list_tables", `{}`); len(tables["response"].(map[string]any)["TableNames"].([]any)) != 0 {
		t.Fatalf("the dry run created tables: %v", tables)
	}
	args, _ = json.Marshal(map[string]any{"design": string(doc)})
	if out, e = callTool(t, cs, "design_apply", string(args)); e != "" || out["matches"] != true {
		t.Fatalf("applying Market answered %v %s", out, e)
	}
	desc, e := callTool(t, cs, "describe_table", `{"TableName":"Market"}`)
	if e != "" || len(desc["response"].(map[string]any)["Table"].(map[string]any)["GlobalSecondaryIndexes"].([]any)) != 2 {
		t.Fatalf("Market after apply: %v %s", desc, e)
	}
	args, _ = json.Marshal(map[string]any{"design": string(doc), "dry_run": true})
	if out, _ = callTool(t, cs, "design_apply", string(args)); out["matches"] != true || len(out["changes"].([]any)) != 0 {
		t.Fatalf("a second dry run still has changes: %v", out)
	}
	ro := connect(t, agent.Options{ReadOnly: true})
	args, _ = json.Marshal(map[string]any{"design": string(doc)})
	if _, e = callTool(t, ro, "design_apply", string(args)); !strings.Contains(e, "read-only") {
		t.Fatalf("design_apply on a read-only server answered %q", e)
	}
}

func TestALimitOfTheWrongTypeIsTheAPIsToRefuse(t *testing.T) {
	cs := connect(t, agent.Options{MaxItems: 2})
	callTool(t, cs, "create_table", createOrders)
	_, e := callTool(t, cs, "scan", `{"TableName":"Orders","Limit":"two"}`)
	if !strings.HasPrefix(e, "SerializationException") {
		t.Fatalf("a string Limit answered %q, want DynamoDB's refusal", e)
	}
}
