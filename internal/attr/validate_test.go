package attr

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// fromJSON decodes wire JSON the way the protocol layer will.
func fromJSON(t testing.TB, s string) Value {
	t.Helper()
	var v Value
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("unmarshal %s: %v", s, err)
	}
	return v
}

// nested wraps a scalar in depth maps.
func nested(depth int) string {
	return strings.Repeat(`{"M":{"a":`, depth) + `{"S":"x"}` + strings.Repeat(`}}`, depth)
}

func TestValidate(t *testing.T) {
	const invalid = "One or more parameter values were invalid: "
	tests := []struct {
		name, in, want string
	}{
		{"string", `{"S":"x"}`, ""},
		{"empty string", `{"S":""}`, ""},
		{"empty binary", `{"B":""}`, ""},
		{"bool", `{"BOOL":false}`, ""},
		{"null", `{"NULL":true}`, ""},
		{"empty list", `{"L":[]}`, ""},
		{"empty map", `{"M":{}}`, ""},
		{"set with empty string", `{"SS":[""]}`, ""},
		{"nothing", `{}`, "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"},
		{"null S", `{"S":null}`, "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"},
		{"two types", `{"S":"x","N":"1"}`, "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes"},
		{"null false", `{"NULL":false}`, invalid + "Null attribute value types must have the value of true"},
		{"empty SS", `{"SS":[]}`, invalid + "An string set  may not be empty"},
		{"empty NS", `{"NS":[]}`, invalid + "An number set  may not be empty"},
		{"empty BS", `{"BS":[]}`, invalid + "Binary sets should not be empty"},
		{"dup SS", `{"SS":["a","a"]}`, invalid + "Input collection [a, a] contains duplicates."},
		{"dup SS 3", `{"SS":["0","1","0"]}`, invalid + "Input collection [0, 1, 0] contains duplicates."},
		{"dup NS numeric", `{"NS":["1","1.0"]}`, invalid + "Input collection [1, 1.0] contains duplicates."},
		{"dup BS", `{"BS":["AQ==","AQ=="]}`, invalid + "Input collection [AQ==, AQ==] contains duplicates."},
		{"bad number", `{"N":"abc"}`, "The parameter cannot be converted to a numeric value: abc"}, // facts 26.1
		{"bad NS member", `{"NS":["1","x"]}`, "The parameter cannot be converted to a numeric value: x"},
		{"precision 38+zeros", `{"N":"1234567890123456789012345678901234567800"}`, ""},
		{"precision bad", `{"N":"1234567890123456789012345678901234567891"}`, "Attempting to store more than 38 significant digits in a Number"},
		{"overflow", `{"N":"1E+126"}`, "Number overflow. Attempting to store a number with magnitude larger than supported range"},
		{"underflow", `{"N":"1E-131"}`, "Number underflow. Attempting to store a number with magnitude smaller than supported range"},
		{"nested bad", `{"L":[{"S":"x"},{"M":{"k":{"NULL":false}}}]}`, invalid + "Null attribute value types must have the value of true"},
		{"depth 31", nested(31), ""},
		{"depth 32", nested(32), "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := fromJSON(t, tt.in)
			err := v.Validate()
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("Validate(%s)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestValidateNormalizesInPlace(t *testing.T) {
	it := Item{
		"n":  Num("1.50"),
		"ns": {NS: []string{"1e2", "-0.0"}},
		"m":  {M: map[string]Value{"x": Num("007")}},
		"l":  {L: []Value{Num("2.0E1")}},
	}
	if err := ValidateItem(it); err != nil {
		t.Fatal(err)
	}
	got := string(AppendItemJSON(nil, it))
	want := `{"l":{"L":[{"N":"20"}]},"m":{"M":{"x":{"N":"7"}}},"n":{"N":"1.5"},"ns":{"NS":["0","100"]}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestValidateItemDeterministic(t *testing.T) {
	it := Item{"a": {}, "b": {NULL: new(bool)}, "c": Num("x")}
	for range 20 {
		if err := ValidateItem(it); err != errEmpty {
			t.Fatalf("err = %v, want the first name's error", err)
		}
	}
}

// TestValidateItemFirstSorted checks that the error named is the first bad
// attribute's in sorted order, as sent, whatever order the map is walked
// in and whatever members were normalized before it was found.
func TestValidateItemFirstSorted(t *testing.T) {
	item := func() Item {
		return Item{
			"a": {NS: []string{"1", "1.0"}},
			"b": {},
			"c": Num("01.50"),
			"m": {M: map[string]Value{"x": {NS: []string{"2", "02"}}, "y": Num("x"), "z": Num("3.0")}},
		}
	}
	for range 50 {
		err := ValidateItem(item())
		if err == nil || !strings.Contains(err.Error(), "[1, 1.0]") {
			t.Fatalf("err = %v, want a's duplicates as sent", err)
		}
		it := item()
		delete(it, "a")
		if err := ValidateItem(it); err != errEmpty {
			t.Fatalf("err = %v, want b's", err)
		}
		it = item()
		delete(it, "a")
		delete(it, "b")
		if err := ValidateItem(it); err == nil || !strings.Contains(err.Error(), "[2, 02]") {
			t.Fatalf("err = %v, want m.x's duplicates as sent", err)
		}
	}
}

func TestValidateLargeSetDuplicates(t *testing.T) {
	ss := make([]string, 1000)
	for i := range ss {
		ss[i] = strings.Repeat("x", i)
	}
	v := Value{SS: ss}
	if err := v.Validate(); err != nil {
		t.Fatalf("distinct: %v", err)
	}
	v.SS = append(v.SS, "xx")
	if err := v.Validate(); err == nil || !strings.Contains(err.Error(), "contains duplicates") {
		t.Fatalf("duplicate: %v", err)
	}
}

// TestValidateSortsSets pins the canonical member order: strings by code
// point, numbers by value, binaries by bytes read as signed.
func TestValidateSortsSets(t *testing.T) {
	it := Item{
		"ss": {SS: []string{"zz", "é", "9", "aa", "10", "AAA", "B", "mm", "zzz"}},
		"ns": {NS: []string{"100", "9", "1.5", "-5", "10", "0.01"}},
		"bs": {BS: [][]byte{{0x01}, {0xFF}, {0x00}, {0x80}}},
	}
	if err := ValidateItem(it); err != nil {
		t.Fatal(err)
	}
	got := string(AppendItemJSON(nil, it))
	want := `{"bs":{"BS":["gA==","/w==","AA==","AQ=="]},` +
		`"ns":{"NS":["-5","0.01","1.5","9","10","100"]},` +
		`"ss":{"SS":["10","9","AAA","B","aa","mm","zz","zzz","é"]}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// validateSorted is ValidateItem as it was: every attribute in sorted
// name order. FuzzValidateItemSameError holds the two together.
func validateSorted(it Item) error {
	for _, name := range slices.Sorted(maps.Keys(it)) {
		v := it[name]
		if err := checkName(name); err != nil {
			return err
		}
		if err := validateSortedValue(&v, 1); err != nil {
			return err
		}
	}
	return nil
}

func validateSortedValue(v *Value, depth int) error {
	if k, n := v.kinds(); n != 1 || k != M && k != L {
		return v.validate(depth) // no map inside: nothing to order
	}
	if depth > MaxDepth {
		return errDepth
	}
	for i := range v.L {
		if err := validateSortedValue(&v.L[i], depth+1); err != nil {
			return err
		}
	}
	for _, k := range slices.Sorted(maps.Keys(v.M)) {
		e := v.M[k]
		if err := validateSortedValue(&e, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// FuzzValidateItemSameError: ValidateItem names the same error as
// validating in sorted order, and normalizes a valid item the same way.
func FuzzValidateItemSameError(f *testing.F) {
	f.Add([]byte(`{"a":{"NS":["1","1.0"]},"b":{},"c":{"N":"01.50"},"m":{"M":{"x":{"NS":["2","02"]},"y":{"N":"x"}}}}`))
	f.Add([]byte(`{"l":{"L":[{"M":{"b":{"SS":[]},"a":{"N":"1e400"}}},{"N":"5"}]},"z":{"S":"x","N":"1"}}`))
	f.Add([]byte(`{"":{"S":"x"},"a":{"NULL":false},"b":{"BS":["AA==","AA=="]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var a, b Item
		if a.UnmarshalJSON(data) != nil || b.UnmarshalJSON(data) != nil {
			return
		}
		errA, errB := ValidateItem(a), validateSorted(b)
		if fmt.Sprint(errA) != fmt.Sprint(errB) {
			t.Fatalf("ValidateItem: %v\nsorted:       %v", errA, errB)
		}
		if errA == nil && !bytes.Equal(AppendItemJSON(nil, a), AppendItemJSON(nil, b)) {
			t.Fatalf("normalized differently: %s\n%s", AppendItemJSON(nil, a), AppendItemJSON(nil, b))
		}
	})
}
