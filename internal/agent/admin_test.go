package agent_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/internal/agent"
)

func TestClockAdvanceExpiresItems(t *testing.T) {
	cs := connectDB(t, virtualAdmin(), agent.Options{})
	now, err := time.Parse(time.RFC3339, mustCall(t, cs, "clock_get", `{}`)["now"].(string))
	if err != nil || !now.Equal(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("clock_get answered %v (%v), want the clock's start", now, err)
	}
	mustCall(t, cs, "create_table", createOrders)
	mustCall(t, cs, "update_time_to_live", `{"TableName":"Orders","TimeToLiveSpecification":{"Enabled":true,"AttributeName":"expires"}}`)
	mustCall(t, cs, "put_item", fmt.Sprintf(`{"TableName":"Orders","Item":{"pk":{"S":"c1"},"sk":{"S":"o1"},"expires":{"N":"%d"}}}`, now.Add(time.Hour).Unix()))
	mustCall(t, cs, "clock_advance", `{"advance":"30m"}`)
	if item := response(mustCall(t, cs, "get_item", fmt.Sprintf(getOrder, "Orders")))["Item"]; item == nil {
		t.Fatal("the item expired half an hour before its time")
	}
	moved := mustCall(t, cs, "clock_advance", `{"set":"2026-01-01T02:00:00Z"}`)
	if moved["now"] != "2026-01-01T02:00:00Z" {
		t.Fatalf("clock_advance to 02:00 answered %v", moved)
	}
	if item := response(mustCall(t, cs, "get_item", fmt.Sprintf(getOrder, "Orders")))["Item"]; item != nil {
		t.Fatalf("an hour past its Time to Live the item is still there: %v", item)
	}
}

func TestClockRefusesBadMoves(t *testing.T) {
	cs := connectDB(t, virtualAdmin(), agent.Options{})
	for args, want := range map[string]string{
		`{}`:                             `give exactly one of "advance" and "set"`,
		`{"advance":"soon"}`:             `"advance" must be a duration`,
		`{"set":"2025-01-01T00:00:00Z"}`: "back",
		`{"advance":"1h","set":"2027-01-01T00:00:00Z"}`: `give exactly one`,
	} {
		if _, e := callTool(t, cs, "clock_advance", args); !strings.Contains(e, want) {
			t.Errorf("clock_advance %s answered %q, want it to say %q", args, e, want)
		}
	}
	if now := mustCall(t, cs, "clock_get", `{}`)["now"]; now != "2026-01-01T00:00:00Z" {
		t.Fatalf("refused moves moved the clock to %v", now)
	}
	ro := connectDB(t, virtualAdmin(), agent.Options{ReadOnly: true})
	if _, e := callTool(t, ro, "clock_advance", `{"advance":"1h"}`); !strings.Contains(e, "read-only") {
		t.Fatalf("clock_advance on a read-only server answered %q", e)
	}
}

func TestClockToolsOnTheRealClockSayWhy(t *testing.T) {
	cs := connect(t, agent.Options{})
	for tool, args := range map[string]string{"clock_get": `{}`, "clock_advance": `{"advance":"1h"}`} {
		if _, e := callTool(t, cs, tool, args); !strings.Contains(e, "sortkey.Options.Clock") {
			t.Errorf("%s on the real clock answered %q", tool, e)
		}
	}
}

const throttlePuts = `{"rules":[{"operation":"PutItem","table":"Orders","error":"ProvisionedThroughputExceededException"}]}`

func TestFaultRuleFailsPutsUntilCleared(t *testing.T) {
	cs := connectDB(t, virtualAdmin(), agent.Options{})
	mustCall(t, cs, "create_table", createOrders)
	set := mustCall(t, cs, "faults_set", throttlePuts)
	if rules := set["rules"].([]any); len(rules) != 1 {
		t.Fatalf("faults_set answered %v, want the one rule", set)
	}
	if _, e := callTool(t, cs, "put_item", putOrder); !strings.HasPrefix(e, "ProvisionedThroughputExceededException: ") {
		t.Fatalf("a put under the rule answered %q", e)
	}
	rule := mustCall(t, cs, "faults_list", `{}`)["rules"].([]any)[0].(map[string]any)
	if rule["fired"] != 1.0 || rule["matched"] != 1.0 {
		t.Fatalf("faults_list after one put answered %v, want it matched and fired once", rule)
	}
	if cleared := mustCall(t, cs, "faults_clear", `{}`); len(cleared["rules"].([]any)) != 0 {
		t.Fatalf("faults_clear answered %v", cleared)
	}
	mustCall(t, cs, "put_item", putOrder)
}

func TestFaultRulesRefusedChangeNothing(t *testing.T) {
	cs := connectDB(t, virtualAdmin(), agent.Options{})
	mustCall(t, cs, "faults_set", throttlePuts)
	_, e := callTool(t, cs, "faults_set", `{"rules":[{"operation":"PutItem","every":-2}]}`)
	if !strings.Contains(e, "rules[0].every") {
		t.Fatalf("a negative every answered %q, want the member named", e)
	}
	if rules := mustCall(t, cs, "faults_list", `{}`)["rules"].([]any); len(rules) != 1 || rules[0].(map[string]any)["table"] != "Orders" {
		t.Fatalf("a refused rule file changed the rules to %v", rules)
	}
	ro := connectDB(t, virtualAdmin(), agent.Options{ReadOnly: true})
	for tool, args := range map[string]string{"faults_set": throttlePuts, "faults_clear": `{}`} {
		if _, e := callTool(t, ro, tool, args); !strings.Contains(e, "read-only") {
			t.Errorf("%s on a read-only server answered %q", tool, e)
		}
	}
}

func TestFaultToolsWithoutAdminSayWhy(t *testing.T) {
	cs := connectDB(t, sortkey.Options{TTLInterval: -1}, agent.Options{})
	for tool, args := range map[string]string{"faults_set": throttlePuts, "faults_list": `{}`, "faults_clear": `{}`} {
		if _, e := callTool(t, cs, tool, args); !strings.Contains(e, "sortkey.Options.Admin") {
			t.Errorf("%s without the admin API answered %q", tool, e)
		}
	}
}

func TestDroppedConnectionIsAToolError(t *testing.T) {
	cs := connectDB(t, virtualAdmin(), agent.Options{})
	mustCall(t, cs, "create_table", createOrders)
	mustCall(t, cs, "faults_set", `{"rules":[{"operation":"PutItem","drop":true,"count":1}]}`)
	if _, e := callTool(t, cs, "put_item", putOrder); !strings.Contains(e, "connection closed") {
		t.Fatalf("a dropped put answered %q", e)
	}
	mustCall(t, cs, "put_item", putOrder) // the server lives on, and the rule is spent
}
