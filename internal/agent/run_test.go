package agent_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sortkeydb/sortkey/internal/agent"
)

// ordersDesign is a small design: users' orders by date, an order by id
// through an index, and a filtered list that reads more than it returns.
const ordersDesign = `version: 1
name: Orders
tables:
  - name: Orders
    partitionKey: {name: pk, type: S}
    sortKey: {name: sk, type: S}
    globalSecondaryIndexes:
      - name: ById
        partitionKey: {name: id, type: S}
        projection: {type: ALL}
entities:
  - name: User
    table: Orders
    attributes:
      - {name: pk, type: S}
      - {name: sk, type: S}
    keys:
      Orders: {pk: "U#{userId}", sk: "PROFILE"}
  - name: Order
    table: Orders
    attributes:
      - {name: pk, type: S}
      - {name: sk, type: S}
      - {name: id, type: S}
      - {name: status, type: S}
    keys:
      Orders: {pk: "U#{userId}", sk: "O#{date}"}
      ById: {id: "{orderId}"}
patterns:
  - number: "1"
    name: A user
    returns: [User]
    operation: GetItem
    table: Orders
    key: {pk: "U#{userId}", sk: "PROFILE"}
  - number: "2"
    name: A user's orders since a date
    returns: [Order]
    operation: Query
    table: Orders
    key: {pk: "U#{userId}", sk: {op: between, value: "O#{from}", value2: "O#{to}"}}
    direction: backward
  - number: "3"
    name: An order by id
    returns: [Order]
    operation: Query
    table: Orders
    index: ById
    key: {id: "{orderId}"}
  - number: "4"
    name: A user's open orders
    returns: [Order]
    operation: Query
    table: Orders
    key: {pk: "U#{userId}", sk: {op: begins_with, value: "O#"}}
    filter: "#status = :open"
  - number: "5"
    name: Every order
    returns: [Order]
    operation: Scan
    table: Orders
`

func loadOrders(t testing.TB) *testSession {
	t.Helper()
	s := &testSession{t: t, cs: connect(t, agent.Options{})}
	s.ok("design_apply", map[string]any{"design": ordersDesign})
	puts := []string{
		`{"pk":{"S":"U#ann"},"sk":{"S":"PROFILE"}}`,
		`{"pk":{"S":"U#ann"},"sk":{"S":"O#2026-01-01"},"id":{"S":"o1"},"status":{"S":"open"}}`,
		`{"pk":{"S":"U#ann"},"sk":{"S":"O#2026-02-01"},"id":{"S":"o2"},"status":{"S":"shipped"}}`,
		`{"pk":{"S":"U#ann"},"sk":{"S":"O#2026-03-01"},"id":{"S":"o3"},"status":{"S":"shipped"}}`,
	}
	for _, item := range puts {
		var it map[string]any
		_ = json.Unmarshal([]byte(item), &it)
		s.ok("put_item", map[string]any{"TableName": "Orders", "Item": it})
	}
	return s
}

func TestDesignRunMeasuresEveryPattern(t *testing.T) {
	s := loadOrders(t)
	var rep agent.RunReport
	s.decode(s.ok("design_run", map[string]any{"design": ordersDesign, "params": map[string]any{
		"4": map[string]any{"values": map[string]any{":open": map[string]any{"S": "open"}}},
	}}), &rep)
	want := map[string]struct {
		items, scanned int64
		rcu            float64
		served         string
	}{
		"1": {1, 0, 0.5, "key"},
		// The bound comes from the item found: from and to are both
		// its date.
		"2": {1, 1, 0.5, "key condition"},
		"3": {1, 1, 0.5, "key condition"},
		"4": {1, 3, 0.5, "key condition"},
		// A Scan reads the user as well, and costs at least 2 units
		// (facts, 30.2).
		"5": {4, 4, 2, "scan"},
	}
	if len(rep.Patterns) != len(want) || rep.Failed != 0 || rep.Scans != 1 {
		t.Fatalf("ran %d patterns, %d failed, %d scans: %+v", len(rep.Patterns), rep.Failed, rep.Scans, rep.Patterns)
	}
	for _, p := range rep.Patterns {
		w := want[p.Number]
		if p.Items != w.items || p.Scanned != w.scanned || p.Served != w.served || p.CountedAs != p.Number || p.RCU != w.rcu {
			t.Errorf("pattern %s: %d items, %d scanned, %v RCU, served by %s, counted as %q; want %d, %d, %v, %s",
				p.Number, p.Items, p.Scanned, p.RCU, p.Served, p.CountedAs, w.items, w.scanned, w.rcu, w.served)
		}
	}
	if p := rep.Patterns[3]; !p.FilterDiscardsMost {
		t.Errorf("pattern 4 read 3 orders for 1 and was not flagged: %+v", p)
	}
	if p := rep.Patterns[1]; p.Request["ScanIndexForward"] != false || !strings.HasPrefix(p.BindingsFrom, "item Order") {
		t.Errorf("pattern 2 sent %v with bindings from %q", p.Request, p.BindingsFrom)
	}
}

func TestDesignRunTakesTheApplicationsArguments(t *testing.T) {
	s := loadOrders(t)
	var rep agent.RunReport
	s.decode(s.ok("design_run", map[string]any{"design": ordersDesign, "patterns": []string{"2"}, "params": map[string]any{
		"2": map[string]any{"bindings": map[string]any{"userId": "ann", "from": "2026-01-15", "to": "2026-12-31"}, "limit": 1, "consistent": true},
	}}), &rep)
	p := rep.Patterns[0]
	if len(rep.Patterns) != 1 || p.Items != 1 || !p.More || p.RCU != 1 || p.BindingsFrom != "params" {
		t.Fatalf("a consistent Query of two orders, one a page, answered %+v", rep.Patterns)
	}
}

func TestDesignRunSaysWhatItLacks(t *testing.T) {
	s := loadOrders(t)
	var rep agent.RunReport
	s.decode(s.ok("design_run", map[string]any{"design": ordersDesign, "patterns": []string{"4"}}), &rep)
	if rep.Failed != 1 || !strings.Contains(rep.Patterns[0].Error, `the filter uses :open: give its value in params["4"].values`) {
		t.Errorf("a filter without its value ran: %+v", rep.Patterns)
	}
	for _, c := range []struct{ args, want string }{
		{`{"patterns": ["9"]}`, `the design has no access pattern "9"`},
		{`{"params": {"9": {}}}`, `params names "9", which is not an access pattern of the design`},
	} {
		var args map[string]any
		_ = json.Unmarshal([]byte(c.args), &args)
		args["design"] = ordersDesign
		if msg := s.fails("design_run", args); !strings.Contains(msg, c.want) {
			t.Errorf("%s: %q, want %q", c.args, msg, c.want)
		}
	}
	empty := &testSession{t: t, cs: connect(t, agent.Options{})}
	empty.ok("design_apply", map[string]any{"design": ordersDesign})
	empty.decode(empty.ok("design_run", map[string]any{"design": ordersDesign, "patterns": []string{"1"}}), &rep)
	if !strings.Contains(rep.Patterns[0].Error, "no item in table Orders is one of User with every variable of the key (userId)") {
		t.Errorf("an empty table gave %+v", rep.Patterns)
	}
}

// testSession calls tools with arguments built in Go.
type testSession struct {
	t  testing.TB
	cs *mcp.ClientSession
}

func (s *testSession) call(tool string, args map[string]any) (map[string]any, string) {
	s.t.Helper()
	b, err := json.Marshal(args)
	if err != nil {
		s.t.Fatal(err)
	}
	return callTool(s.t, s.cs, tool, string(b))
}

// ok calls a tool that must succeed.
func (s *testSession) ok(tool string, args map[string]any) map[string]any {
	s.t.Helper()
	out, msg := s.call(tool, args)
	if msg != "" {
		s.t.Fatalf("%s: %s", tool, msg)
	}
	return out
}

// fails calls a tool that must fail, and returns its error text.
func (s *testSession) fails(tool string, args map[string]any) string {
	s.t.Helper()
	out, msg := s.call(tool, args)
	if msg == "" {
		s.t.Fatalf("%s succeeded: %v", tool, out)
	}
	return msg
}

func (s *testSession) decode(m map[string]any, out any) {
	s.t.Helper()
	b, _ := json.Marshal(m)
	if err := json.Unmarshal(b, out); err != nil {
		s.t.Fatal(err)
	}
}

// BenchmarkDesignValidation is an agent's whole check of a small design
// on a fresh database: start, check, create the tables, write four
// items, run the five access patterns.
func BenchmarkDesignValidation(b *testing.B) {
	for b.Loop() {
		s := loadOrders(b)
		s.ok("design_check", map[string]any{"design": ordersDesign})
		var rep agent.RunReport
		s.decode(s.ok("design_run", map[string]any{"design": ordersDesign, "params": map[string]any{
			"4": map[string]any{"values": map[string]any{":open": map[string]any{"S": "open"}}},
		}}), &rep)
		if rep.Failed != 0 {
			b.Fatalf("%+v", rep.Patterns)
		}
	}
}

func TestDesignRunTakesAPatternByItsName(t *testing.T) {
	s := loadOrders(t)
	var rep agent.RunReport
	s.decode(s.ok("design_run", map[string]any{"design": ordersDesign, "patterns": []string{"An order by id", "1"}}), &rep)
	if len(rep.Patterns) != 2 || rep.Patterns[0].Number != "3" || rep.Patterns[1].Number != "1" || rep.Failed != 0 {
		t.Errorf("patterns by name and number ran %+v", rep.Patterns)
	}
}

func TestItemCollectionNamesEachItemsEntity(t *testing.T) {
	s := loadOrders(t)
	s.ok("put_item", map[string]any{"TableName": "Orders", "Item": map[string]any{"pk": map[string]any{"S": "U#ann"}, "sk": map[string]any{"S": "NOTE"}}})
	var c agent.Collection
	s.decode(s.ok("item_collection", map[string]any{"table": "Orders", "partition": map[string]any{"pk": map[string]any{"S": "U#ann"}}, "design": ordersDesign}), &c)
	want := []string{"", "Order", "Order", "Order", "User"} // NOTE, O#…, PROFILE in sort key order
	if len(c.Items) != 5 || strings.Join(c.Entities, ",") != strings.Join(want, ",") || c.Counts["Order"] != 3 || c.Counts["User"] != 1 || c.Unnamed != 1 || c.RCU != 0.5 {
		t.Errorf("the collection of U#ann: %d items, entities %q, counts %v, %d unnamed, %v RCU", len(c.Items), c.Entities, c.Counts, c.Unnamed, c.RCU)
	}
	capped := &testSession{t: t, cs: connect(t, agent.Options{MaxItems: 2})}
	capped.ok("create_table", map[string]any{"TableName": "Tbl", "BillingMode": "PAY_PER_REQUEST",
		"AttributeDefinitions": []any{map[string]any{"AttributeName": "pk", "AttributeType": "S"}, map[string]any{"AttributeName": "sk", "AttributeType": "S"}},
		"KeySchema":            []any{map[string]any{"AttributeName": "pk", "KeyType": "HASH"}, map[string]any{"AttributeName": "sk", "KeyType": "RANGE"}}})
	for _, sk := range []string{"a", "b", "c"} {
		capped.ok("put_item", map[string]any{"TableName": "Tbl", "Item": map[string]any{"pk": map[string]any{"S": "p"}, "sk": map[string]any{"S": sk}}})
	}
	capped.decode(capped.ok("item_collection", map[string]any{"table": "Tbl", "partition": map[string]any{"pk": map[string]any{"S": "p"}}}), &c)
	if len(c.Items) != 2 || !c.Truncated {
		t.Errorf("3 items under a cap of 2: %d, truncated %v", len(c.Items), c.Truncated)
	}
	if msg := capped.fails("item_collection", map[string]any{"table": "Tbl", "partition": map[string]any{}}); !strings.Contains(msg, "partition names the partition key attribute") {
		t.Errorf("an empty partition: %q", msg)
	}
}
