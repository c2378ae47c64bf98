package expr

import (
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey/internal/attr"
)

func TestCondPaths(t *testing.T) {
	vals := attr.Item{":v": attr.Num("1"), ":s": attr.Str("x")}
	for src, want := range map[string]string{
		"a = :v":                  "a",
		"a.b[1] BETWEEN :v AND c": "a.b[1] c",
		"NOT (x IN (:v, y)) OR size(z) > :v AND q = :v": "x y z q",
		"attribute_exists(m.n) AND begins_with(s, :s)":  "m.n s",
		"contains(#n, :s)": "name",
	} {
		c, err := NewAttrs(map[string]string{"#n": "name"}, vals).ParseCondition(Filter, src)
		if err != nil {
			t.Fatal(src, err)
		}
		var got []string
		for _, p := range CondPaths(c) {
			got = append(got, p.String())
		}
		if strings.Join(got, " ") != want {
			t.Errorf("CondPaths(%q) = %v, want %s", src, got, want)
		}
	}
}
