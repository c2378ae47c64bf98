package engine

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/expr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

var (
	tableKey = testKey("pk S", "sk S")
	numKey   = testKey("pk S", "n N")
	hashOnly = testKey("pk N")
)

// testKey is the key schema of HASH elements then RANGE ones, each "name
// type"; a "|" separates the HASH elements from the RANGE ones when there
// are several HASH ones.
func testKey(elems ...string) keySchema {
	var ks []protocol.KeySchemaElement
	var defs []protocol.AttributeDefinition
	kt := "HASH"
	for i, e := range elems {
		if e == "|" {
			kt = "RANGE"
			continue
		}
		if i == 1 && !slices.Contains(elems, "|") {
			kt = "RANGE"
		}
		name, typ, _ := strings.Cut(e, " ")
		kt := kt
		ks = append(ks, protocol.KeySchemaElement{AttributeName: &name, KeyType: &kt})
		defs = append(defs, protocol.AttributeDefinition{AttributeName: &name, AttributeType: &typ})
	}
	return schemaOf(ks, defs)
}

// keyValues are the values every key condition test may use.
var keyValues = attr.Item{
	":p": attr.Str("a"), ":s": attr.Str("x"), ":t": attr.Str("y"),
	":n": attr.Num("1"), ":m": attr.Num("2"), ":b": attr.Bin([]byte{1}),
}

func parseKey(t *testing.T, s string) expr.Cond {
	t.Helper()
	c, err := expr.NewAttrs(map[string]string{"#d": "pk"}, keyValues).ParseCondition(expr.KeyCondition, s)
	if err != nil {
		t.Fatalf("parse %q: %v", s, err)
	}
	return c
}

func wantValidation(t *testing.T, err error, want string) {
	t.Helper()
	var e *apierr.Error
	if !errors.As(err, &e) || e.Code != apierr.Validation || e.Message != want {
		t.Fatalf("got %v\nwant ValidationException %q", err, want)
	}
}

func TestAnalyzeKeyCond(t *testing.T) {
	s, x, y := attr.Str("a"), attr.Str("x"), attr.Str("y")
	tests := []struct {
		expr string
		key  keySchema
		want keyCond
	}{
		{"pk = :p", tableKey, keyCond{hash: []attr.Value{s}}},
		{":p = pk", tableKey, keyCond{hash: []attr.Value{s}}},
		{"#d = :p", tableKey, keyCond{hash: []attr.Value{s}}},
		{"pk = :n", hashOnly, keyCond{hash: []attr.Value{attr.Num("1")}}},
		{"pk = :p AND sk = :s", tableKey, keyCond{hash: []attr.Value{s}, sortOp: "=", sortVals: []attr.Value{x}}},
		{"sk < :s AND pk = :p", tableKey, keyCond{hash: []attr.Value{s}, sortOp: "<", sortVals: []attr.Value{x}}},
		{"pk = :p AND sk <= :s", tableKey, keyCond{hash: []attr.Value{s}, sortOp: "<=", sortVals: []attr.Value{x}}},
		{"pk = :p AND sk > :s", tableKey, keyCond{hash: []attr.Value{s}, sortOp: ">", sortVals: []attr.Value{x}}},
		{"pk = :p AND sk >= :s", tableKey, keyCond{hash: []attr.Value{s}, sortOp: ">=", sortVals: []attr.Value{x}}},
		{"pk = :p AND :s < sk", tableKey, keyCond{hash: []attr.Value{s}, sortOp: ">", sortVals: []attr.Value{x}}},
		{"pk = :p AND :s <= sk", tableKey, keyCond{hash: []attr.Value{s}, sortOp: ">=", sortVals: []attr.Value{x}}},
		{"pk = :p AND :s > sk", tableKey, keyCond{hash: []attr.Value{s}, sortOp: "<", sortVals: []attr.Value{x}}},
		{"pk = :p AND :s >= sk", tableKey, keyCond{hash: []attr.Value{s}, sortOp: "<=", sortVals: []attr.Value{x}}},
		{"pk = :p AND sk BETWEEN :s AND :t", tableKey, keyCond{hash: []attr.Value{s}, sortOp: "BETWEEN", sortVals: []attr.Value{x, y}}},
		{"(pk = :p) AND (begins_with(sk, :s))", tableKey, keyCond{hash: []attr.Value{s}, sortOp: "begins_with", sortVals: []attr.Value{x}}},
		{"pk = :p AND n BETWEEN :n AND :m", numKey, keyCond{hash: []attr.Value{s}, sortOp: "BETWEEN", sortVals: []attr.Value{attr.Num("1"), attr.Num("2")}}},
	}
	for _, tc := range tests {
		t.Run(tc.expr, func(t *testing.T) {
			got, err := analyzeKeyCond(parseKey(t, tc.expr), tc.key)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestAnalyzeKeyCondErrors(t *testing.T) {
	const (
		missed   = "Query condition missed key schema element: pk"
		notSupp  = "Query key condition not supported"
		twice    = "KeyConditionExpressions must only contain one condition per key"
		nested   = "Invalid KeyConditionExpression: KeyConditionExpressions cannot have conditions on nested attributes"
		mismatch = "One or more parameter values were invalid: Condition parameter type does not match schema type"
	)
	tests := []struct {
		expr string
		key  keySchema
		want string
	}{
		{"sk = :s", tableKey, missed},
		{"foo = :p", tableKey, missed},
		{"sk = :s AND foo = :p", tableKey, missed},
		{"pk = :p AND foo = :s", tableKey, notSupp},
		{"pk = :n AND sk = :s", hashOnly, notSupp},
		{"pk < :p", tableKey, notSupp},
		{"pk BETWEEN :p AND :s", tableKey, notSupp},
		{"begins_with(pk, :p)", tableKey, notSupp},
		{"pk = :p AND pk = :s", tableKey, twice},
		{"pk = :p AND sk > :s AND sk < :t", tableKey, twice},
		{"pk = sk", tableKey, notSupp},
		{":p = :s", tableKey, notSupp},
		{"pk.a = :p", tableKey, nested},
		{"pk = :p AND sk[0] = :s", tableKey, nested},
		{"pk = :p AND begins_with(sk.x, :s)", tableKey, nested},
		{"#d.x = :p", tableKey, nested},
		{"pk = :n", tableKey, mismatch},
		{"pk = :p", hashOnly, mismatch},
		{"pk = :p AND sk > :n", tableKey, mismatch},
		{"pk = :p AND sk BETWEEN :s AND :n", tableKey, mismatch},
		{"pk = :p AND begins_with(sk, :b)", tableKey, mismatch},
		{"pk = :p AND begins_with(n, :n)", numKey,
			"Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N"},
		{"pk = :p AND begins_with(n, :s)", numKey, mismatch},
	}
	for _, tc := range tests {
		t.Run(tc.expr, func(t *testing.T) {
			c := parseKey(t, tc.expr)
			err := keyNotNested(c)
			if err == nil {
				_, err = analyzeKeyCond(c, tc.key)
			}
			wantValidation(t, err, tc.want)
		})
	}
}

func cond(op string, vals ...attr.Value) protocol.Condition {
	return protocol.Condition{ComparisonOperator: &op, AttributeValueList: vals}
}

func TestLegacyKeyConditions(t *testing.T) {
	s, x, y := attr.Str("a"), attr.Str("x"), attr.Str("y")
	ok := []struct {
		name string
		m    map[string]protocol.Condition
		key  keySchema
		want keyCond
	}{
		{"hash", map[string]protocol.Condition{"pk": cond("EQ", s)}, tableKey, keyCond{hash: []attr.Value{s}}},
		{"LT", map[string]protocol.Condition{"pk": cond("EQ", s), "sk": cond("LT", x)}, tableKey,
			keyCond{hash: []attr.Value{s}, sortOp: "<", sortVals: []attr.Value{x}}},
		{"GE", map[string]protocol.Condition{"pk": cond("EQ", s), "sk": cond("GE", x)}, tableKey,
			keyCond{hash: []attr.Value{s}, sortOp: ">=", sortVals: []attr.Value{x}}},
		{"BEGINS_WITH", map[string]protocol.Condition{"pk": cond("EQ", s), "sk": cond("BEGINS_WITH", x)}, tableKey,
			keyCond{hash: []attr.Value{s}, sortOp: "begins_with", sortVals: []attr.Value{x}}},
		{"BETWEEN", map[string]protocol.Condition{"pk": cond("EQ", s), "sk": cond("BETWEEN", x, y)}, tableKey,
			keyCond{hash: []attr.Value{s}, sortOp: "BETWEEN", sortVals: []attr.Value{x, y}}},
	}
	for _, tc := range ok {
		t.Run(tc.name, func(t *testing.T) {
			c, err := legacyConditions(tc.m, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := analyzeKeyCond(c, tc.key)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
	bad := []struct {
		name string
		m    map[string]protocol.Condition
		key  keySchema
		want string
	}{
		{"NE on sort key", map[string]protocol.Condition{"pk": cond("EQ", s), "sk": cond("NE", x)}, tableKey,
			"Attempted conditional constraint is not an indexable operation"},
		{"IN on sort key", map[string]protocol.Condition{"pk": cond("EQ", s), "sk": cond("IN", x)}, tableKey,
			"Attempted conditional constraint is not an indexable operation"},
		{"NULL on sort key", map[string]protocol.Condition{"pk": cond("EQ", s), "sk": cond("NOT_NULL")}, tableKey,
			"Attempted conditional constraint is not an indexable operation"},
		{"NOT_CONTAINS on sort key", map[string]protocol.Condition{"pk": cond("EQ", s), "sk": cond("NOT_CONTAINS", x)}, tableKey,
			"Attempted conditional constraint is not an indexable operation"},
		{"GT on hash key", map[string]protocol.Condition{"pk": cond("GT", s)}, tableKey, "Query key condition not supported"},
		{"missing hash", map[string]protocol.Condition{"sk": cond("EQ", x)}, tableKey, "Query condition missed key schema element: pk"},
		{"BEGINS_WITH on number", map[string]protocol.Condition{"pk": cond("EQ", s), "n": cond("BEGINS_WITH", attr.Num("1"))}, numKey,
			"One or more parameter values were invalid: ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type"},
		{"argument count", map[string]protocol.Condition{"pk": cond("EQ", s), "sk": cond("BETWEEN", x)}, tableKey,
			"One or more parameter values were invalid: Invalid number of argument(s) for the BETWEEN ComparisonOperator"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			c, err := legacyConditions(tc.m, nil)
			if err == nil {
				_, err = analyzeKeyCond(c, tc.key)
			}
			wantValidation(t, err, tc.want)
		})
	}
}

func TestLegacyConditions(t *testing.T) {
	if c, err := legacyConditions(nil, nil); c != nil || err != nil {
		t.Fatalf("nil map: got %v, %v", c, err)
	}
	or := "OR"
	m := map[string]protocol.Condition{"b": cond("NULL"), "a": cond("EQ", attr.Num("1"))}
	c, err := legacyConditions(m, &or)
	if err != nil {
		t.Fatal(err)
	}
	o, ok := c.(*expr.OrCond)
	if !ok {
		t.Fatalf("got %T, want *expr.OrCond", c)
	}
	if l, ok := o.L.(*expr.CompareCond); !ok || l.Op != "=" {
		t.Fatalf("left: got %#v, want a = comparison on a", o.L)
	}
	if r, ok := o.R.(*expr.FuncCond); !ok || r.Func != "attribute_not_exists" {
		t.Fatalf("right: got %#v, want attribute_not_exists(b)", o.R)
	}
	c, err = legacyConditions(m, nil)
	if _, ok := c.(*expr.AndCond); err != nil || !ok {
		t.Fatalf("AND: got %T, %v", c, err)
	}
}
