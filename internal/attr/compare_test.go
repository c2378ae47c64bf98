package attr

import "testing"

func TestCompare(t *testing.T) {
	tests := []struct {
		a, b Value
		want int
		ok   bool
	}{
		{Str("a"), Str("b"), -1, true},
		{Str("b"), Str("a"), 1, true},
		{Str("a"), Str("a"), 0, true},
		{Str("a"), Str("ab"), -1, true},
		{Str("Z"), Str("a"), -1, true},
		{Str("é"), Str("z"), 1, true}, // UTF-8 bytes, not code points or collation
		{Num("2"), Num("10"), -1, true},
		{Num("1"), Num("1.0"), 0, true},
		{Num("-1"), Num("-10"), 1, true},
		{Num("-0.5"), Num("0"), -1, true},
		{Num("0"), Num("-0"), 0, true},
		{Num("1E-130"), Num("0"), 1, true},
		{Num("0.12"), Num("0.123"), -1, true},
		{Num("-0.12"), Num("-0.123"), 1, true},
		{Num("99"), Num("1E2"), -1, true},
		{Bin([]byte{0x01}), Bin([]byte{0xFF}), -1, true},
		{Bin([]byte{}), Bin([]byte{0}), -1, true},
		{Str("1"), Num("1"), 0, false},
		{Bool(true), Bool(true), 0, false},
		{Num("x"), Num("1"), 0, false},
	}
	for _, tt := range tests {
		got, ok := Compare(&tt.a, &tt.b)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Compare(%s, %s) = %d, %v; want %d, %v",
				AppendJSON(nil, &tt.a), AppendJSON(nil, &tt.b), got, ok, tt.want, tt.ok)
		}
	}
}

func TestEqual(t *testing.T) {
	m := func(kv ...any) Value {
		out := map[string]Value{}
		for i := 0; i < len(kv); i += 2 {
			out[kv[i].(string)] = kv[i+1].(Value)
		}
		return Value{M: out}
	}
	tests := []struct {
		a, b Value
		want bool
	}{
		{Str("a"), Str("a"), true},
		{Str("a"), Str("b"), false},
		{Num("1.0"), Num("1"), true},
		{Str("1"), Num("1"), false},
		{Bin([]byte("x")), Bin([]byte("x")), true},
		{Bool(true), Bool(false), false},
		{Null(), Null(), true},
		{Value{SS: []string{"a", "b"}}, Value{SS: []string{"b", "a"}}, true},
		{Value{SS: []string{"a", "b"}}, Value{SS: []string{"a", "c"}}, false},
		{Value{SS: []string{"a"}}, Value{SS: []string{"a", "b"}}, false},
		{Value{NS: []string{"1", "2.50"}}, Value{NS: []string{"2.5", "1.0"}}, true},
		{Value{BS: [][]byte{{1}, {2}}}, Value{BS: [][]byte{{2}, {1}}}, true},
		{Value{SS: []string{"a"}}, Value{NS: []string{"1"}}, false},
		{Value{L: []Value{Num("1"), Str("x")}}, Value{L: []Value{Num("1.0"), Str("x")}}, true},
		{Value{L: []Value{Num("1"), Str("x")}}, Value{L: []Value{Str("x"), Num("1")}}, false},
		{Value{L: []Value{}}, Value{L: []Value{}}, true},
		{m("a", Num("1"), "b", m("c", Str("d"))), m("b", m("c", Str("d")), "a", Num("1.00")), true},
		{m("a", Num("1")), m("b", Num("1")), false},
		{m("a", Num("1")), m("a", Num("1"), "b", Null()), false},
		{Value{}, Value{}, false},
	}
	for _, tt := range tests {
		if got := Equal(&tt.a, &tt.b); got != tt.want {
			t.Errorf("Equal(%s, %s) = %v", AppendJSON(nil, &tt.a), AppendJSON(nil, &tt.b), got)
		}
		if got := Equal(&tt.b, &tt.a); got != tt.want {
			t.Errorf("Equal(%s, %s) = %v (reversed)", AppendJSON(nil, &tt.b), AppendJSON(nil, &tt.a), got)
		}
	}
}
