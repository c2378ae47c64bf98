package conformance_test

import (
	"bytes"
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// TestMultiKeyRandomSchemas: for random GSI key schemas of 1-4 HASH and
// 1-4 RANGE attributes of random types, and random items, every random
// allowed key condition, in either direction and paged at random, returns
// a brute-force filter and sort of the items.
func TestMultiKeyRandomSchemas(t *testing.T) {
	for seed := range uint64(8) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { checkRandomSchema(t, seed) })
	}
}

// FuzzMultiKeyRandomSchemas is TestMultiKeyRandomSchemas for any seed:
// go test -fuzz FuzzMultiKeyRandomSchemas.
func FuzzMultiKeyRandomSchemas(f *testing.F) {
	f.Add(uint64(100))
	f.Fuzz(func(t *testing.T, seed uint64) { checkRandomSchema(t, seed) })
}

func checkRandomSchema(t *testing.T, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 18))
	c := sortkeytest.New(t).Client()
	sc := randomSchema(r)
	sc.create(t, c)
	items := sc.load(t, c, r, 80)
	for range 40 {
		q := sc.randomQuery(r)
		want := sc.expected(items, q)
		if got := q.run(t, c, int32(1+r.IntN(6))); !slices.Equal(got, want) {
			t.Fatalf("%s %v (forward %v):\ngot  %v\nwant %v", q.expr, q.vals, q.forward, got, want)
		}
	}
}

// rkAttr is one key attribute of a random schema.
type rkAttr struct{ name, typ string }

type rkSchema struct{ hashes, ranges []rkAttr }

func randomSchema(r *rand.Rand) rkSchema {
	var sc rkSchema
	types := []string{"S", "N", "B"}
	for i := range 1 + r.IntN(4) {
		sc.hashes = append(sc.hashes, rkAttr{fmt.Sprintf("h%d", i), types[r.IntN(3)]})
	}
	for i := range 1 + r.IntN(4) {
		sc.ranges = append(sc.ranges, rkAttr{fmt.Sprintf("r%d", i), types[r.IntN(3)]})
	}
	return sc
}

func (sc rkSchema) all() []rkAttr { return append(slices.Clone(sc.hashes), sc.ranges...) }

func (sc rkSchema) create(t *testing.T, c *dynamodb.Client) {
	t.Helper()
	ds := []string{"id:S"}
	var hs, rs []string
	for _, a := range sc.hashes {
		ds, hs = append(ds, a.name+":"+a.typ), append(hs, a.name)
	}
	for _, a := range sc.ranges {
		ds, rs = append(ds, a.name+":"+a.typ), append(rs, a.name)
	}
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("rnd"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: mkDefs(ds...), KeySchema: keyElems([]string{"id"}, nil),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{gsi("rgx", keyElems(hs, rs))}})
	if err != nil {
		t.Fatal(err)
	}
}

// rkValue is a random value of type typ from a small pool, so that values
// repeat; strings and binaries prefix one another.
func rkValue(r *rand.Rand, typ string, hash bool) types.AttributeValue {
	k := 4
	if hash {
		k = 2 // few partitions, so queries find items
	}
	i := r.IntN(k)
	switch typ {
	case "S":
		return s([]string{"a", "ab", "b", "a\x00"}[i])
	case "N":
		return n([]string{"-1.5", "0", "7", "10"}[i])
	}
	return bin([][]byte{{0}, {0, 1}, {1}, {}}[i]...)
}

// load writes n items, each key attribute absent one time in eight.
func (sc rkSchema) load(t *testing.T, c *dynamodb.Client, r *rand.Rand, count int) []map[string]types.AttributeValue {
	t.Helper()
	var items []map[string]types.AttributeValue
	for i := range count {
		it := map[string]types.AttributeValue{"id": s(fmt.Sprintf("i%02d", i))}
		for j, a := range sc.all() {
			if v := rkValue(r, a.typ, j < len(sc.hashes)); r.IntN(8) > 0 && !emptyBinary(v) {
				it[a.name] = v
			}
		}
		if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("rnd"), Item: it}); err != nil {
			t.Fatal(err)
		}
		items = append(items, it)
	}
	return items
}

func emptyBinary(v types.AttributeValue) bool {
	b, ok := v.(*types.AttributeValueMemberB)
	return ok && len(b.Value) == 0
}

// rkQuery is a key condition with, for the brute force, each attribute's
// operator and operands.
type rkQuery struct {
	expr    string
	vals    map[string]types.AttributeValue
	terms   []rkTerm
	forward bool
}

type rkTerm struct {
	name, op string
	vals     []types.AttributeValue
}

func (sc rkSchema) randomQuery(r *rand.Rand) rkQuery {
	q := rkQuery{vals: map[string]types.AttributeValue{}, forward: r.IntN(2) == 0}
	for _, a := range sc.hashes {
		q.terms = append(q.terms, rkTerm{a.name, "=", []types.AttributeValue{rkValue(r, a.typ, true)}})
	}
	k := r.IntN(len(sc.ranges) + 1)
	for _, a := range sc.ranges[:k] {
		q.terms = append(q.terms, rkTerm{a.name, "=", []types.AttributeValue{rkValue(r, a.typ, false)}})
	}
	if k < len(sc.ranges) && r.IntN(3) > 0 {
		q.terms = append(q.terms, finalTerm(r, sc.ranges[k]))
	}
	q.writeExpr(r)
	return q
}

// finalTerm is a random condition on a; a BETWEEN's bounds are in order
// and begins_with's operand is never empty.
func finalTerm(r *rand.Rand, a rkAttr) rkTerm {
	ops := []string{"=", "<", "<=", ">", ">=", "BETWEEN"}
	if a.typ != "N" {
		ops = append(ops, "begins_with")
	}
	t := rkTerm{name: a.name, op: ops[r.IntN(len(ops))]}
	for range 1 + boolInt(t.op == "BETWEEN") {
		v := rkValue(r, a.typ, false)
		for emptyBinary(v) {
			v = rkValue(r, a.typ, false)
		}
		t.vals = append(t.vals, v)
	}
	slices.SortFunc(t.vals, compareAV)
	return t
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// writeExpr writes the terms in a random order, as DynamoDB allows.
func (q *rkQuery) writeExpr(r *rand.Rand) {
	var parts []string
	for _, t := range q.terms {
		var ph []string
		for _, v := range t.vals {
			p := fmt.Sprintf(":v%d", len(q.vals))
			q.vals[p], ph = v, append(ph, p)
		}
		switch t.op {
		case "BETWEEN":
			parts = append(parts, fmt.Sprintf("%s BETWEEN %s AND %s", t.name, ph[0], ph[1]))
		case "begins_with":
			parts = append(parts, fmt.Sprintf("begins_with(%s, %s)", t.name, ph[0]))
		default:
			parts = append(parts, fmt.Sprintf("%s %s %s", t.name, t.op, ph[0]))
		}
	}
	r.Shuffle(len(parts), func(i, j int) { parts[i], parts[j] = parts[j], parts[i] })
	q.expr = strings.Join(parts, " AND ")
}

// run reads every page of q, limit items a page.
func (q rkQuery) run(t *testing.T, c *dynamodb.Client, limit int32) []string {
	t.Helper()
	in := &dynamodb.QueryInput{TableName: aws.String("rnd"), IndexName: aws.String("rgx"), KeyConditionExpression: &q.expr,
		ExpressionAttributeValues: q.vals, ScanIndexForward: &q.forward, Limit: &limit}
	got := []string{}
	for {
		out, err := c.Query(ctx, in)
		if err != nil {
			t.Fatalf("%s: %v", q.expr, err)
		}
		got = append(got, ids(out.Items)...)
		if out.LastEvaluatedKey == nil {
			return got
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// expected filters the items in the index by q and sorts them by the
// RANGE attributes, then the table key.
func (sc rkSchema) expected(items []map[string]types.AttributeValue, q rkQuery) []string {
	var out []map[string]types.AttributeValue
	for _, it := range items {
		if len(it) == len(sc.all())+1 && !slices.ContainsFunc(q.terms, func(t rkTerm) bool { return !t.holds(it[t.name]) }) {
			out = append(out, it)
		}
	}
	slices.SortFunc(out, func(a, b map[string]types.AttributeValue) int {
		for _, k := range append(sc.ranges, rkAttr{name: "id"}) {
			if c := compareAV(a[k.name], b[k.name]); c != 0 {
				return c
			}
		}
		return 0
	})
	if !q.forward {
		slices.Reverse(out)
	}
	return ids(out)
}

func (t rkTerm) holds(v types.AttributeValue) bool {
	c := compareAV(v, t.vals[0])
	switch t.op {
	case "=":
		return c == 0
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	case ">=":
		return c >= 0
	case "BETWEEN":
		return c >= 0 && compareAV(v, t.vals[1]) <= 0
	}
	return bytes.HasPrefix(avBytes(v), avBytes(t.vals[0])) // begins_with
}

// compareAV orders two values of one type as DynamoDB does: numbers by
// value, strings and binaries by their bytes.
func compareAV(a, b types.AttributeValue) int {
	if x, ok := a.(*types.AttributeValueMemberN); ok {
		return cmp.Compare(parseN(x.Value), parseN(b.(*types.AttributeValueMemberN).Value))
	}
	return bytes.Compare(avBytes(a), avBytes(b))
}

func parseN(s string) float64 {
	f, _ := strconv.ParseFloat(s, 64) // the pool's numbers are exact in float64
	return f
}

func avBytes(v types.AttributeValue) []byte {
	if x, ok := v.(*types.AttributeValueMemberS); ok {
		return []byte(x.Value)
	}
	return v.(*types.AttributeValueMemberB).Value
}
