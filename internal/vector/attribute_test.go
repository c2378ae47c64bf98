package vector

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey/internal/attr"
)

func num(s string) attr.Value { return attr.Value{N: &s} }
func str(s string) attr.Value { return attr.Value{S: &s} }
func list(vs ...attr.Value) attr.Value {
	if vs == nil {
		vs = []attr.Value{}
	}
	return attr.Value{L: vs}
}

func TestFromAttributeAccepts(t *testing.T) {
	got, err := FromAttribute(list(num("1"), num("-2.5"), num("1E-50"), num("0.1"), num("3.4028234E38")), 5)
	want := []float32{1, -2.5, 0, 0.1, math.MaxFloat32}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("got %v, %v; want %v", got, err, want)
	}
}

func TestFromAttributeRefuses(t *testing.T) {
	tests := []struct {
		name string
		v    attr.Value
		dims int
		want string // a fragment of the error
	}{
		{"string", str("1"), 1, "must be a list"},
		{"scalar number", num("1"), 1, "must be a list"},
		{"number set", attr.Value{NS: []string{"1"}}, 1, "must be a list"},
		{"nothing", attr.Value{}, 1, "must be a list"},
		{"too short", list(num("1")), 2, "has 1 elements; the index has 2"},
		{"too long", list(num("1"), num("2"), num("3")), 2, "has 3 elements; the index has 2"},
		{"empty", list(), 1, "has 0 elements"},
		{"string element", list(num("1"), str("2")), 2, "element 1 is not a number"},
		{"nested list", list(list(num("1"))), 1, "element 0 is not a number"},
		{"NaN", list(num("NaN")), 1, "element 0 is not a valid number"},
		{"Inf", list(num("1"), num("Inf")), 2, "element 1 is not a valid number"},
		{"hex", list(num("0x10")), 1, "element 0 is not a valid number"},
		{"too big for float32", list(num("1"), num("1"), num("3.5E38")), 3, "element 2 is outside the float32 range"},
		{"too negative for float32", list(num("-1E39")), 1, "element 0 is outside the float32 range"},
		{"zero dims", list(), 0, "at least 1"},
	}
	for _, tc := range tests {
		got, err := FromAttribute(tc.v, tc.dims)
		if err == nil || !strings.Contains(err.Error(), tc.want) || got != nil {
			t.Errorf("%s: got %v, %v; want error with %q", tc.name, got, err, tc.want)
		}
	}
}

func FuzzFromAttribute(f *testing.F) {
	f.Add("1", "2.5", 2)
	f.Add("-0", "1E-130", 2)
	f.Add("3.5E38", "1", 2)
	f.Add("NaN", "Inf", 2)
	f.Add("x", "", 3)
	f.Add("9.9999999999999999999999999999999999999E125", "1", 1)
	f.Fuzz(func(t *testing.T, a, b string, dims int) {
		dims = dims%8 + 1 // keep allocations small; negative dims are refused too
		got, err := FromAttribute(list(num(a), num(b)), dims)
		if err != nil {
			return
		}
		if len(got) != dims {
			t.Fatalf("accepted %d elements for %d dimensions", len(got), dims)
		}
		for _, f := range got {
			if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
				t.Fatalf("accepted a non-finite element %v", f)
			}
		}
	})
}
