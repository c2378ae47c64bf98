package engine

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// These tests drive the engine's multi-attribute GSI keys directly, past
// the request validation, so that storage, writes, backfill and Query's
// key conditions are checked whatever CreateTable accepts.

// mkAttrs are the index's key attributes: two HASH then three RANGE.
var mkAttrs = []struct{ name, typ, keyType string }{
	{"h1", "S", "HASH"}, {"h2", "N", "HASH"},
	{"r1", "S", "RANGE"}, {"r2", "N", "RANGE"}, {"r3", "B", "RANGE"},
}

// mkTableJSON is table mkt keyed by pk, with GSI gsi over mkAttrs when
// withIndex is set.
func mkTableJSON(withIndex bool) string {
	defs := `{"AttributeName":"pk","AttributeType":"S"}`
	var ks []string
	for _, a := range mkAttrs {
		defs += fmt.Sprintf(`,{"AttributeName":%q,"AttributeType":%q}`, a.name, a.typ)
		ks = append(ks, fmt.Sprintf(`{"AttributeName":%q,"KeyType":%q}`, a.name, a.keyType))
	}
	gsi := fmt.Sprintf(`{"IndexName":"gsi","KeySchema":[%s],"Projection":{"ProjectionType":"ALL"}}`, strings.Join(ks, ","))
	if !withIndex {
		return `{"TableName":"mkt","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
			"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`
	}
	return fmt.Sprintf(`{"TableName":"mkt","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[%s],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"GlobalSecondaryIndexes":[%s]}`, defs, gsi)
}

// mkValues are the values each attribute takes: strings and binaries that
// prefix one another or hold 0x00, numbers of either sign.
var mkValues = map[string][]attr.Value{
	"h1": {attr.Str("a"), attr.Str("ab")},
	"h2": {attr.Num("1"), attr.Num("-2")},
	"r1": {attr.Str("a"), attr.Str("ab"), attr.Str("a\x00"), attr.Str("b")},
	"r2": {attr.Num("-1.5"), attr.Num("0"), attr.Num("3"), attr.Num("10")},
	"r3": {attr.Bin([]byte{0}), attr.Bin([]byte{0, 1}), attr.Bin([]byte{1})},
}

// mkItem is item i, each key attribute absent one time in ten (sparse).
func mkItem(r *rand.Rand, i int) attr.Item {
	it := attr.Item{"pk": attr.Str(fmt.Sprintf("p%03d", i))}
	for _, a := range mkAttrs {
		if r.IntN(10) > 0 {
			vs := mkValues[a.name]
			it[a.name] = vs[r.IntN(len(vs))]
		}
	}
	return it
}

func mkEngine(t *testing.T, items []attr.Item) *Engine {
	t.Helper()
	e := open(t, "")
	t.Cleanup(func() { e.Close() })
	var in protocol.CreateTableInput
	if err := protocol.Decode([]byte(mkTableJSON(true)), &in); err != nil {
		t.Fatal(err)
	}
	if _, err := e.createTable(&in); err != nil {
		t.Fatal(err)
	}
	putAll(t, e, items)
	return e
}

func putAll(t *testing.T, e *Engine, items []attr.Item) {
	t.Helper()
	for _, it := range items {
		if _, err := e.PutItem(context.Background(), &protocol.PutItemInput{TableName: ptr("mkt"), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// mkQuery is a random allowed key condition: every HASH attribute equal,
// k leading RANGE attributes equal, and maybe one condition on the next.
type mkQuery struct {
	expr   string
	values attr.Item
	match  func(attr.Item) bool
}

func randomQuery(r *rand.Rand) mkQuery {
	q := mkQuery{values: attr.Item{}}
	var conds []string
	var checks []func(attr.Item) bool
	add := func(name, op string, vs ...attr.Value) {
		first := len(q.values)
		c, check := condOn(name, op, first, vs)
		for j, v := range vs {
			q.values[fmt.Sprintf(":v%d", first+j)] = v
		}
		conds, checks = append(conds, c), append(checks, check)
	}
	for _, a := range mkAttrs {
		if a.keyType == "HASH" {
			add(a.name, "=", pick(r, a.name))
		}
	}
	k := r.IntN(4)
	for _, a := range mkAttrs[2 : 2+k] {
		add(a.name, "=", pick(r, a.name))
	}
	if k < 3 && r.IntN(4) > 0 {
		a := mkAttrs[2+k]
		op := randomOp(r, a.typ)
		vs := []attr.Value{pick(r, a.name)}
		if op == "BETWEEN" {
			vs = append(vs, pick(r, a.name))
			slices.SortFunc(vs, func(x, y attr.Value) int { c, _ := attr.Compare(&x, &y); return c })
		}
		add(a.name, op, vs...)
	}
	r.Shuffle(len(conds), func(i, j int) { conds[i], conds[j] = conds[j], conds[i] })
	q.expr = strings.Join(conds, " AND ")
	q.match = func(it attr.Item) bool {
		return !slices.ContainsFunc(checks, func(c func(attr.Item) bool) bool { return !c(it) })
	}
	return q
}

func pick(r *rand.Rand, name string) attr.Value {
	vs := mkValues[name]
	return vs[r.IntN(len(vs))]
}

func randomOp(r *rand.Rand, typ string) string {
	ops := []string{"=", "<", "<=", ">", ">=", "BETWEEN"}
	if typ != "N" {
		ops = append(ops, "begins_with")
	}
	return ops[r.IntN(len(ops))]
}

// condOn writes name op values (numbered from first) as an expression and
// as a check on an item.
func condOn(name, op string, first int, vs []attr.Value) (string, func(attr.Item) bool) {
	kc := keyCond{sortOp: op, sortVals: vs}
	check := func(it attr.Item) bool { v := it[name]; return sortMatches(&v, &kc) }
	switch op {
	case "BETWEEN":
		return fmt.Sprintf("%s BETWEEN :v%d AND :v%d", name, first, first+1), check
	case "begins_with":
		return fmt.Sprintf("begins_with(%s, :v%d)", name, first), check
	}
	return fmt.Sprintf("%s %s :v%d", name, op, first), check
}

// expected is what a Query must return: the matching items of the index,
// ordered by r1, r2, r3 (each by its type) and then the table key.
func expected(items []attr.Item, q mkQuery, forward bool) []string {
	var out []attr.Item
	for _, it := range items {
		if len(it) == len(mkAttrs)+1 && q.match(it) {
			out = append(out, it)
		}
	}
	slices.SortFunc(out, func(a, b attr.Item) int {
		for _, n := range []string{"r1", "r2", "r3", "pk"} {
			x, y := a[n], b[n]
			if c, _ := attr.Compare(&x, &y); c != 0 {
				return c
			}
		}
		return 0
	})
	if !forward {
		slices.Reverse(out)
	}
	return pks(out)
}

func pks(items []attr.Item) []string {
	out := []string{}
	for _, it := range items {
		out = append(out, *it["pk"].S)
	}
	return out
}

// queryPages runs q to the end, limit items a page, checking that each
// LastEvaluatedKey holds the table key and every index key attribute.
func queryPages(t *testing.T, e *Engine, q mkQuery, forward bool, limit int64) []string {
	t.Helper()
	in := &protocol.QueryInput{KeyConditionExpression: &q.expr, ScanIndexForward: &forward}
	in.TableName, in.IndexName, in.Limit = ptr("mkt"), ptr("gsi"), &limit
	in.ExpressionAttributeValues = q.values
	var got []string
	for {
		out, err := e.Query(context.Background(), in)
		if err != nil {
			t.Fatalf("%s: %v", q.expr, err)
		}
		got = append(got, pks(pageItems(t, out))...)
		if out.LastEvaluatedKey == nil {
			return got
		}
		if len(out.LastEvaluatedKey) != len(mkAttrs)+1 {
			t.Fatalf("LastEvaluatedKey %v", out.LastEvaluatedKey)
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// pageItems are a page's items, which may come as JSON written straight
// from storage.
func pageItems(t *testing.T, out *protocol.ReadOutput) []attr.Item {
	t.Helper()
	if out.ItemsJSON == nil {
		return *out.Items
	}
	var page struct{ Items []attr.Item }
	body := append(append([]byte(`{"Items":[`), out.ItemsJSON...), "]}"...)
	if err := protocol.Decode(body, &page); err != nil {
		t.Fatal(err)
	}
	return page.Items
}

func mkItems(r *rand.Rand, n int) []attr.Item {
	items := make([]attr.Item, n)
	for i := range items {
		items[i] = mkItem(r, i)
	}
	return items
}

// TestMultiKeyQueryMatchesBruteForce compares random allowed key
// conditions, both directions and random page sizes, with a filter and
// sort of the items.
func TestMultiKeyQueryMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	items := mkItems(r, 300)
	e := mkEngine(t, items)
	checkQueries(t, r, e, items, 300)
}

func checkQueries(t *testing.T, r *rand.Rand, e *Engine, items []attr.Item, n int) {
	t.Helper()
	for range n {
		q, forward := randomQuery(r), r.IntN(2) == 0
		want := expected(items, q, forward)
		if got := queryPages(t, e, q, forward, int64(1+r.IntN(7))); !slices.Equal(got, want) {
			t.Fatalf("%s (forward %v) %v:\ngot  %v\nwant %v", q.expr, forward, q.values, got, want)
		}
	}
}

// TestMultiKeyBackfill adds the index over existing items, which the
// backfill must enter exactly as writes would.
func TestMultiKeyBackfill(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	items := mkItems(r, 200)
	e := open(t, "")
	defer e.Close()
	must[protocol.CreateTableOutput](t)(call(t, e.CreateTable, mkTableJSON(false)))
	putAll(t, e, items)
	var in protocol.UpdateTableInput
	add := strings.Replace(mkTableJSON(true), `"GlobalSecondaryIndexes":[`, `"GlobalSecondaryIndexUpdates":[{"Create":`, 1)
	add = strings.Replace(add, `"BillingMode":"PAY_PER_REQUEST",`, "", 1)
	add = strings.Replace(add, `"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],`, "", 1)
	add = strings.TrimSuffix(add, "]}") + "}]}"
	if err := protocol.Decode([]byte(add), &in); err != nil {
		t.Fatal(err)
	}
	if _, err := e.updateTable(&in); err != nil {
		t.Fatal(err)
	}
	waitActive(t, e)
	checkQueries(t, r, e, items, 100)
}

// waitActive waits for the backfill of gsi to end: a store that commits
// each entry over the network (PostgreSQL) takes longer than Pebble.
func waitActive(t *testing.T, e *Engine) {
	t.Helper()
	for range 3000 {
		tb, err := e.itemTable("mkt")
		if err != nil {
			t.Fatal(err)
		}
		if ix, _ := tb.index(ptr("gsi")); ix != nil {
			return
		}
		e.Settle()
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the backfill did not end")
}

// TestMultiKeyConditionErrors refuses the shapes a multi-attribute key
// does not serve, with DynamoDB's texts.
func TestMultiKeyConditionErrors(t *testing.T) {
	e := mkEngine(t, nil)
	gap := "RANGE key attributes %s must have equality conditions specified in the query because a condition is present on key attribute %s"
	for _, c := range []struct{ expr, want string }{
		// facts 18.1-18.4: each HASH attribute needs an equality.
		{"h1 = :s AND r1 = :s", fmt.Sprintf(msgKeyHashEq, "h1, h2")},
		{"h2 = :n AND r1 = :s", fmt.Sprintf(msgKeyHashEq, "h1, h2")},
		{"h1 = :s AND h2 > :n", fmt.Sprintf(msgKeyHashEq, "h1, h2")},
		{"h1 = :s AND h2 BETWEEN :n AND :n", fmt.Sprintf(msgKeyHashEq, "h1, h2")},
		{"h1 = :s AND begins_with(h2, :s)", fmt.Sprintf(msgKeyHashEq, "h1, h2")},
		{"h1 = :s AND h2 = :n AND r2 = :n", fmt.Sprintf(gap, "r1", "r2")},
		{"h1 = :s AND h2 = :n AND r1 = :s AND r3 = :b", fmt.Sprintf(gap, "r2", "r3")},
		{"h1 = :s AND h2 = :n AND r1 > :s AND r2 = :n", fmt.Sprintf(gap, "r1", "r2")},
		{"r3 = :b AND h1 = :s AND r1 = :s AND h2 = :n AND r2 <= :n", fmt.Sprintf(gap, "r2", "r3")},
		{"h1 = :s AND h2 = :s", msgKeyType},
		{"h1 = :s AND h2 = :n AND r1 = :s AND r2 = :s", msgKeyType},
		{"h1 = :s AND h2 = :n AND pk = :s", msgKeyUnsupport},
	} {
		in := &protocol.QueryInput{KeyConditionExpression: &c.expr}
		in.TableName, in.IndexName = ptr("mkt"), ptr("gsi")
		in.ExpressionAttributeValues = attr.Item{}
		for name, v := range map[string]attr.Value{":s": attr.Str("a"), ":n": attr.Num("1"), ":b": attr.Bin([]byte{1})} {
			if strings.Contains(c.expr, name) {
				in.ExpressionAttributeValues[name] = v
			}
		}
		_, err := e.Query(context.Background(), in)
		wantCode(t, err, apierr.Validation, c.want)
	}
}

// TestMultiKeyWriteTypeCheck refuses an item whose later index key
// attribute has the wrong type, naming that attribute.
func TestMultiKeyWriteTypeCheck(t *testing.T) {
	e := mkEngine(t, nil)
	it := attr.Item{"pk": attr.Str("p"), "h1": attr.Str("a"), "h2": attr.Num("1"), "r1": attr.Str("a"), "r2": attr.Num("1"), "r3": attr.Str("x")}
	_, err := e.PutItem(context.Background(), &protocol.PutItemInput{TableName: ptr("mkt"), Item: it})
	wantCode(t, err, apierr.Validation, "One or more parameter values were invalid: Type mismatch for Index Key r3 Expected: B Actual: S IndexName: gsi")
}

// TestMultiKeyEncodingUnambiguous: consecutive key encodings order as the
// values compared one after the other, whatever their lengths.
func TestMultiKeyEncodingUnambiguous(t *testing.T) {
	enc := func(vs ...attr.Value) []byte { return appendValues(nil, vs) }
	a, b := enc(attr.Str("a"), attr.Str("bc")), enc(attr.Str("ab"), attr.Str("c"))
	if bytes.Compare(a, b) >= 0 {
		t.Fatalf("(a, bc) %x should sort before (ab, c) %x", a, b)
	}
	c, d := enc(attr.Bin([]byte{1}), attr.Num("-1")), enc(attr.Bin([]byte{1, 0}), attr.Num("-9"))
	if bytes.Compare(c, d) >= 0 {
		t.Fatalf("([1], -1) %x should sort before ([1 0], -9) %x", c, d)
	}
}

// FuzzMultiKeyEncodingOrder: the bytes of consecutive key encodings order
// as the tuples compared attribute by attribute, each by its type.
func FuzzMultiKeyEncodingOrder(f *testing.F) {
	f.Add("a", "bc", int64(1), []byte{0}, "ab", "c", int64(-1), []byte{0, 1})
	f.Add("a", "a\x00", int64(0), []byte{}, "a", "a", int64(0), []byte{1})
	f.Fuzz(func(t *testing.T, s1, s2 string, n1 int64, b1 []byte, u1, u2 string, m1 int64, c1 []byte) {
		x := []attr.Value{attr.Str(s1), attr.Num(fmt.Sprint(n1)), attr.Bin(b1), attr.Str(s2)}
		y := []attr.Value{attr.Str(u1), attr.Num(fmt.Sprint(m1)), attr.Bin(c1), attr.Str(u2)}
		for _, y := range [][]attr.Value{y, {x[0], y[1], y[2], y[3]}, {x[0], x[1], y[2], y[3]}, {x[0], x[1], x[2], y[3]}} {
			if got, want := bytes.Compare(appendValues(nil, x), appendValues(nil, y)), compareTuples(x, y); got != want {
				t.Fatalf("%v vs %v: bytes %d, values %d", x, y, got, want)
			}
		}
	})
}

func compareTuples(x, y []attr.Value) int {
	for i := range x {
		if c, _ := attr.Compare(&x[i], &y[i]); c != 0 {
			return c
		}
	}
	return 0
}

// TestMultiKeySurvivesRestart: the index's key schema is rebuilt from the
// stored table definition, and its entries read back in order.
func TestMultiKeySurvivesRestart(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	items := mkItems(r, 100)
	dir := t.TempDir()
	e := open(t, dir)
	var in protocol.CreateTableInput
	if err := protocol.Decode([]byte(mkTableJSON(true)), &in); err != nil {
		t.Fatal(err)
	}
	if _, err := e.createTable(&in); err != nil {
		t.Fatal(err)
	}
	putAll(t, e, items)
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	e = open(t, dir)
	defer e.Close()
	checkQueries(t, r, e, items, 50)
}
