package design

import (
	"reflect"
	"testing"
)

func TestTemplateParts(t *testing.T) {
	cases := []struct {
		tmpl Template
		want []Part
		err  error
	}{
		{"U#{userId}#O", []Part{{Literal: "U#"}, {Var: "userId"}, {Literal: "#O"}}, nil},
		{"U", []Part{{Literal: "U"}}, nil},
		{"{id}", []Part{{Var: "id"}}, nil},
		{"", nil, nil},
		{"U#{userId", nil, errUnclosed},
		{"U#}x", nil, errUnopened},
		{"U#{}", nil, errEmptyVar},
		{"{a}{b}", nil, errAdjacent},
		{"{a{b}", nil, errNestedVar},
	}
	for _, c := range cases {
		got, err := c.tmpl.Parts()
		if err != c.err || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: got %v, %v; want %v, %v", c.tmpl, got, err, c.want, c.err)
		}
	}
}

func TestTemplateMatch(t *testing.T) {
	cases := []struct {
		tmpl  Template
		value string
		want  map[string]string
	}{
		{"U#{userId}#O", "U#550e#O", map[string]string{"userId": "550e"}},
		{"U#{userId}#O", "U#550e#R", nil},
		{"U#{userId}", "U#550e#O", map[string]string{"userId": "550e#O"}},
		{"O#{orderId}#{line}", "O#01J#001", map[string]string{"orderId": "01J", "line": "001"}},
		{"U", "U", map[string]string{}},
		{"U", "UU", nil},
		{"a.b{x}", "aXb1", nil},
		{"{x}", "", nil},
	}
	for _, c := range cases {
		got, ok := c.tmpl.Match(c.value)
		if ok != (c.want != nil) || ok && !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q.Match(%q) = %v %v, want %v", c.tmpl, c.value, got, ok, c.want)
		}
	}
	if Template("U#{userId}#O").Prefix() != "U#" || !Template("U").Constant() || Template("{a}").Constant() {
		t.Error("Prefix or Constant")
	}
	if got := Template("U#{a}#{b}").Vars(); !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Errorf("Vars = %v", got)
	}
}
