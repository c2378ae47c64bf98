package agent_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/internal/agent"
)

// callExact calls a tool with args sent as written and reads the answer's
// text, numbers as json.Number: what an agent reads, digit for digit.
func callExact(t *testing.T, cs *mcp.ClientSession, tool, args string) (map[string]any, string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if res.IsError {
		return nil, text
	}
	d := json.NewDecoder(strings.NewReader(text))
	d.UseNumber()
	var out map[string]any
	if err := d.Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out, ""
}

func mustExact(t *testing.T, cs *mcp.ClientSession, tool, args string) map[string]any {
	t.Helper()
	out, e := callExact(t, cs, tool, args)
	if e != "" {
		t.Fatalf("%s %s: %s", tool, args, e)
	}
	return out
}

const big = "12345678901234567890123456789012345678"

func TestPlainPutThenPlainGet(t *testing.T) {
	cs := connect(t, agent.Options{})
	mustCall(t, cs, "create_table", createOrders)
	mustExact(t, cs, "put_item", `{"plainJSON":true,"TableName":"Orders","Item":{"pk":"c1","sk":"o1","big":`+big+`,
	 "nested":{"a":[1,"x",true,null,{"b":2.50}],"neg":-0.001}}}`)
	out := mustExact(t, cs, "get_item", `{"plainJSON":true,"TableName":"Orders","Key":{"pk":"c1","sk":"o1"}}`)
	item := response(out)["Item"].(map[string]any)
	if out["plainJSON"] != true || item["big"] != json.Number(big) || item["pk"] != "c1" {
		t.Fatalf("the plain item came back as %v", out)
	}
	want := map[string]any{"a": []any{json.Number("1"), "x", true, nil, map[string]any{"b": json.Number("2.5")}}, "neg": json.Number("-0.001")}
	if !reflect.DeepEqual(item["nested"], want) {
		t.Fatalf("nested = %v, want %v", item["nested"], want)
	}
	typed := mustExact(t, cs, "get_item", `{"TableName":"Orders","Key":{"pk":{"S":"c1"},"sk":{"S":"o1"}}}`)
	stored := response(typed)["Item"].(map[string]any)
	if stored["big"].(map[string]any)["N"] != big || stored["nested"].(map[string]any)["M"] == nil {
		t.Fatalf("the plain item was stored as %v", stored)
	}
}

func TestPlainQueryContinuesFromAPlainKey(t *testing.T) {
	cs := connect(t, agent.Options{})
	mustCall(t, cs, "create_table", createOrders)
	for i := range 3 {
		mustExact(t, cs, "put_item", fmt.Sprintf(`{"plainJSON":true,"TableName":"Orders","Item":{"pk":"c1","sk":"o%d","n":%d}}`, i, i))
	}
	q := `{"plainJSON":true,"TableName":"Orders","KeyConditionExpression":"pk = :c","ExpressionAttributeValues":{":c":"c1"},"Limit":1%s}`
	out := mustExact(t, cs, "query", fmt.Sprintf(q, ""))
	lek, _ := json.Marshal(response(out)["LastEvaluatedKey"])
	if string(lek) != `{"pk":"c1","sk":"o0"}` {
		t.Fatalf("the first page's LastEvaluatedKey is %s, want plain JSON", lek)
	}
	out = mustExact(t, cs, "query", fmt.Sprintf(q, `,"ExclusiveStartKey":`+string(lek)))
	items := response(out)["Items"].([]any)
	if len(items) != 1 || items[0].(map[string]any)["sk"] != "o1" || items[0].(map[string]any)["n"] != json.Number("1") {
		t.Fatalf("the page after o0 is %v", items)
	}
}

func TestPlainBatchAndTransactItems(t *testing.T) {
	cs := connect(t, agent.Options{})
	mustCall(t, cs, "create_table", createOrders)
	mustExact(t, cs, "batch_write_item", `{"plainJSON":true,"RequestItems":{"Orders":[
	 {"PutRequest":{"Item":{"pk":"c1","sk":"a","v":`+big+`}}},{"PutRequest":{"Item":{"pk":"c1","sk":"b","v":[1,2]}}}]}}`)
	mustExact(t, cs, "transact_write_items", `{"plainJSON":true,"TransactItems":[
	 {"Update":{"TableName":"Orders","Key":{"pk":"c1","sk":"b"},"UpdateExpression":"SET w = :w","ExpressionAttributeValues":{":w":{"x":"y"}}}}]}`)
	out := mustExact(t, cs, "batch_get_item", `{"plainJSON":true,"RequestItems":{"Orders":{"Keys":[{"pk":"c1","sk":"a"}]}}}`)
	got := response(out)["Responses"].(map[string]any)["Orders"].([]any)
	if len(got) != 1 || got[0].(map[string]any)["v"] != json.Number(big) {
		t.Fatalf("batch_get_item answered %v", out)
	}
	out = mustExact(t, cs, "transact_get_items", `{"plainJSON":true,"TransactItems":[{"Get":{"TableName":"Orders","Key":{"pk":"c1","sk":"b"}}}]}`)
	item := response(out)["Responses"].([]any)[0].(map[string]any)["Item"].(map[string]any)
	if !reflect.DeepEqual(item["w"], map[string]any{"x": "y"}) || len(item["v"].([]any)) != 2 {
		t.Fatalf("transact_get_items answered %v", item)
	}
}

func TestBadPlainInputChangesNothing(t *testing.T) {
	cs := connect(t, agent.Options{})
	mustCall(t, cs, "create_table", createOrders)
	for args, want := range map[string]string{
		`{"plainJSON":"yes","TableName":"Orders","Item":{"pk":"c1","sk":"o1"}}`:                                                                    "plainJSON must be true or false",
		`{"plainJSON":true,"TableName":"Orders","Item":["pk","c1"]}`:                                                                               "plainJSON: Item must be a JSON object",
		`{"plainJSON":true,"TransactItems":[{"Put":{"TableName":"Orders","Item":"c1"}}]}`:                                                          "plainJSON: Item must be a JSON object",
		`{"plainJSON":true,"RequestItems":{"Orders":[{"PutRequest":{"Item":{"pk":"c1","sk":"a","n":1234567890123456789012345678901234567890}}}]}}`: "ValidationException",
	} {
		tool := "put_item"
		if strings.Contains(args, "TransactItems") {
			tool = "transact_write_items"
		} else if strings.Contains(args, "RequestItems") {
			tool = "batch_write_item"
		}
		if _, e := callExact(t, cs, tool, args); e == "" || !strings.Contains(e, want) {
			t.Errorf("%s answered %q, want %q", args, e, want)
		}
	}
	if n := response(mustCall(t, cs, "scan", `{"TableName":"Orders"}`))["Count"]; n != 0.0 {
		t.Fatalf("bad plain input wrote %v items", n)
	}
}

func TestMaxBytesShrinksAQuery(t *testing.T) {
	const capBytes = 4096
	cs := connect(t, agent.Options{MaxBytes: capBytes})
	mustCall(t, cs, "create_table", createOrders)
	pad := strings.Repeat("x", 1000)
	for i := range 10 {
		mustCall(t, cs, "put_item", fmt.Sprintf(`{"TableName":"Orders","Item":{"pk":{"S":"c1"},"sk":{"S":"o%d"},"pad":{"S":%q}}}`, i, pad))
	}
	q := `{"TableName":"Orders","KeyConditionExpression":"pk = :c","ExpressionAttributeValues":{":c":{"S":"c1"}}%s}`
	var seen []string
	next := ""
	for page := 0; page < 20; page++ {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "query", Arguments: json.RawMessage(fmt.Sprintf(q, next))})
		if err != nil || res.IsError {
			t.Fatalf("page %d: %v %v", page, err, res.Content)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		var out map[string]any
		json.Unmarshal([]byte(text), &out)
		items := response(out)["Items"].([]any)
		if len(text) > capBytes || len(items) == 0 {
			t.Fatalf("page %d is %d bytes with %d items, over the cap of %d or empty", page, len(text), len(items), capBytes)
		}
		for _, it := range items {
			seen = append(seen, it.(map[string]any)["sk"].(map[string]any)["S"].(string))
		}
		lek, more := response(out)["LastEvaluatedKey"]
		if !more {
			break
		}
		if out["truncated"] != true || len(items) >= 10 {
			t.Fatalf("page %d has %d items of 1 KB under a 4 KiB cap, truncated=%v", page, len(items), out["truncated"])
		}
		b, _ := json.Marshal(lek)
		next = `,"ExclusiveStartKey":` + string(b)
	}
	if want := "o0 o1 o2 o3 o4 o5 o6 o7 o8 o9"; strings.Join(seen, " ") != want {
		t.Fatalf("the pages held %v, want each of %s once, in order", seen, want)
	}
}

func TestAnAnswerOverTheByteCap(t *testing.T) {
	cs := connect(t, agent.Options{MaxBytes: 4096})
	mustCall(t, cs, "create_table", createOrders)
	item := func(pad int) string {
		return fmt.Sprintf(`"Item":{"pk":{"S":"c1"},"sk":{"S":"o1"},"pad":{"S":%q}}`, strings.Repeat("y", pad))
	}
	mustCall(t, cs, "put_item", `{"TableName":"Orders",`+item(10000)+`}`)
	_, e := callTool(t, cs, "get_item", `{"TableName":"Orders","Key":{"pk":{"S":"c1"},"sk":{"S":"o1"}}}`)
	if !strings.HasPrefix(e, "the answer is 100") || !strings.Contains(e, "cap of 4096") || !strings.Contains(e, "ProjectionExpression") {
		t.Fatalf("a 10 KB item under a 4 KiB cap answered %q", e)
	}
	_, e = callTool(t, cs, "query", `{"TableName":"Orders","KeyConditionExpression":"pk = :c","ExpressionAttributeValues":{":c":{"S":"c1"}}}`)
	if !strings.Contains(e, "cap of 4096") {
		t.Fatalf("a query whose one item is over the cap answered %q", e)
	}
	out := mustCall(t, cs, "put_item", `{"TableName":"Orders","ReturnValues":"ALL_OLD",`+item(20)+`}`)
	if out["truncated"] != true || fmt.Sprint(out["dropped"]) != "[Attributes]" || response(out)["Attributes"] != nil {
		t.Fatalf("a write whose old item is over the cap answered %v", out)
	}
	got := mustCall(t, cs, "get_item", `{"TableName":"Orders","Key":{"pk":{"S":"c1"},"sk":{"S":"o1"}}}`)
	if pad := response(got)["Item"].(map[string]any)["pad"].(map[string]any)["S"]; pad != strings.Repeat("y", 20) {
		t.Fatalf("the write answered truncated was not made: pad is %d bytes", len(pad.(string)))
	}
}

// TestTheByteCapIsMeasuredOnTheAnswersText: the cap is on what the agent
// reads, so one byte under the answer's size refuses it.
func TestTheByteCapIsMeasuredOnTheAnswersText(t *testing.T) {
	cs := connect(t, agent.Options{})
	mustCall(t, cs, "create_table", createOrders)
	mustCall(t, cs, "put_item", `{"TableName":"Orders","Item":{"pk":{"S":"c1"},"sk":{"S":"o1"}}}`)
	get := `{"TableName":"Orders","Key":{"pk":{"S":"c1"},"sk":{"S":"o1"}}}`
	res, _ := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_item", Arguments: json.RawMessage(get)})
	size := len(bytes.TrimSpace([]byte(res.Content[0].(*mcp.TextContent).Text)))
	if _, e := callTool(t, connectCapped(t, size), "get_item", get); e != "" {
		t.Fatalf("an answer of exactly the cap (%d bytes) was refused: %s", size, e)
	}
	if _, e := callTool(t, connectCapped(t, size-1), "get_item", get); !strings.Contains(e, fmt.Sprintf("the answer is %d bytes", size)) {
		t.Fatalf("an answer one byte over the cap answered %q", e)
	}
}

func connectCapped(t *testing.T, maxBytes int) *mcp.ClientSession {
	cs := connect(t, agent.Options{MaxBytes: maxBytes})
	mustCall(t, cs, "create_table", createOrders)
	mustCall(t, cs, "put_item", `{"TableName":"Orders","Item":{"pk":{"S":"c1"},"sk":{"S":"o1"}}}`)
	return cs
}

// BenchmarkQueryOf100Items is a page an agent reads, in DynamoDB JSON and
// in plain JSON: the cost of converting the answer and measuring it.
func BenchmarkQueryOf100Items(b *testing.B) {
	db, err := sortkey.Open("", &sortkey.Options{InMemory: true, TTLInterval: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	ss, _ := agent.New(db.Handler(), agent.Options{}).Connect(ctx, serverEnd, nil)
	defer ss.Close()
	cs, _ := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, clientEnd, nil)
	defer cs.Close()
	cs.CallTool(ctx, &mcp.CallToolParams{Name: "create_table", Arguments: json.RawMessage(createOrders)})
	for i := range 100 {
		item := fmt.Sprintf(`{"plainJSON":true,"TableName":"Orders","Item":{"pk":"c1","sk":"o%03d","n":%d,"m":{"a":[1,"x",true]}}}`, i, i)
		cs.CallTool(ctx, &mcp.CallToolParams{Name: "put_item", Arguments: json.RawMessage(item)})
	}
	for _, plain := range []string{"false", "true"} {
		q := json.RawMessage(`{"plainJSON":` + plain + `,"TableName":"Orders","KeyConditionExpression":"pk = :c","ExpressionAttributeValues":{":c":{"S":"c1"}}}`)
		if plain == "true" {
			q = json.RawMessage(`{"plainJSON":true,"TableName":"Orders","KeyConditionExpression":"pk = :c","ExpressionAttributeValues":{":c":"c1"}}`)
		}
		b.Run("plainJSON="+plain, func(b *testing.B) {
			for b.Loop() {
				if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "query", Arguments: q}); err != nil || res.IsError {
					b.Fatal(err, res)
				}
			}
		})
	}
}
