package attr

import (
	"encoding/json"
	"testing"
)

func TestAppendJSON(t *testing.T) {
	tests := []struct {
		v    Value
		want string
	}{
		{Str("x"), `{"S":"x"}`},
		{Str(""), `{"S":""}`},
		{Str("q\"\\\n\r\t\x01</>&é\u2028"), `{"S":"q\"\\\n\r\t\u0001</>&é\u2028"}`},
		{Str("bad\xffutf8\uFFFD"), `{"S":"bad\ufffdutf8` + "\uFFFD" + `"}`},
		{Num("-1.5"), `{"N":"-1.5"}`},
		{Bin([]byte{0, 1, 255}), `{"B":"AAH/"}`},
		{Bin([]byte{}), `{"B":""}`},
		{Bool(false), `{"BOOL":false}`},
		{Null(), `{"NULL":true}`},
		{Value{L: []Value{}}, `{"L":[]}`},
		{Value{M: map[string]Value{}}, `{"M":{}}`},
		{Value{L: []Value{Num("1"), Str("a")}}, `{"L":[{"N":"1"},{"S":"a"}]}`},
		{Value{M: map[string]Value{"b": Null(), "a": {L: []Value{}}}}, `{"M":{"a":{"L":[]},"b":{"NULL":true}}}`},
		{Value{SS: []string{"a", "b"}}, `{"SS":["a","b"]}`},
		{Value{NS: []string{"1", "2"}}, `{"NS":["1","2"]}`},
		{Value{BS: [][]byte{{1}, {}}}, `{"BS":["AQ==",""]}`},
		{Value{}, `{}`},
	}
	for _, tt := range tests {
		got := string(AppendJSON(nil, &tt.v))
		if got != tt.want {
			t.Errorf("got  %s\nwant %s", got, tt.want)
		}
		if !json.Valid([]byte(got)) {
			t.Errorf("invalid JSON: %s", got)
		}
	}
}

func TestJSONRoundTrip(t *testing.T) {
	in := `{"b":{"B":""},"bs":{"BS":["AQ==","Ag=="]},"l":{"L":[]},"m":{"M":{}},"n":{"N":"-0.5"},` +
		`"nest":{"M":{"x":{"L":[{"NULL":true},{"BOOL":true},{"SS":["a"]}]}}},"ns":{"NS":["1","2"]},"s":{"S":"\u0000é\""}}`
	var it Item
	if err := json.Unmarshal([]byte(in), &it); err != nil {
		t.Fatal(err)
	}
	if err := ValidateItem(it); err != nil {
		t.Fatalf("ValidateItem: %v", err)
	}
	for name, k := range map[string]Kind{"b": B, "l": L, "m": M, "bs": BS} {
		v := it[name]
		if v.Kind() != k {
			t.Errorf("%s decoded as kind %v, want %v", name, v.Kind(), k)
		}
	}
	// encoding/json must pick up the value-receiver MarshalJSON inside maps.
	out, err := json.Marshal(it)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != in {
		t.Errorf("round trip\n got %s\nwant %s", out, in)
	}
	wrapped, _ := json.Marshal(map[string]any{"Item": it})
	if string(wrapped) != `{"Item":`+in+`}` {
		t.Errorf("wrapped: %s", wrapped)
	}
}

func TestItemJSONNil(t *testing.T) {
	if got := string(AppendItemJSON(nil, nil)); got != "null" {
		t.Errorf("nil item = %s", got)
	}
}

func FuzzValueJSON(f *testing.F) {
	for _, s := range []string{`{"S":"x"}`, `{"N":"1e5"}`, `{"M":{"a":{"L":[{"NS":["1","1.0"]}]}}}`, `{"B":""}`, `{"BS":["AQ=="]}`, `{}`, `{"NULL":false}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v Value
		if json.Unmarshal(data, &v) != nil {
			return
		}
		if v.Validate() != nil {
			return
		}
		// A valid value survives encode, decode, validate unchanged.
		enc := AppendJSON(nil, &v)
		var back Value
		if err := json.Unmarshal(enc, &back); err != nil {
			t.Fatalf("re-decode %s: %v", enc, err)
		}
		if err := back.Validate(); err != nil || !Equal(&v, &back) {
			t.Fatalf("round trip %s: %v", enc, err)
		}
		_ = v.Size()
		_ = AppendItem(nil, Item{"a": v})
	})
}
