package attr

import (
	"errors"
	"strings"
	"testing"

	"github.com/cockroachdb/apd/v3"
)

func TestNormalizeNumber(t *testing.T) {
	tests := []struct{ in, want string }{
		{"0", "0"},
		{"-0", "0"},
		{"+0", "0"},
		{"0.000", "0"},
		{"0e999999999999", "0"},
		{"00042", "42"},
		{"1", "1"},
		{"+1", "1"},
		{"-1", "-1"},
		{"1.50", "1.5"},
		{"1.0", "1"},
		{"1.", "1"},
		{".5", "0.5"},
		{"-.5", "-0.5"},
		{"1e2", "100"},
		{"1E2", "100"},
		{"1e+2", "100"},
		{"1.5E2", "150"},
		{"1E-5", "0.00001"},
		{"123.456e1", "1234.56"},
		{"123.456e-1", "12.3456"},
		{"0.0012300", "0.00123"},
		{"-12300", "-12300"},
		{"1E+100", "1" + strings.Repeat("0", 100)},
		{"1.00000000000000007629769841092E+50", "100000000000000007629769841092000000000000000000000"},
		{"1E-130", "0." + strings.Repeat("0", 129) + "1"},
		{"9.9999999999999999999999999999999999999E+125", strings.Repeat("9", 38) + strings.Repeat("0", 88)},
		{"-9.9999999999999999999999999999999999999E+125", "-" + strings.Repeat("9", 38) + strings.Repeat("0", 88)},
		{strings.Repeat("1", 38), strings.Repeat("1", 38)},
		{"0." + strings.Repeat("0", 37) + "1" + strings.Repeat("0", 1000), "0." + strings.Repeat("0", 37) + "1"},
		{strings.Repeat("1", 38) + strings.Repeat("0", 50), strings.Repeat("1", 38) + strings.Repeat("0", 50)},
	}
	for _, tt := range tests {
		got, err := NormalizeNumber(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("NormalizeNumber(%.40q) = %.40q, %v; want %.40q", tt.in, got, err, tt.want)
		}
	}
}

func TestNormalizeNumberErrors(t *testing.T) {
	tests := []struct {
		in   string
		want error
	}{
		{"", errNotNumber},
		{" 1", errNotNumber},
		{"1 ", errNotNumber},
		{"abc", errNotNumber},
		{"0x10", errNotNumber},
		{"Infinity", errNotNumber},
		{"inf", errNotNumber},
		{"NaN", errNotNumber},
		{"-", errNotNumber},
		{".", errNotNumber},
		{"1e", errNotNumber},
		{"1e+", errNotNumber},
		{"e5", errNotNumber},
		{"1.2.3", errNotNumber},
		{"1_000", errNotNumber},
		{"--1", errNotNumber},
		{"1e5.5", errNotNumber},
		{strings.Repeat("1", 39), errPrecision},
		{"1." + strings.Repeat("1", 38), errPrecision},
		{"1" + strings.Repeat("1", 38) + "x", errNotNumber}, // syntax wins over precision
		{"1E126", errOverflow},
		{"1" + strings.Repeat("0", 100000), errOverflow}, // one significant digit, 1E+100000
		{"-1E126", errOverflow},
		{"1E999999999999999999999", errOverflow},
		{"9.99999999999999999999999999999999999999E+125", errPrecision},
		{"1E-131", errUnderflow},
		{"-0.99E-130", errUnderflow},
		{"1E-999999999999999999999", errUnderflow},
	}
	for _, tt := range tests {
		if got, err := NormalizeNumber(tt.in); !errors.Is(err, tt.want) || (err == nil) != (tt.want == nil) {
			t.Errorf("NormalizeNumber(%.50q) = %q, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

func TestNormalizeNumberNoAllocWhenNormal(t *testing.T) {
	allocs := testing.AllocsPerRun(100, func() { _, _ = NormalizeNumber("-123.456") })
	if allocs != 0 {
		t.Errorf("allocs = %v, want 0", allocs)
	}
}

func TestDecimalAndFormat(t *testing.T) {
	a, err := Decimal("1.25")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Decimal("-0.25E1")
	var sum apd.Decimal
	if _, err := apd.BaseContext.Add(&sum, a, b); err != nil {
		t.Fatal(err)
	}
	if got, err := FormatDecimal(&sum); got != "-1.25" || err != nil {
		t.Errorf("1.25 + -2.5 = %q, %v", got, err)
	}
	big, _ := Decimal("9.9999999999999999999999999999999999999E+125")
	var twice apd.Decimal
	apd.BaseContext.Add(&twice, big, big)
	if _, err := FormatDecimal(&twice); err != errPrecision {
		t.Errorf("2 × max: err = %v, want precision", err)
	}
	if _, err := FormatDecimal(apd.New(1, -131)); err != errUnderflow {
		t.Errorf("1E-131: err = %v", err)
	}
	if got, _ := FormatDecimal(apd.New(0, 7)); got != "0" {
		t.Errorf("0E7 = %q", got)
	}
	if _, err := Decimal("x"); !errors.Is(err, errNotNumber) || err.Error() != "The parameter cannot be converted to a numeric value: x" { // facts 26.1
		t.Errorf("Decimal(x) err = %v", err)
	}
}

func FuzzNormalizeNumber(f *testing.F) {
	for _, s := range []string{"0", "-1.50", "1e2", "1E-130", ".5", "1.", "9.9999999999999999999999999999999999999E+125", "0x1", "NaN", "1e-5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := NormalizeNumber(s)
		if err != nil {
			return
		}
		// Idempotent, and the same value as apd reads from the input.
		if again, err := NormalizeNumber(got); err != nil || again != got {
			t.Fatalf("not idempotent: %q -> %q -> %q, %v", s, got, again, err)
		}
		if len(s) > 400 {
			return // keep apd's work small
		}
		want, _, err := apd.NewFromString(s)
		if err != nil && !strings.ContainsAny(s, "eE") {
			t.Fatalf("apd rejects %q, we accept as %q", s, got)
		}
		if err != nil {
			return // apd caps exponents at ±100000; we accept 0e100001
		}
		d, _ := Decimal(got)
		if want.Cmp(d) != 0 {
			t.Fatalf("%q normalized to %q: value changed", s, got)
		}
	})
}
