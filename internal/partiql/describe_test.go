package partiql

import (
	"reflect"
	"testing"

	"github.com/sortkeydb/sortkey/internal/attr"
)

func TestPartitionValues(t *testing.T) {
	s := func(v string) attr.Value { return attr.Value{S: &v} }
	cases := []struct {
		stmt string
		want []attr.Value
		ok   bool
	}{
		{`SELECT * FROM "T" WHERE pk = 'a' AND x > 1`, []attr.Value{s("a")}, true},
		{`SELECT * FROM "T" WHERE x > 1 AND 'a' = pk`, []attr.Value{s("a")}, true},
		{`SELECT * FROM "T" WHERE pk IN ['a', 'b']`, []attr.Value{s("a"), s("b")}, true},
		{`SELECT * FROM "T" WHERE pk = 'a' OR (pk = 'b' OR pk = 'c')`, []attr.Value{s("a"), s("b"), s("c")}, true},
		{`SELECT * FROM "T" WHERE pk = 'a' OR x = 1`, nil, false},
		{`SELECT * FROM "T" WHERE pk > 'a'`, nil, false},
		{`SELECT * FROM "T"`, nil, false},
		{`INSERT INTO "T" VALUE {'pk': 'a'}`, []attr.Value{s("a")}, true},
		{`INSERT INTO "T" VALUE {'x': 'a'}`, nil, false},
	}
	for _, tc := range cases {
		st, err := Parse(tc.stmt, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.stmt, err)
		}
		got, ok := st.PartitionValues("pk")
		if ok != tc.ok || (ok && !reflect.DeepEqual(got, tc.want)) {
			t.Errorf("%s: got %v, %v; want %v, %v", tc.stmt, got, ok, tc.want, tc.ok)
		}
	}
}

func TestAttributeNames(t *testing.T) {
	cases := map[string][]string{
		`SELECT a, b.c FROM "T" WHERE pk = 'x' AND size(d) > 1 ORDER BY sk`:            {"a", "b", "d", "pk", "sk"},
		`UPDATE "T" SET a = b + 1 SET l = list_append(l, [1]) REMOVE c WHERE pk = 'x'`: {"a", "b", "c", "l", "pk"},
		`INSERT INTO "T" VALUE {'pk': 'x', 'z': 1}`:                                    {"pk", "z"},
		`SELECT * FROM "T"`: nil,
	}
	for src, want := range cases {
		st, err := Parse(src, nil)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if got := st.AttributeNames(); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %q, want %q", src, got, want)
		}
	}
}
