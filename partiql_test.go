package sortkey_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// exec runs one statement with its parameters.
func exec(c *dynamodb.Client, stmt string, params ...types.AttributeValue) (*dynamodb.ExecuteStatementOutput, error) {
	in := &dynamodb.ExecuteStatementInput{Statement: aws.String(stmt), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal}
	if len(params) > 0 {
		in.Parameters = params
	}
	return c.ExecuteStatement(ctx, in)
}

func mustExec(t *testing.T, c *dynamodb.Client, stmt string, params ...types.AttributeValue) *dynamodb.ExecuteStatementOutput {
	t.Helper()
	out, err := exec(c, stmt, params...)
	if err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
	return out
}

// partiqlMusic is a Music table with three songs of one artist and one
// of another.
func partiqlMusic(t *testing.T) *dynamodb.Client {
	c := sortkeytest.New(t).Client()
	createMusic(t, c, "Music")
	for _, st := range []string{
		`INSERT INTO "Music" VALUE {'Artist': 'A', 'SongTitle': 's1', 'Year': 1990, 'Tags': <<'x', 'y'>>}`,
		`INSERT INTO "Music" VALUE {'Artist': 'A', 'SongTitle': 's2', 'Year': 2000, 'Info': {'plays': [1, 2]}}`,
		`INSERT INTO "Music" VALUE {'Artist': 'A', 'SongTitle': 's3', 'Year': 2010, 'Gone': null}`,
		`INSERT INTO Music VALUE {'Artist': 'B', 'SongTitle': 't1', 'Year': 2000}`,
	} {
		mustExec(t, c, st)
	}
	return c
}

// titles lists the SongTitle of each item, in order.
func titles(items []map[string]types.AttributeValue) []string {
	out := []string{}
	for _, it := range items {
		out = append(out, it["SongTitle"].(*types.AttributeValueMemberS).Value)
	}
	return out
}

func TestPartiQLSelect(t *testing.T) {
	c := partiqlMusic(t)
	cases := []struct {
		stmt   string
		params []types.AttributeValue
		want   []string
	}{
		{`SELECT * FROM "Music" WHERE Artist = 'A' AND SongTitle = 's2'`, nil, []string{"s2"}},
		{`SELECT * FROM "Music" WHERE Artist = ? AND SongTitle = ?`, []types.AttributeValue{s("A"), s("s3")}, []string{"s3"}},
		{`SELECT * FROM "Music" WHERE Artist = 'A'`, nil, []string{"s1", "s2", "s3"}},
		{`SELECT * FROM "Music" WHERE Artist = 'A' ORDER BY SongTitle DESC`, nil, []string{"s3", "s2", "s1"}},
		{`SELECT * FROM "Music" WHERE Artist = 'A' AND SongTitle > 's1' AND "Year" <= 2000`, nil, []string{"s2"}},
		{`SELECT * FROM "Music" WHERE Artist = 'A' AND SongTitle BETWEEN 's2' AND 's9'`, nil, []string{"s2", "s3"}},
		{`SELECT * FROM "Music" WHERE begins_with(SongTitle, 't')`, nil, []string{"t1"}},
		{`SELECT * FROM "Music" WHERE Artist = 'A' AND contains(Tags, 'x')`, nil, []string{"s1"}},
		{`SELECT * FROM "Music" WHERE Artist = 'A' AND Info IS NOT MISSING`, nil, []string{"s2"}},
		{`SELECT * FROM "Music" WHERE Artist = 'A' AND Gone IS NULL AND Info IS MISSING`, nil, []string{"s1", "s3"}},
		{`SELECT * FROM "Music" WHERE Artist = 'A' AND Info.plays[1] = 2`, nil, []string{"s2"}},
		{`SELECT * FROM "Music" WHERE Artist = 'A' AND attribute_type(Tags, 'SS')`, nil, []string{"s1"}},
		{`SELECT * FROM "Music" WHERE Artist = 'A' AND size(Tags) = 2`, nil, []string{"s1"}},
		{`SELECT * FROM "Music" WHERE Artist = 'A' AND SongTitle IN ['s1', 's3'] OR NOT "Year" <> 2000`, nil, []string{"s1", "s2", "s3", "t1"}},
	}
	for _, tc := range cases {
		out := mustExec(t, c, tc.stmt, tc.params...)
		got := titles(out.Items)
		if tc.stmt[len(tc.stmt)-1] != 'C' {
			sortStrings(got)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.stmt, got, tc.want)
		}
	}
}

func sortStrings(ss []string) {
	for i := range ss {
		for j := i + 1; j < len(ss); j++ {
			if ss[j] < ss[i] {
				ss[i], ss[j] = ss[j], ss[i]
			}
		}
	}
}

func TestPartiQLProjectionAndMissingItem(t *testing.T) {
	c := partiqlMusic(t)
	out := mustExec(t, c, `SELECT "Year", Info.plays FROM "Music" WHERE Artist = 'A' AND SongTitle = 's2'`)
	// facts 36.3: the path's value under its last name.
	want := map[string]types.AttributeValue{"Year": n("2000"), "plays": &types.AttributeValueMemberL{Value: []types.AttributeValue{n("1"), n("2")}}}
	if len(out.Items) != 1 || !reflect.DeepEqual(out.Items[0], want) {
		t.Fatalf("got %#v", out.Items)
	}
	if out := mustExec(t, c, `SELECT * FROM "Music" WHERE Artist = 'Z' AND SongTitle = 'none'`); out.Items == nil || len(out.Items) != 0 {
		t.Fatalf("missing item: got %#v, want no items", out.Items)
	}
}

func TestPartiQLPagingWithNextToken(t *testing.T) {
	c := partiqlMusic(t)
	var got []string
	in := &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT * FROM "Music" WHERE Artist = 'A'`), Limit: aws.Int32(2), ConsistentRead: aws.Bool(true)}
	for pages := 0; ; pages++ {
		out, err := c.ExecuteStatement(ctx, in)
		if err != nil || pages > 3 {
			t.Fatal(err, pages)
		}
		got = append(got, titles(out.Items)...)
		if out.NextToken == nil {
			break
		}
		in.NextToken = out.NextToken
	}
	if !reflect.DeepEqual(got, []string{"s1", "s2", "s3"}) {
		t.Fatalf("got %v", got)
	}
}

func TestPartiQLWrites(t *testing.T) {
	c := partiqlMusic(t)
	_, err := exec(c, `INSERT INTO "Music" VALUE {'Artist': 'A', 'SongTitle': 's1'}`)
	wantAPIError(t, err, "DuplicateItemException", "Duplicate primary key exists in table")

	out := mustExec(t, c, `UPDATE "Music" SET "Year" = "Year" + 1 SET Tags = set_add(Tags, <<'z'>>) REMOVE Gone WHERE Artist = 'A' AND SongTitle = 's1' RETURNING ALL NEW *`)
	want := map[string]types.AttributeValue{"Artist": s("A"), "SongTitle": s("s1"), "Year": n("1991"), "Tags": &types.AttributeValueMemberSS{Value: []string{"x", "y", "z"}}}
	if len(out.Items) != 1 || !reflect.DeepEqual(out.Items[0], want) {
		t.Fatalf("UPDATE RETURNING ALL NEW: got %#v", out.Items)
	}
	_, err = exec(c, `UPDATE "Music" SET x = 1 WHERE Artist = 'A' AND SongTitle = 'nope'`)
	wantAPIError(t, err, "ConditionalCheckFailedException", "The conditional request failed")
	_, err = exec(c, `UPDATE "Music" SET x = 1 WHERE Artist = 'A' AND SongTitle = 's1' AND "Year" = 1`)
	wantAPIError(t, err, "ConditionalCheckFailedException", "The conditional request failed")
	_, err = exec(c, `UPDATE "Music" SET x = 1 WHERE Artist = 'A'`)
	wantAPIError(t, err, "ValidationException", "Where clause does not contain a mandatory equality on all key attributes")

	_, err = exec(c, `DELETE FROM "Music" WHERE Artist = 'A' AND SongTitle = 's2' AND "Year" = 1`)
	wantAPIError(t, err, "ConditionalCheckFailedException", "The conditional request failed")
	out = mustExec(t, c, `DELETE FROM "Music" WHERE Artist = 'A' AND SongTitle = 's2' RETURNING ALL OLD *`)
	if len(out.Items) != 1 || titles(out.Items)[0] != "s2" {
		t.Fatalf("DELETE RETURNING ALL OLD: got %#v", out.Items)
	}
	if out := mustExec(t, c, `DELETE FROM "Music" WHERE Artist = 'A' AND SongTitle = 's2' AND "Year" = 1`); len(out.Items) != 0 {
		t.Fatalf("DELETE of a missing item: got %#v", out.Items)
	}
}

func TestPartiQLErrors(t *testing.T) {
	c := partiqlMusic(t)
	const bad = "Statement wasn't well formed, can't be processed: "
	cases := []struct{ stmt, code, msg string }{
		{`SELECT * FROM "Music" WHERE`, "ValidationException", bad + "Unexpected term"},
		{`SELECT * FROM "Music" )`, "ValidationException", bad + "Unexpected token after expression"},
		{`SELECT * FROM "Music" m`, "ValidationException", "Aliasing is not supported"},
		{`DELETE FROM "Music" AS m WHERE Artist = 'A'`, "ValidationException", "Aliasing is not supported"},
		{`SELECT * FROM "Music" WHERE a = 'x`, "ValidationException", bad},
		{`SELECT * FROM "Music" WHERE Artist = ?`, "ValidationException", "Number of parameters in request and statement don't match."},
		{`SELECT * FROM "Nope"`, "ResourceNotFoundException", "Requested resource not found"},
		// facts 36.4: PartiQL's missing-index text has no ": name" suffix.
		{`SELECT * FROM "Music"."Nope" WHERE Artist = 'A'`, "ValidationException", "The table does not have the specified index"},
		{`SELECT * FROM "Music"."test_gsi"`, "ValidationException", "The table does not have the specified index"},
		{`SELECT * FROM "whatnow"."test_gsi"`, "ResourceNotFoundException", "Requested resource not found"},
		{`SELECT * FROM "Music" WHERE "Year" = 1 ORDER BY SongTitle`, "ValidationException", "ORDER BY is supported only on the sort key, with an equality on the partition key in the WHERE clause"},
	}
	for _, tc := range cases {
		_, err := exec(c, tc.stmt)
		wantAPIError(t, err, tc.code, tc.msg)
	}
}

// TestPartiQLPlansCostAsNativeOperations holds each SELECT shape to the
// capacity of the native operation it is planned as.
func TestPartiQLPlansCostAsNativeOperations(t *testing.T) {
	c := partiqlMusic(t)
	get, _ := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Music"), Key: map[string]types.AttributeValue{"Artist": s("A"), "SongTitle": s("s1")}, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	query, _ := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("Music"), KeyConditionExpression: aws.String("Artist = :a"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":a": s("A")}, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	scan, _ := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("Music"), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	for stmt, want := range map[string]*types.ConsumedCapacity{
		`SELECT * FROM "Music" WHERE Artist = 'A' AND SongTitle = 's1'`: get.ConsumedCapacity,
		`SELECT * FROM "Music" WHERE Artist = 'A'`:                      query.ConsumedCapacity,
		`SELECT * FROM "Music" WHERE "Year" = 2000`:                     scan.ConsumedCapacity,
	} {
		got := mustExec(t, c, stmt).ConsumedCapacity
		if got == nil || *got.CapacityUnits != *want.CapacityUnits {
			t.Errorf("%s: consumed %v, want %v", stmt, got, *want.CapacityUnits)
		}
	}
}

func TestPartiQLModelConstraints(t *testing.T) {
	c := partiqlMusic(t)
	long := `SELECT * FROM "Music" WHERE Artist = '` + string(make([]byte, 8200)) + `'`
	_, err := c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(long)})
	wantAPIErrorPrefix(t, err, "ValidationException", "1 validation error detected: Value '")
	_, err = c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT * FROM "Music"`), Limit: aws.Int32(0)})
	wantAPIError(t, err, "ValidationException", "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1")
}

func batchExec(c *dynamodb.Client, stmts ...string) (*dynamodb.BatchExecuteStatementOutput, error) {
	in := &dynamodb.BatchExecuteStatementInput{ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal}
	for _, st := range stmts {
		in.Statements = append(in.Statements, types.BatchStatementRequest{Statement: aws.String(st)})
	}
	return c.BatchExecuteStatement(ctx, in)
}

func TestPartiQLBatchReads(t *testing.T) {
	c := partiqlMusic(t)
	out, err := batchExec(c,
		`SELECT * FROM "Music" WHERE Artist = 'A' AND SongTitle = 's1'`,
		`SELECT * FROM "Music" WHERE Artist = 'A' AND SongTitle = 'none'`,
		`SELECT * FROM "Music" WHERE Artist = 'A'`,
		`SELECT * FROM "Music" WHERE`)
	if err != nil {
		t.Fatal(err)
	}
	r := out.Responses
	if len(r) != 4 || r[0].Item["SongTitle"].(*types.AttributeValueMemberS).Value != "s1" || aws.ToString(r[0].TableName) != "Music" || r[1].Item != nil || r[1].Error != nil {
		t.Fatalf("responses: %#v", r)
	}
	if r[2].Error == nil || r[2].Error.Code != types.BatchStatementErrorCodeEnumValidationError ||
		aws.ToString(r[2].Error.Message) != "Select statements within BatchExecuteStatement must specify the primary key in the where clause." {
		t.Fatalf("partition read: %#v", r[2].Error)
	}
	if r[3].Error == nil || r[3].Error.Code != types.BatchStatementErrorCodeEnumValidationError {
		t.Fatalf("malformed: %#v", r[3].Error)
	}
	if len(out.ConsumedCapacity) != 1 || *out.ConsumedCapacity[0].CapacityUnits != 1 {
		t.Fatalf("capacity: %#v", out.ConsumedCapacity)
	}
}

func TestPartiQLBatchWrites(t *testing.T) {
	c := partiqlMusic(t)
	out, err := batchExec(c,
		`INSERT INTO "Music" VALUE {'Artist': 'C', 'SongTitle': 'u1'}`,
		`INSERT INTO "Music" VALUE {'Artist': 'A', 'SongTitle': 's1'}`,
		`UPDATE "Music" SET x = 1 WHERE Artist = 'A' AND SongTitle = 'none'`,
		`DELETE FROM "Music" WHERE Artist = 'B' AND SongTitle = 't1'`)
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, r := range out.Responses {
		code := ""
		if r.Error != nil {
			code = string(r.Error.Code)
		}
		codes = append(codes, code)
	}
	if want := []string{"", "DuplicateItem", "ConditionalCheckFailed", ""}; !reflect.DeepEqual(codes, want) {
		t.Fatalf("codes %v, want %v", codes, want)
	}
	if out := mustExec(t, c, `SELECT * FROM "Music" WHERE Artist = 'B'`); len(out.Items) != 0 {
		t.Fatalf("delete in batch did not delete: %v", out.Items)
	}
	_, err = batchExec(c, `INSERT INTO "Music" VALUE {'Artist': 'D', 'SongTitle': 'v'}`, `SELECT * FROM "Music" WHERE Artist = 'A' AND SongTitle = 's1'`)
	wantAPIError(t, err, "ValidationException", "The entire batch must consist of either read statements or write statements")
	many := make([]string, 26)
	for i := range many {
		many[i] = `SELECT * FROM "Music" WHERE Artist = 'A' AND SongTitle = 's1'`
	}
	_, err = batchExec(c, many...)
	wantAPIError(t, err, "ValidationException", "1 validation error detected: Value at 'statements' failed to satisfy constraint: Member must have length less than or equal to 25")
}

func transact(c *dynamodb.Client, stmts ...string) (*dynamodb.ExecuteTransactionOutput, error) {
	in := &dynamodb.ExecuteTransactionInput{ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal}
	for _, st := range stmts {
		in.TransactStatements = append(in.TransactStatements, types.ParameterizedStatement{Statement: aws.String(st)})
	}
	return c.ExecuteTransaction(ctx, in)
}

func TestPartiQLTransactions(t *testing.T) {
	c := partiqlMusic(t)
	out, err := transact(c,
		`SELECT * FROM "Music" WHERE Artist = 'A' AND SongTitle = 's1'`,
		`SELECT "Year" FROM "Music" WHERE Artist = 'A' AND SongTitle = 'none'`)
	if err != nil || len(out.Responses) != 2 || out.Responses[0].Item["SongTitle"] == nil || out.Responses[1].Item != nil {
		t.Fatalf("reads: %v %#v", err, out)
	}
	_, err = transact(c,
		`UPDATE "Music" SET x = 1 WHERE Artist = 'A' AND SongTitle = 's1'`,
		`INSERT INTO "Music" VALUE {'Artist': 'A', 'SongTitle': 's2'}`)
	wantAPIError(t, err, "TransactionCanceledException", "Transaction cancelled, please refer cancellation reasons for specific reasons [None, DuplicateItem]")
	var tc *types.TransactionCanceledException
	if !errorsAs(err, &tc) || aws.ToString(tc.CancellationReasons[1].Message) != "Duplicate primary key exists in table" {
		t.Fatalf("reasons: %#v", err)
	}
	if out := mustExec(t, c, `SELECT x FROM "Music" WHERE Artist = 'A' AND SongTitle = 's1'`); len(out.Items[0]) != 0 {
		t.Fatalf("cancelled update applied: %v", out.Items)
	}
	if _, err := transact(c,
		`UPDATE "Music" SET x = 1 WHERE Artist = 'A' AND SongTitle = 's1'`,
		`INSERT INTO "Music" VALUE {'Artist': 'E', 'SongTitle': 'w'}`,
		`DELETE FROM "Music" WHERE Artist = 'B' AND SongTitle = 't1'`); err != nil {
		t.Fatal(err)
	}
	if out := mustExec(t, c, `SELECT * FROM "Music" WHERE Artist = 'E' OR x = 1 OR Artist = 'B'`); len(out.Items) != 2 {
		t.Fatalf("writes: %v", out.Items)
	}
	_, err = transact(c, `SELECT * FROM "Music" WHERE Artist = 'A'`)
	wantAPIError(t, err, "ValidationException", "Select statements within ExecuteTransaction must specify the primary key in the where clause.")
}

func errorsAs(err error, target any) bool { return errors.As(err, target) }

// TestPartiQLWritesCostAsNativeWrites holds INSERT, UPDATE and DELETE to
// the capacity of PutItem, UpdateItem and DeleteItem doing the same to a
// twin item, GSI maintenance included.
func TestPartiQLWritesCostAsNativeWrites(t *testing.T) {
	c := partiqlMusic(t)
	total := types.ReturnConsumedCapacityTotal
	key := map[string]types.AttributeValue{"Artist": s("N"), "SongTitle": s("n")}
	put, _ := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Music"), ReturnConsumedCapacity: total,
		Item: map[string]types.AttributeValue{"Artist": s("N"), "SongTitle": s("n"), "Genre": s("Rock")}})
	upd, _ := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("Music"), Key: key, ReturnConsumedCapacity: total,
		UpdateExpression: aws.String("SET Genre = :g"), ExpressionAttributeValues: map[string]types.AttributeValue{":g": s("Jazz")}})
	del, _ := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("Music"), Key: key, ReturnConsumedCapacity: total})
	for _, tc := range []struct {
		stmt string
		want *types.ConsumedCapacity
	}{
		{`INSERT INTO "Music" VALUE {'Artist': 'P', 'SongTitle': 'n', 'Genre': 'Rock'}`, put.ConsumedCapacity},
		{`UPDATE "Music" SET Genre = 'Jazz' WHERE Artist = 'P' AND SongTitle = 'n'`, upd.ConsumedCapacity},
		{`DELETE FROM "Music" WHERE Artist = 'P' AND SongTitle = 'n'`, del.ConsumedCapacity},
	} {
		got := mustExec(t, c, tc.stmt).ConsumedCapacity
		if got == nil || tc.want == nil || *got.CapacityUnits != *tc.want.CapacityUnits {
			t.Errorf("%s: consumed %v, want %v", tc.stmt, got, tc.want)
		}
	}
}

// TestPartiQLTransactionExists holds EXISTS beside writes to a
// ConditionCheck: a missing item or a false condition cancels the
// transaction with ConditionalCheckFailed for that statement.
func TestPartiQLTransactionExists(t *testing.T) {
	c := partiqlMusic(t)
	if _, err := transact(c,
		`EXISTS(SELECT * FROM "Music" WHERE Artist = 'A' AND SongTitle = 's1' AND "Year" = 1990)`,
		`UPDATE "Music" SET x = 1 WHERE Artist = 'A' AND SongTitle = 's2'`); err != nil {
		t.Fatal(err)
	}
	for _, check := range []string{
		`EXISTS(SELECT * FROM "Music" WHERE Artist = 'A' AND SongTitle = 's1' AND "Year" = 1991)`,
		`EXISTS (SELECT * FROM "Music" WHERE Artist = 'A' AND SongTitle = 'none')`,
	} {
		_, err := transact(c, `UPDATE "Music" SET y = 1 WHERE Artist = 'A' AND SongTitle = 's2'`, check)
		wantAPIError(t, err, "TransactionCanceledException", "Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed]")
	}
	if out := mustExec(t, c, `SELECT x, y FROM "Music" WHERE Artist = 'A' AND SongTitle = 's2'`); len(out.Items[0]) != 1 {
		t.Fatalf("items: %v", out.Items)
	}
	_, err := transact(c, `EXISTS(SELECT * FROM "Music" WHERE Artist = 'A')`, `DELETE FROM "Music" WHERE Artist = 'B' AND SongTitle = 't1'`)
	wantAPIError(t, err, "ValidationException", "Select statements within ExecuteTransaction must specify the primary key in the where clause.")
	_, err = exec(c, `EXISTS(SELECT * FROM "Music" WHERE Artist = 'A' AND SongTitle = 's1')`)
	wantAPIError(t, err, "ValidationException", "Statement wasn't well formed, can't be processed: Unsupported PartiQL feature: EXISTS outside ExecuteTransaction")
	out, err := batchExec(c, `EXISTS(SELECT * FROM "Music" WHERE Artist = 'A' AND SongTitle = 's1')`)
	if err != nil || out.Responses[0].Error == nil || out.Responses[0].Error.Code != types.BatchStatementErrorCodeEnumValidationError {
		t.Fatalf("EXISTS in a batch: %v %#v", err, out)
	}
}

// inList is "IN [v0, v1, ...]" of n strings.
func inList(n int) string {
	vals := make([]string, n)
	for i := range vals {
		vals[i] = fmt.Sprintf("'v%d'", i)
	}
	return "IN [" + strings.Join(vals, ", ") + "]"
}

// TestPartiQLInLimits holds IN to DynamoDB's documented limits: 50 values
// on the partition key, 100 on any other attribute.
func TestPartiQLInLimits(t *testing.T) {
	c := partiqlMusic(t)
	mustExec(t, c, `SELECT * FROM "Music" WHERE Artist `+inList(50))
	mustExec(t, c, `SELECT * FROM "Music" WHERE Tag `+inList(100))
	_, err := exec(c, `SELECT * FROM "Music" WHERE Artist `+inList(51))
	wantAPIError(t, err, "ValidationException", "IN on the partition key may list at most 50 values")
	_, err = exec(c, `SELECT * FROM "Music" WHERE Artist = 'A' AND NOT Tag `+inList(101))
	wantAPIError(t, err, "ValidationException", "IN may list at most 100 values")
	_, err = exec(c, `DELETE FROM "Music" WHERE Artist = 'A' AND SongTitle = 's1' AND (Tag = 1 OR Tag `+inList(101)+`)`)
	wantAPIError(t, err, "ValidationException", "IN may list at most 100 values")
}

// createKeyed creates table name keyed on the string attribute pk alone.
func createKeyed(t *testing.T, c *dynamodb.Client, name, pk string) {
	t.Helper()
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String(pk), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash}}})
	if err != nil {
		t.Fatal(err)
	}
}

// TestPartiQLCachedPlans holds the plans cached by statement text to the
// request and the table: one call's ConsistentRead does not carry to the
// next, and a table created again with another key is planned again.
func TestPartiQLCachedPlans(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createKeyed(t, c, "Keyed", "a")
	mustExec(t, c, `INSERT INTO "Keyed" VALUE {'a': '1', 'b': '2'}`)
	const st = `SELECT * FROM "Keyed" WHERE a = '1'`
	for _, consistent := range []bool{true, false} {
		out, err := c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(st),
			ConsistentRead: aws.Bool(consistent), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
		if want := map[bool]float64{true: 1, false: 0.5}[consistent]; err != nil || *out.ConsumedCapacity.CapacityUnits != want {
			t.Fatalf("consistent %v: %v, want %v units", consistent, err, want)
		}
	}
	if _, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("Keyed")}); err != nil {
		t.Fatal(err)
	}
	createKeyed(t, c, "Keyed", "b")
	mustExec(t, c, `INSERT INTO "Keyed" VALUE {'a': '1', 'b': '2'}`)
	if out := mustExec(t, c, st); len(out.Items) != 1 {
		t.Fatalf("items: %v", out.Items)
	}
}

// TestPartiQLProjectedPathNamedByLastElement: a projected document path
// comes back under its last element's name, on every read shape: GetItem,
// Query and Scan plans, and a transaction's reads (facts 36.3).
func TestPartiQLProjectedPathNamedByLastElement(t *testing.T) {
	c := partiqlMusic(t)
	plays := &types.AttributeValueMemberL{Value: []types.AttributeValue{n("1"), n("2")}}
	for _, tc := range []struct {
		stmt string
		want map[string]types.AttributeValue
	}{
		{`SELECT Info.plays FROM "Music" WHERE Artist = 'A' AND SongTitle = 's2'`, map[string]types.AttributeValue{"plays": plays}},
		{`SELECT Info.plays[1], SongTitle FROM "Music" WHERE Artist = 'A' AND SongTitle = 's2'`, map[string]types.AttributeValue{"plays": n("2"), "SongTitle": s("s2")}},
		{`SELECT Info.plays FROM "Music" WHERE Artist = 'A' AND "Year" = 2000`, map[string]types.AttributeValue{"plays": plays}},
		{`SELECT Info.plays FROM "Music" WHERE "Year" = 2000 AND SongTitle = 's2'`, map[string]types.AttributeValue{"plays": plays}},
	} {
		out := mustExec(t, c, tc.stmt)
		if len(out.Items) != 1 || !reflect.DeepEqual(out.Items[0], tc.want) {
			t.Errorf("%s: got %#v, want %#v", tc.stmt, out.Items, tc.want)
		}
	}
	tx, err := c.ExecuteTransaction(ctx, &dynamodb.ExecuteTransactionInput{TransactStatements: []types.ParameterizedStatement{
		{Statement: aws.String(`SELECT Info.plays FROM "Music" WHERE Artist = 'A' AND SongTitle = 's2'`)}}})
	if err != nil || len(tx.Responses) != 1 || !reflect.DeepEqual(tx.Responses[0].Item, map[string]types.AttributeValue{"plays": plays}) {
		t.Errorf("transaction read: %v %#v", err, tx)
	}
}
