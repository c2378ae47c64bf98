package attr

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// jsonCases are bodies for Item (and, inside them, Value) on which the
// decoder must agree with encoding/json's reflection over PlainValue.
var jsonCases = []string{
	`{}`, `null`, ` {"a" : {"S" : "x"} } `, `{"a":{"S":"x"},"b":{"N":"-1.5e3"},"c":{"BOOL":false},"d":{"NULL":true}}`,
	`{"a":{"M":{}},"b":{"L":[]},"c":{"SS":[]},"d":{"NS":[]},"e":{"BS":[]},"f":{"B":""}}`,
	`{"a":{"B":"AAEC"},"b":{"B":"AA\nEC"},"c":{"B":"!!"},"d":{"B":[1,2,255]},"e":{"B":[256]},"f":{"B":[-1]}}`,
	`{"a":{"B":[1.5]}}`, `{"a":{"B":[null,"x"]}}`, `{"a":{"B":[true]}}`, `{"a":{"B":[[1]]}}`, `{"a":{"B":[{}]}}`,
	`{"a":{"BS":["AA==",[1,2],null]}}`, `{"a":{"BS":["AA==","***"]}}`, `{"a":{"BS":[1]}}`,
	`{"a":{"s":"x","bool":true,"Null":true,"nS":["1"],"ss":["a"],"bs":[],"m":{},"l":[]}}`,
	`{"a":{"ſ":"x","ſſ":["y"],"Nſ":["1"],"Bſ":[],"K":1}}`, `{"a":{"\u0053":"x","\u0073\u0073":["a"]}}`,
	`{"a":{"X":{"S":1},"S":"x","Other":[1,{"a":"]"}]}}`,
	`{"a":{"S":"x","S":null},"b":{"S":"x","N":"1"},"c":{"M":{"x":{"S":"1"}},"M":{"y":{"S":"2"}}}}`,
	`{"a":{"L":[{"S":"x"},{"N":"1"}],"L":[{"N":"2"}]},"b":{"L":[{"S":"a"},{"S":"b"}],"L":[],"L":[{"S":"c"}]}}`,
	`{"a":{"L":[{"S":"a"},{"S":"b"},{"S":"c"}],"L":[{"N":"1"}],"L":[null,{"N":"2"},null]}}`,
	`{"a":{"SS":["a","b"],"SS":[null,null,null]},"b":{"B":[1,2],"B":[null]},"c":{"BS":[[1,2]],"BS":[[null,null]]}}`,
	`{"a":{"M":null,"L":null,"SS":null,"NS":null,"BS":null,"B":null,"BOOL":null,"NULL":null,"N":null}}`,
	`{"a":null,"b":{"L":[null,{}]},"c":{"M":{"x":null}}}`, `{"a":{"S":"x"},"a":{"N":"1"}}`,
	`{"a":{"S":1}}`, `{"a":{"S":true}}`, `{"a":{"S":{}}}`, `{"a":{"S":[]}}`, `{"a":{"BOOL":"true"}}`,
	`{"a":{"M":[]}}`, `{"a":{"M":"x"}}`, `{"a":{"L":{}}}`, `{"a":{"SS":"x"}}`, `{"a":{"SS":[1]}}`, `{"a":{"NS":[{}]}}`,
	`{"a":"x"}`, `{"a":1}`, `{"a":true}`, `{"a":[]}`, `"x"`, `1`, `true`, `[]`, `[{"S":"x"}]`,
	`{"a":{"M":{"b":{"L":[{"M":{"c":{"S":1}}}]}}}}`, `{"a":{"L":[{"L":["x"]}]}}`, `{"a":{"M":{"b":"x"}}}`,
	`{"a":{"S":1,"N":true}}`, `{"a":{"B":"!!","S":1}}`, `{"a":{"S":1,"B":"!!"}}`, `{"a":{"S":1}, "b":{"B":"!"}}`,
	`{"a":{"S":"\u00e9\ud83d\ude00\ud83d\u0041\udc00x\"\\\/\b\f\n\r\t"}}`, "{\"a\":{\"S\":\"\xff\xfe\xed\xa0\x80ok\"}}",
	`{"\u00e9\ud800":{"S":"\ud800\ud800"}}`, "{\"k\xff\":{\"S\":\"\xc5\"}}", `{"a":{"NULL":true,"M":{"b":{"NULL":false}}}}`,
	`{"a":{"N":"1"}}x`, `{"a":{"S":"x"}`, `{"a":{"S":"x\q"}}`, `{"a":{"S":"\ud800"}}`, `{"a":{"S":"\u12"}}`,
}

func TestUnmarshalJSONMatchesReflection(t *testing.T) {
	for _, c := range jsonCases {
		checkAgainstReflection(t, []byte(c))
	}
}

func TestUnmarshalJSONShapes(t *testing.T) {
	var it Item
	body := `{"l":{"L":[]},"m":{"M":{}},"b":{"B":""},"s":{"S":"\ud83d\ude00"}}`
	if err := json.Unmarshal([]byte(body), &it); err != nil {
		t.Fatal(err)
	}
	if it["l"].L == nil || it["m"].M == nil || it["b"].B == nil || *it["s"].S != "😀" {
		t.Fatalf("got %+v", it)
	}
	for _, k := range []string{"l", "m", "b", "s"} {
		v := it[k]
		if v.Kind() == Invalid {
			t.Errorf("%s: no kind", k)
		}
	}
}

func TestUnmarshalJSONTypeErrorField(t *testing.T) {
	var in struct{ Item Item }
	err := json.Unmarshal([]byte(`{"Item":{"a":{"M":{"b":{"L":[{"S":1}]}}}}}`), &in)
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Value != "number" || te.Field != "Item.M.L.S" {
		t.Fatalf("got %#v", err)
	}
}

func TestUnmarshalJSONDeepNesting(t *testing.T) {
	for _, depth := range []int{4000, 6000, 20000} {
		body := `{"a":` + strings.Repeat(`{"L":[`, depth) + strings.Repeat(`]}`, depth) + `}`
		checkAgainstReflection(t, []byte(body))
		var it Item
		if err := it.UnmarshalJSON([]byte(body)); (err != nil) != (2*depth+1 > maxJSONDepth) {
			t.Errorf("depth %d, direct call: %v", depth, err)
		}
	}
}

func FuzzUnmarshalJSON(f *testing.F) {
	for _, c := range jsonCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkAgainstReflection(t, data)
	})
}

// checkAgainstReflection decodes data as an Item, as a Value and as a
// list of Values, once into a zero target and once more into what that
// left, both ways, and fails on any difference.
func checkAgainstReflection(t *testing.T, data []byte) {
	t.Helper()
	var it Item
	var pit map[string]PlainValue
	compare(t, data, &it, &pit, func() any { return itemOf(pit) })
	var v Value
	var pv PlainValue
	compare(t, data, &v, &pv, func() any { return valueOf(pv) })
	var l []Value
	var pl []PlainValue
	compare(t, data, &l, &pl, func() any { return listOf(pl) })
	var direct Item
	if err := direct.UnmarshalJSON(data); json.Valid(data) && !sameError(err, json.Unmarshal(data, new(map[string]PlainValue))) {
		t.Fatalf("%q: direct call gave %v", data, err)
	}
}

func compare(t *testing.T, data []byte, got, ref any, want func() any) {
	t.Helper()
	for range 2 {
		errGot, errWant := json.Unmarshal(data, got), json.Unmarshal(data, ref)
		if !sameError(errGot, errWant) {
			t.Fatalf("%q into %T: error %#v, encoding/json gives %#v", data, got, errGot, errWant)
		}
		if errGot != nil {
			return
		}
		if g, w := reflect.ValueOf(got).Elem().Interface(), want(); !reflect.DeepEqual(g, w) {
			t.Fatalf("%q into %T:\n got %#v\nwant %#v", data, got, g, w)
		}
	}
}

// sameError compares what protocol.Decode reads from an error.
func sameError(a, b error) bool {
	var ta, tb *json.UnmarshalTypeError
	var ba, bb base64.CorruptInputError
	var sa, sb *json.SyntaxError
	switch {
	case a == nil || b == nil:
		return a == nil && b == nil
	case errors.As(a, &ta) || errors.As(b, &tb):
		return errors.As(a, &ta) && errors.As(b, &tb) && ta.Value == tb.Value && ta.Field == tb.Field
	case errors.As(a, &ba) || errors.As(b, &bb):
		return errors.As(a, &ba) && errors.As(b, &bb) && ba == bb
	case errors.As(a, &sa) || errors.As(b, &sb):
		return errors.As(a, &sa) && errors.As(b, &sb) && sa.Error() == sb.Error()
	}
	return true
}

func valueOf(p PlainValue) Value {
	return Value{S: p.S, N: p.N, B: p.B, BOOL: p.BOOL, NULL: p.NULL,
		M: mapOf(p.M), L: listOf(p.L), SS: p.SS, NS: p.NS, BS: p.BS}
}

func itemOf(m map[string]PlainValue) Item { return mapOf(m) }

func mapOf(m map[string]PlainValue) map[string]Value {
	if m == nil {
		return nil
	}
	out := make(map[string]Value, len(m))
	for k, v := range m {
		out[k] = valueOf(v)
	}
	return out
}

func listOf(l []PlainValue) []Value {
	if l == nil {
		return nil
	}
	out := make([]Value, len(l))
	for i, v := range l {
		out[i] = valueOf(v)
	}
	return out
}
