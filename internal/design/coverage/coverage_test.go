package coverage

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/design"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// market is the Market design with two more write patterns, for the
// batch and transaction forms.
func market(t testing.TB) *design.Design {
	t.Helper()
	d, err := design.Load("../testdata/market.yaml")
	if err != nil {
		t.Fatal(err)
	}
	d.Writes = append(d.Writes,
		design.WritePattern{Number: "W2", Name: "Place an order", Operation: "TransactWriteItems", Entities: []string{"Order", "OrderItem"}},
		design.WritePattern{Number: "W3", Name: "Import orders", Operation: "BatchWriteItem", Entities: []string{"Order"}})
	return d
}

// observe decodes body as the server would and shows it to r with out.
func observe(t testing.TB, r *Recorder, op, body string, out any) {
	t.Helper()
	in := map[string]any{
		"GetItem": &protocol.GetItemInput{}, "Query": &protocol.QueryInput{}, "Scan": &protocol.ScanInput{},
		"BatchGetItem": &protocol.BatchGetItemInput{}, "TransactGetItems": &protocol.TransactGetItemsInput{},
		"PutItem": &protocol.PutItemInput{}, "UpdateItem": &protocol.UpdateItemInput{}, "DeleteItem": &protocol.DeleteItemInput{},
		"BatchWriteItem": &protocol.BatchWriteItemInput{}, "TransactWriteItems": &protocol.TransactWriteItemsInput{},
		"ExecuteStatement": &protocol.ExecuteStatementInput{}, "CreateTable": &protocol.CreateTableInput{},
		"SearchVectors": &protocol.SearchVectorsInput{},
	}[op]
	if err := protocol.Decode([]byte(body), in); err != nil {
		t.Fatalf("%s %s: %v", op, body, err)
	}
	r.Observe(op, in, out, nil, time.Millisecond)
}

func pattern(t *testing.T, rep *Report, number string) PatternReport {
	t.Helper()
	for _, p := range rep.Patterns {
		if p.Number == number {
			return p
		}
	}
	t.Fatalf("no pattern %s in %+v", number, rep.Patterns)
	return PatternReport{}
}

func f(v float64) *float64 { return &v }

func TestBatchAndTransactionReadsCountUnderTheirKeysPatterns(t *testing.T) {
	r := New(market(t))
	observe(t, r, "BatchGetItem", `{"RequestItems":{"arn:aws:dynamodb:us-east-1:000000000000:table/Market":{"Keys":[
		{"pk":{"S":"U#1"},"sk":{"S":"U#1"}},{"pk":{"S":"U#2"},"sk":{"S":"U#2"}}]}}}`,
		&protocol.BatchGetItemOutput{Responses: map[string][]protocol.Item{"Market": {{}, {}}},
			ConsumedCapacity: []protocol.ConsumedCapacity{{CapacityUnits: f(1)}}})
	observe(t, r, "TransactGetItems", `{"TransactItems":[{"Get":{"TableName":"Market","Key":{"pk":{"S":"U#1"},"sk":{"S":"U#1"}}}}]}`,
		&protocol.TransactGetItemsOutput{Responses: []protocol.ItemResponse{{Item: protocol.Item{}}}, ConsumedCapacity: []protocol.ConsumedCapacity{{CapacityUnits: f(2)}}})
	rep := r.Report()
	if p := pattern(t, rep, "1"); p.Calls != 2 || p.Items != 3 || p.RCU != 3 {
		t.Errorf("pattern 1: %+v", p)
	}
	if len(rep.Undeclared) != 0 {
		t.Errorf("undeclared %+v", rep.Undeclared)
	}
}

func TestLegacyKeyConditionsMatchLikeExpressions(t *testing.T) {
	r := New(market(t))
	observe(t, r, "Query", `{"TableName":"Market","KeyConditions":{
		"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"U#1#O"}]},
		"sk":{"ComparisonOperator":"BEGINS_WITH","AttributeValueList":[{"S":"O#9"}]}}}`,
		&protocol.ReadOutput{Count: 2, ScannedCount: 2})
	if p := pattern(t, r.Report(), "4b"); p.Calls != 1 || p.Items != 2 {
		t.Errorf("4b: %+v", p)
	}
}

// The order's items (4b) and the user's orders (2) share a partition
// key template; the sort key condition tells them apart, and a sort key
// operator the design does not declare fits neither.
func TestKeyShapeDecides(t *testing.T) {
	r := New(market(t))
	observe(t, r, "Query", `{"TableName":"Market","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"U#1#O"}}}`, nil)
	observe(t, r, "Query", `{"TableName":"Market","KeyConditionExpression":"pk = :p AND sk > :s","ExpressionAttributeValues":{":p":{"S":"U#1#O"},":s":{"S":"O#1"}}}`, nil)
	observe(t, r, "Query", `{"TableName":"Market","IndexName":"ReverseIndex","KeyConditionExpression":"sk = :s","ExpressionAttributeValues":{":s":{"S":"O#1"}}}`, nil)
	rep := r.Report()
	if pattern(t, rep, "2").Calls != 1 || pattern(t, rep, "4b").Calls != 0 {
		t.Errorf("patterns %+v", rep.Patterns)
	}
	want := []string{`Query Market: pk = "U#…", sk > "O#…"`, `Query Market (index ReverseIndex): sk = "O#…"`}
	if len(rep.Undeclared) != 2 || rep.Undeclared[0].Request != want[0] || rep.Undeclared[1].Request != want[1] {
		t.Errorf("undeclared %+v, want %q", rep.Undeclared, want)
	}
}

// One expression sent with two #names maps is two key conditions: the
// shape parsed for the first is not reused for the second.
func TestSameExpressionOtherNames(t *testing.T) {
	r := New(market(t))
	for _, names := range []string{`{"#k":"pk"}`, `{"#k":"id"}`} {
		observe(t, r, "Query", `{"TableName":"Market","KeyConditionExpression":"#k = :p","ExpressionAttributeNames":`+names+
			`,"ExpressionAttributeValues":{":p":{"S":"U#1#O"}}}`, nil)
	}
	rep := r.Report()
	if pattern(t, rep, "2").Calls != 1 || len(rep.Undeclared) != 1 || rep.Undeclared[0].Request != `Query Market: id = "U#…"` {
		t.Errorf("pattern 2 %+v, undeclared %+v", pattern(t, rep, "2"), rep.Undeclared)
	}
}

// A call DynamoDB refused for its values (here: :p is not defined) does
// not decide how later calls with the same expression are counted.
func TestRefusedCallDoesNotDecideItsExpression(t *testing.T) {
	r := New(market(t))
	observe(t, r, "Query", `{"TableName":"Market","KeyConditionExpression":"pk = :p"}`, nil)
	observe(t, r, "Query", `{"TableName":"Market","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"U#1#O"}}}`, nil)
	if p := pattern(t, r.Report(), "2"); p.Calls != 1 {
		t.Errorf("pattern 2 %+v, want the second call", p)
	}
}

func TestWritesCountUnderWritePatternsOrEntities(t *testing.T) {
	r := New(market(t))
	observe(t, r, "PutItem", `{"TableName":"Market","Item":{"pk":{"S":"U#1"},"sk":{"S":"U#1"},"tp":{"S":"U"}},"ConditionExpression":"attribute_not_exists(pk)"}`,
		&protocol.PutItemOutput{ConsumedCapacity: &protocol.ConsumedCapacity{CapacityUnits: f(2)}})
	observe(t, r, "TransactWriteItems", `{"TransactItems":[{"Put":{"TableName":"Market","Item":{"pk":{"S":"U#1#O"},"sk":{"S":"O#1"}}}},
		{"Put":{"TableName":"Market","Item":{"pk":{"S":"U#1#O"},"sk":{"S":"O#1#1"}}}},
		{"ConditionCheck":{"TableName":"Market","Key":{"pk":{"S":"U#1#O"},"sk":{"S":"O#1"}},"ConditionExpression":"attribute_not_exists(pk)"}}]}`,
		&protocol.TransactWriteItemsOutput{})
	observe(t, r, "BatchWriteItem", `{"RequestItems":{"Market":[{"PutRequest":{"Item":{"pk":{"S":"U#2#O"},"sk":{"S":"O#2"}}}}]}}`, nil)
	observe(t, r, "DeleteItem", `{"TableName":"Market","Key":{"pk":{"S":"U#1#O"},"sk":{"S":"O#1#1"}}}`, nil)
	observe(t, r, "UpdateItem", `{"TableName":"Market","Key":{"pk":{"S":"Z"},"sk":{"S":"Z"}},"UpdateExpression":"SET a = :a","ExpressionAttributeValues":{":a":{"S":"x"}}}`, nil)
	observe(t, r, "CreateTable", `{"TableName":"Other"}`, nil)
	rep := r.Report()
	for number, written := range map[string]int64{"W1": 1, "W2": 2, "W3": 1} {
		if p := pattern(t, rep, number); p.Calls != 1 || p.Written != written {
			t.Errorf("%s: %+v", number, p)
		}
	}
	if p := pattern(t, rep, "W1"); p.WCU != 2 || p.Kind != "write" {
		t.Errorf("W1: %+v", p)
	}
	// The order line's key O#1#1 fits Order's O#{orderId} too; OrderItem's
	// O#{orderId}#{line} holds more constant text and wins.
	if len(rep.EntityWrites) != 1 || rep.EntityWrites[0].Name != "OrderItem" || rep.EntityWrites[0].Written != 1 {
		t.Errorf("entity writes %+v", rep.EntityWrites)
	}
	if len(rep.Undeclared) != 1 || rep.Undeclared[0].Request != `UpdateItem Market: pk = "Z", sk = "Z"` {
		t.Errorf("undeclared %+v", rep.Undeclared)
	}
}

func TestScansAreUndeclared(t *testing.T) {
	r := New(market(t))
	observe(t, r, "Scan", `{"TableName":"Market","IndexName":"IdLookupIndex"}`, &protocol.ReadOutput{})
	observe(t, r, "ExecuteStatement", `{"Statement":"SELECT * FROM Market"}`, nil)
	rep := r.Report()
	if len(rep.Undeclared) != 2 || !rep.Undeclared[0].Scan || rep.Undeclared[0].Request != "Scan Market (index IdLookupIndex)" ||
		rep.Undeclared[1].Request != "ExecuteStatement: Scan Market" || !rep.Undeclared[1].Scan {
		t.Errorf("undeclared %+v", rep.Undeclared)
	}
	err := rep.Check()
	if err == nil || !strings.Contains(err.Error(), "2 requests fit no pattern") || !strings.Contains(err.Error(), "never exercised: 1 Get user profile; 2 ") {
		t.Errorf("Check = %v", err)
	}
}

func TestErrorsAreCounted(t *testing.T) {
	r := New(market(t))
	in := &protocol.GetItemInput{}
	if err := protocol.Decode([]byte(`{"TableName":"Market","Key":{"pk":{"S":"U#1"},"sk":{"S":"U#1"}}}`), in); err != nil {
		t.Fatal(err)
	}
	r.Observe("GetItem", in, nil, errors.New("ResourceNotFoundException"), time.Millisecond)
	if p := pattern(t, r.Report(), "1"); p.Calls != 1 || p.Errors != 1 || p.Items != 0 {
		t.Errorf("pattern 1: %+v", p)
	}
}

func TestUndeclaredKindsAreBounded(t *testing.T) {
	r := New(market(t))
	for i := range maxUndeclared + 5 {
		in := &protocol.ScanInput{}
		name := "T" + strings.Repeat("x", i)
		in.TableName = &name
		r.Observe("Scan", in, nil, nil, 0)
	}
	rep := r.Report()
	if len(rep.Undeclared) != maxUndeclared || rep.UndeclaredDropped != 5 || !strings.Contains(rep.Markdown(), "| (more kinds, not described) | 5 |") {
		t.Errorf("%d kinds, %d dropped", len(rep.Undeclared), rep.UndeclaredDropped)
	}
}

// Calls from many goroutines add up exactly (run with -race).
func TestConcurrentCallsAddUp(t *testing.T) {
	r := New(market(t))
	in := &protocol.GetItemInput{}
	if err := protocol.Decode([]byte(`{"TableName":"Market","Key":{"pk":{"S":"U#1"},"sk":{"S":"U#1"}}}`), in); err != nil {
		t.Fatal(err)
	}
	out := &protocol.GetItemOutput{Item: protocol.Item{}, ConsumedCapacity: &protocol.ConsumedCapacity{CapacityUnits: f(0.5)}}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				r.Observe("GetItem", in, out, nil, time.Millisecond)
				_ = r.Report()
			}
		})
	}
	wg.Wait()
	if p := pattern(t, r.Report(), "1"); p.Calls != 800 || p.Items != 800 || p.RCU != 400 {
		t.Errorf("pattern 1: %+v", p)
	}
}

// FuzzObserveQuery: whatever the key condition and values, classifying
// neither panics nor counts the call anywhere but once.
func FuzzObserveQuery(f *testing.F) {
	f.Add("pk = :p AND begins_with(sk, :s)", "U#1#O", "O#1")
	f.Add("#k = :p", "U#{x}", "")
	f.Add("pk BETWEEN :p AND :s", "", "\xff")
	d := market(f)
	f.Fuzz(func(t *testing.T, cond, v1, v2 string) {
		r := New(d)
		in := &protocol.QueryInput{KeyConditionExpression: &cond}
		table := "Market"
		in.TableName = &table
		in.ExpressionAttributeNames = map[string]string{"#k": "pk"}
		in.ExpressionAttributeValues = protocol.Item{":p": {S: &v1}, ":s": {S: &v2}}
		r.Observe("Query", in, nil, nil, time.Microsecond)
		rep := r.Report()
		var n int64
		for _, p := range rep.Patterns {
			n += p.Calls
		}
		for _, u := range rep.Undeclared {
			n += u.Calls
		}
		if n != 1 {
			t.Fatalf("%q counted %d times", cond, n)
		}
	})
}

func BenchmarkObserveGetItem(b *testing.B) {
	r := New(market(b))
	in := &protocol.GetItemInput{}
	if err := protocol.Decode([]byte(`{"TableName":"Market","Key":{"pk":{"S":"U#1"},"sk":{"S":"U#1"}}}`), in); err != nil {
		b.Fatal(err)
	}
	out := &protocol.GetItemOutput{Item: protocol.Item{}, ConsumedCapacity: &protocol.ConsumedCapacity{CapacityUnits: f(0.5)}}
	b.ReportAllocs()
	for b.Loop() {
		r.Observe("GetItem", in, out, nil, time.Millisecond)
	}
}

func BenchmarkObserveQuery(b *testing.B) {
	r := New(market(b))
	in := &protocol.QueryInput{}
	if err := protocol.Decode([]byte(`{"TableName":"Market","KeyConditionExpression":"pk = :p AND begins_with(sk, :s)",
		"ExpressionAttributeValues":{":p":{"S":"U#1#O"},":s":{"S":"O#1"}}}`), in); err != nil {
		b.Fatal(err)
	}
	out := &protocol.ReadOutput{Count: 3, ScannedCount: 3}
	b.ReportAllocs()
	for b.Loop() {
		r.Observe("Query", in, out, nil, time.Millisecond)
	}
}

// testdata/bench.yaml is the design of `sortkey bench`'s table: its
// GetItem and Query fit it.
func TestBenchDesignFitsTheBenchRequests(t *testing.T) {
	d, err := design.Load("testdata/bench.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r := New(d)
	observe(t, r, "GetItem", `{"TableName":"sortkey_bench","Key":{"pk":{"S":"p3"},"sk":{"S":"ITEM#03#00000010"}}}`, nil)
	observe(t, r, "Query", `{"TableName":"sortkey_bench","Limit":10,"KeyConditionExpression":"pk = :p AND begins_with(sk, :b)",
		"ExpressionAttributeValues":{":p":{"S":"p3"},":b":{"S":"ITEM#03#"}}}`, nil)
	observe(t, r, "PutItem", `{"TableName":"sortkey_bench","Item":{"pk":{"S":"p3"},"sk":{"S":"ITEM#03#00000010"},"n":{"N":"0"}}}`, nil)
	if err := r.Report().Check(); err != nil {
		t.Error(err)
	}
}

// BenchmarkObserveExecuteStatement is a SELECT by whole key with
// parameters, which the planner parses from its cached tokens each call.
func BenchmarkObserveExecuteStatement(b *testing.B) {
	benchStatement(b, `{"Statement":"SELECT * FROM \"Market\" WHERE pk = ? AND sk = ?","Parameters":[{"S":"U#1"},{"S":"U#1"}]}`)
}

// BenchmarkObserveExecuteStatementLiteral is the same SELECT with its
// values written in, whose plan is cached whole.
func BenchmarkObserveExecuteStatementLiteral(b *testing.B) {
	benchStatement(b, `{"Statement":"SELECT * FROM \"Market\" WHERE pk = 'U#1' AND sk = 'U#1'"}`)
}

func benchStatement(b *testing.B, body string) {
	r := New(market(b))
	in := &protocol.ExecuteStatementInput{}
	if err := protocol.Decode([]byte(body), in); err != nil {
		b.Fatal(err)
	}
	out := &protocol.ExecuteStatementOutput{Count: 1, ConsumedCapacity: &protocol.ConsumedCapacity{CapacityUnits: f(0.5)}}
	b.ReportAllocs()
	for b.Loop() {
		r.Observe("ExecuteStatement", in, out, nil, time.Millisecond)
	}
	if rep := r.Report(); rep.Patterns[0].Calls == 0 || len(rep.Undeclared) != 0 {
		b.Fatalf("pattern 1 not counted: %+v", rep)
	}
}

// FuzzObserveStatement: whatever the statement and its parameter,
// classifying neither panics nor counts the call anywhere but once.
func FuzzObserveStatement(f *testing.F) {
	f.Add(`SELECT * FROM "Market" WHERE pk = ? AND sk = 'U#1'`, "U#1")
	f.Add(`SELECT * FROM "Market"."IdLookupIndex" WHERE id = ? AND tp = 'O'`, "n1")
	f.Add(`INSERT INTO "Market" VALUE {'pk': ?, 'sk': 'U#1'}`, "U#1")
	f.Add(`DELETE FROM "Market" WHERE pk = ? AND sk = 'x'`, "")
	f.Add(`EXISTS(SELECT * FROM "Market" WHERE pk = ? AND sk = 'x')`, "x")
	d := market(f)
	f.Fuzz(func(t *testing.T, stmt, param string) {
		r := New(d)
		in := &protocol.ExecuteStatementInput{Statement: &stmt, Parameters: []attr.Value{{S: &param}}}
		r.Observe("ExecuteStatement", in, nil, nil, time.Microsecond)
		rep := r.Report()
		var n int64
		for _, p := range rep.Patterns {
			n += p.Calls
		}
		for _, p := range rep.EntityWrites {
			n += p.Calls
		}
		for _, u := range rep.Undeclared {
			n += u.Calls
		}
		if n != 1 {
			t.Fatalf("%q counted %d times", stmt, n)
		}
	})
}
