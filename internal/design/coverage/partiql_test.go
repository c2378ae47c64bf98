package coverage_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/internal/design/coverage"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// PartiQL statements sent through the AWS SDK over HTTP to a server with
// the Market design: each counts under the pattern of the native request
// it plans to, as GET /sortkey/design/report says.

// placeOrder is a write pattern for the transaction tests: an order and
// its line, written together.
const placeOrder = `
  - number: W2
    name: Place an order
    operation: TransactWriteItems
    entities: [Order, OrderItem]
`

var bg = context.Background()

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

func params(vs ...string) []types.AttributeValue {
	if len(vs) == 0 {
		return nil
	}
	out := make([]types.AttributeValue, len(vs))
	for i, v := range vs {
		out[i] = s(v)
	}
	return out
}

// marketServer serves the Market design's table, over its TCP listener,
// with a user, one order and the order's two lines.
func marketServer(t *testing.T) (*sortkeytest.Server, *dynamodb.Client) {
	t.Helper()
	doc, err := os.ReadFile("../testdata/market.yaml")
	if err != nil {
		t.Fatal(err)
	}
	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{Design: append(doc, placeOrder...)})
	c := dynamodb.NewFromConfig(srv.NetworkAWSConfig())
	keys := func(h, r string) []types.KeySchemaElement {
		return []types.KeySchemaElement{{AttributeName: aws.String(h), KeyType: types.KeyTypeHash}, {AttributeName: aws.String(r), KeyType: types.KeyTypeRange}}
	}
	var defs []types.AttributeDefinition
	for _, a := range []string{"pk", "sk", "id", "tp"} {
		defs = append(defs, types.AttributeDefinition{AttributeName: aws.String(a), AttributeType: types.ScalarAttributeTypeS})
	}
	_, err = c.CreateTable(bg, &dynamodb.CreateTableInput{TableName: aws.String("Market"), BillingMode: types.BillingModePayPerRequest,
		KeySchema: keys("pk", "sk"), AttributeDefinitions: defs,
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			{IndexName: aws.String("ReverseIndex"), KeySchema: keys("sk", "pk"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}},
			{IndexName: aws.String("IdLookupIndex"), KeySchema: keys("id", "tp"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}},
		}})
	if err != nil {
		t.Fatal(err)
	}
	for _, item := range []map[string]types.AttributeValue{
		{"pk": s("U#u1#O"), "sk": s("O#o1"), "tp": s("O"), "id": s("n1"), "status": s("paid")},
		{"pk": s("U#u1#O"), "sk": s("O#o1#1"), "product": s("pen")},
		{"pk": s("U#u1#O"), "sk": s("O#o1#2"), "product": s("ink")},
	} {
		if _, err := c.PutItem(bg, &dynamodb.PutItemInput{TableName: aws.String("Market"), Item: item}); err != nil {
			t.Fatal(err)
		}
	}
	insert(t, c, `INSERT INTO "Market" VALUE {'pk': ?, 'sk': ?, 'tp': 'U', 'name': 'Ada'}`, "U#u1", "U#u1")
	return srv, c
}

func insert(t *testing.T, c *dynamodb.Client, stmt string, ps ...string) {
	t.Helper()
	if _, err := c.ExecuteStatement(bg, &dynamodb.ExecuteStatementInput{Statement: aws.String(stmt), Parameters: params(ps...)}); err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
}

// selectAll runs stmt, every page, and returns the items.
func selectAll(t *testing.T, c *dynamodb.Client, limit int32, stmt string, ps ...string) []map[string]types.AttributeValue {
	t.Helper()
	var items []map[string]types.AttributeValue
	in := &dynamodb.ExecuteStatementInput{Statement: aws.String(stmt), Parameters: params(ps...)}
	if limit > 0 {
		in.Limit = aws.Int32(limit)
	}
	for {
		out, err := c.ExecuteStatement(bg, in)
		if err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
		if out.ConsumedCapacity != nil {
			t.Errorf("%s answered ConsumedCapacity, which the client did not ask for", stmt)
		}
		items = append(items, out.Items...)
		if out.NextToken == nil {
			return items
		}
		in.NextToken = out.NextToken
	}
}

func report(t *testing.T, srv *sortkeytest.Server) *coverage.Report {
	t.Helper()
	resp, err := http.Get(srv.URL + "/sortkey/design/report")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var rep coverage.Report
	if err := json.NewDecoder(resp.Body).Decode(&rep); err != nil {
		t.Fatal(err)
	}
	return &rep
}

func patternOf(t *testing.T, rep *coverage.Report, number string) coverage.PatternReport {
	t.Helper()
	for _, p := range rep.Patterns {
		if p.Number == number {
			return p
		}
	}
	t.Fatalf("no pattern %s", number)
	return coverage.PatternReport{}
}

// undeclared is the report's undeclared requests, by description.
func undeclared(rep *coverage.Report) map[string]coverage.Undeclared {
	m := map[string]coverage.Undeclared{}
	for _, u := range rep.Undeclared {
		m[u.Request] = u
	}
	return m
}

func TestPartiQLSelectsCountAsTheRequestTheyPlanTo(t *testing.T) {
	srv, c := marketServer(t)
	if got := selectAll(t, c, 0, `SELECT * FROM "Market" WHERE pk = ? AND sk = ?`, "U#u1", "U#u1"); len(got) != 1 {
		t.Fatalf("user: %v", got)
	}
	if got := selectAll(t, c, 0, `SELECT * FROM "Market" WHERE pk = ? AND tp = 'O' ORDER BY sk DESC`, "U#u1#O"); len(got) != 1 {
		t.Fatalf("orders: %v", got)
	}
	if got := selectAll(t, c, 0, `SELECT * FROM "Market"."IdLookupIndex" WHERE id = ? AND tp = ?`, "n1", "O"); len(got) != 1 {
		t.Fatalf("order by id: %v", got)
	}
	if got := selectAll(t, c, 2, `SELECT * FROM "Market" WHERE pk = ? AND begins_with(sk, ?)`, "U#u1#O", "O#o1"); len(got) != 3 {
		t.Fatalf("order and lines: %v", got)
	}
	if got := selectAll(t, c, 0, `SELECT * FROM "Market" WHERE status = 'paid'`); len(got) != 1 {
		t.Fatalf("paid: %v", got)
	}
	rep := report(t, srv)
	// An eventually consistent read of one small item is half a unit.
	if p := patternOf(t, rep, "1"); p.Calls != 1 || p.Items != 1 || p.RCU != 0.5 {
		t.Errorf("pattern 1 (GetItem): %+v", p)
	}
	if p := patternOf(t, rep, "2"); p.Calls != 1 || p.Items != 1 || p.Scanned != 3 || p.RCU == 0 {
		t.Errorf("pattern 2 (Query with a filter): %+v", p)
	}
	if p := patternOf(t, rep, "4"); p.Calls != 1 || p.Items != 1 {
		t.Errorf("pattern 4 (Query on IdLookupIndex): %+v", p)
	}
	if p := patternOf(t, rep, "4b"); p.Calls != 2 || p.Items != 3 || p.LaterPages != 1 {
		t.Errorf("pattern 4b (Query in pages of 2): %+v", p)
	}
	u := undeclared(rep)
	if scan := u["ExecuteStatement: Scan Market"]; scan.Calls != 1 || !scan.Scan || len(u) != 1 {
		t.Errorf("undeclared %+v", rep.Undeclared)
	}
}

func TestPartiQLWritesCountAsTheRequestTheyPlanTo(t *testing.T) {
	srv, c := marketServer(t)
	insert(t, c, `INSERT INTO "Market" VALUE {'pk': ?, 'sk': ?, 'tp': 'U'}`, "U#u2", "U#u2")
	_, err := c.ExecuteStatement(bg, &dynamodb.ExecuteStatementInput{Statement: aws.String(`INSERT INTO "Market" VALUE {'pk': ?, 'sk': ?, 'tp': 'U'}`), Parameters: params("U#u2", "U#u2")})
	var dup *types.DuplicateItemException
	if !errorsAs(err, &dup) {
		t.Fatalf("second INSERT: %v", err)
	}
	insert(t, c, `UPDATE "Market" SET status = 'shipped' WHERE pk = ? AND sk = ?`, "U#u1#O", "O#o1")
	insert(t, c, `DELETE FROM "Market" WHERE pk = ? AND sk = ?`, "U#u1#O", "O#o1#2")
	insert(t, c, `DELETE FROM "Market" WHERE pk = ? AND sk = ?`, "Z", "Z")
	rep := report(t, srv)
	// The setup's INSERT of u1 is W1's first call; each User written
	// goes to the table and to ReverseIndex, a unit each.
	if p := patternOf(t, rep, "W1"); p.Calls != 3 || p.Errors != 1 || p.Written != 3 || p.WCU != 4 {
		t.Errorf("W1 (PutItem of a User): %+v", p)
	}
	want := map[string]int64{"Order": 2, "OrderItem": 3} // the setup's PutItems, then the UPDATE and the DELETE
	for _, e := range rep.EntityWrites {
		if want[e.Name] != e.Calls {
			t.Errorf("entity %s: %+v, want %d calls", e.Name, e, want[e.Name])
		}
	}
	if len(rep.EntityWrites) != 2 {
		t.Errorf("entity writes %+v", rep.EntityWrites)
	}
	u := undeclared(rep)
	if d := u[`ExecuteStatement: DeleteItem Market: pk = "Z", sk = "Z"`]; d.Calls != 1 || len(u) != 1 {
		t.Errorf("undeclared %+v", rep.Undeclared)
	}
}

func TestExecuteTransactionCountsAsItsNativeTransaction(t *testing.T) {
	srv, c := marketServer(t)
	stmt := func(s string, ps ...string) types.ParameterizedStatement {
		return types.ParameterizedStatement{Statement: aws.String(s), Parameters: params(ps...)}
	}
	// The write asks for its capacity, to hold the report to it; the
	// read does not, and is answered none.
	out, err := c.ExecuteTransaction(bg, &dynamodb.ExecuteTransactionInput{ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
		TransactStatements: []types.ParameterizedStatement{
			stmt(`INSERT INTO "Market" VALUE {'pk': ?, 'sk': ?, 'tp': 'O', 'id': 'n2'}`, "U#u1#O", "O#o2"),
			stmt(`INSERT INTO "Market" VALUE {'pk': ?, 'sk': ?, 'product': 'pad'}`, "U#u1#O", "O#o2#1"),
		}})
	if err != nil || len(out.ConsumedCapacity) == 0 {
		t.Fatalf("write transaction: %+v %v", out, err)
	}
	wcu := 0.0
	for _, cc := range out.ConsumedCapacity {
		wcu += aws.ToFloat64(cc.CapacityUnits)
	}
	out, err = c.ExecuteTransaction(bg, &dynamodb.ExecuteTransactionInput{TransactStatements: []types.ParameterizedStatement{
		stmt(`SELECT * FROM "Market" WHERE pk = ? AND sk = ?`, "U#u1", "U#u1"),
		stmt(`SELECT * FROM "Market" WHERE pk = ? AND sk = ?`, "U#u9", "U#u9"),
	}})
	if err != nil || len(out.Responses) != 2 || out.ConsumedCapacity != nil {
		t.Fatalf("read transaction: %+v %v", out, err)
	}
	rep := report(t, srv)
	if p := patternOf(t, rep, "W2"); p.Calls != 1 || p.Written != 2 || p.WCU != wcu {
		t.Errorf("W2 (TransactWriteItems of an Order and an OrderItem): %+v, want %v WCU", p, wcu)
	}
	// A transactional read of a small item is two units, found or not.
	if p := patternOf(t, rep, "1"); p.Calls != 1 || p.Items != 1 || p.RCU != 4 {
		t.Errorf("pattern 1 (as TransactGetItems): %+v", p)
	}
	if len(rep.Undeclared) != 0 {
		t.Errorf("undeclared %+v", rep.Undeclared)
	}
}

func TestBatchExecuteStatementCountsEachStatement(t *testing.T) {
	srv, c := marketServer(t)
	stmt := func(s string, ps ...string) types.BatchStatementRequest {
		return types.BatchStatementRequest{Statement: aws.String(s), Parameters: params(ps...)}
	}
	ins := `INSERT INTO "Market" VALUE {'pk': ?, 'sk': ?, 'tp': 'U'}`
	out, err := c.BatchExecuteStatement(bg, &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
		stmt(ins, "U#u2", "U#u2"), stmt(ins, "U#u3", "U#u3"),
	}})
	if err != nil || out.ConsumedCapacity != nil {
		t.Fatalf("batch of writes: %+v %v", out, err)
	}
	get := `SELECT * FROM "Market" WHERE pk = ? AND sk = ?`
	out, err = c.BatchExecuteStatement(bg, &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
		stmt(get, "U#u2", "U#u2"), stmt(get, "U#u8", "U#u8"), stmt(get, "X#1", "X#1"),
		stmt(`SELECT * FROM "Market" WHERE pk = ?`, "U#u2"),
	}})
	if err != nil || len(out.Responses) != 4 || out.Responses[3].Error == nil {
		t.Fatalf("batch of reads: %+v %v", out, err)
	}
	rep := report(t, srv)
	if p := patternOf(t, rep, "W1"); p.Calls != 3 || p.Written != 3 {
		t.Errorf("W1: %+v", p)
	}
	if p := patternOf(t, rep, "1"); p.Calls != 2 || p.Items != 1 || p.RCU != 1.5 {
		t.Errorf("pattern 1: %+v", p)
	}
	u := undeclared(rep)
	if d := u[`BatchExecuteStatement: GetItem Market: pk = "X#…", sk = "X#…"`]; d.Calls != 1 || u["BatchExecuteStatement, not planned"].Calls != 1 || len(u) != 2 {
		t.Errorf("undeclared %+v", rep.Undeclared)
	}
}

func TestStatementsThatPlanToNothingAreUndeclared(t *testing.T) {
	srv, c := marketServer(t)
	for _, st := range []string{`SELECT * FROM "Other" WHERE pk = 'a'`, `SELEC * FROM "Market"`} {
		if _, err := c.ExecuteStatement(bg, &dynamodb.ExecuteStatementInput{Statement: aws.String(st)}); err == nil {
			t.Errorf("%s: no error", st)
		}
	}
	u := undeclared(report(t, srv))
	if u["ExecuteStatement, not planned"].Calls != 2 || len(u) != 1 {
		t.Errorf("undeclared %+v", u)
	}
}

func errorsAs(err error, target any) bool { return errors.As(err, target) }
