package attr

import (
	"bytes"
	"cmp"
	"slices"
	"strings"
	"testing"
)

// keyNumbers are sorted ascending; the test checks that their encodings
// sort the same way and round-trip.
var keyNumbers = []string{
	"-" + strings.Repeat("9", 38) + strings.Repeat("0", 88),
	"-1E125",
	"-1000",
	"-999.5",
	"-999",
	"-100",
	"-12.3",
	"-12",
	"-1.23",
	"-1.2",
	"-1",
	"-0.123",
	"-0.12",
	"-0.1",
	"-1E-130",
	"0",
	"1E-130",
	"2E-130",
	"0.1",
	"0.12",
	"0.123",
	"1",
	"1.2",
	"1.23",
	"12",
	"12.3",
	"100",
	"999",
	"999.5",
	"1000",
	"12345678901234567890123456789012345678",
	"1E125",
	strings.Repeat("9", 38) + strings.Repeat("0", 88),
}

func TestKeyOrderNumbers(t *testing.T) {
	checkKeyOrder(t, N, keyNumbers, Num)
}

func TestKeyOrderStrings(t *testing.T) {
	checkKeyOrder(t, S, []string{"", "\x00", "\x00\x00", "\x00\x01", "\x00\xff", "\x01", "a", "a\x00", "a\x00b", "ab", "b", "é", "\xff", "\xff\xff"}, Str)
}

func TestKeyOrderBinary(t *testing.T) {
	checkKeyOrder(t, B, []string{"", "\x00", "\x00\x00", "\x01", "\xff"}, func(s string) Value { return Bin([]byte(s)) })
}

// checkKeyOrder checks that the encodings of the ascending values in
// sorted are ascending, that each decodes back, and that a following key
// survives (self-delimiting).
func checkKeyOrder(t *testing.T, k Kind, sorted []string, mk func(string) Value) {
	t.Helper()
	var prev []byte
	for i, s := range sorted {
		v := mk(s)
		enc := AppendKey(nil, &v)
		if i > 0 && bytes.Compare(prev, enc) >= 0 {
			t.Errorf("encoding of %q does not sort after %q: %x vs %x", s, sorted[i-1], enc, prev)
		}
		prev = enc
		tail := []byte("tail")
		got, rest, err := DecodeKey(append(enc, tail...), k)
		if err != nil || !Equal(&got, &v) || !bytes.Equal(rest, tail) {
			t.Errorf("DecodeKey(%x) = %s, %q, %v; want %q", enc, AppendJSON(nil, &got), rest, err, s)
		}
	}
}

func TestKeyCompositeOrder(t *testing.T) {
	// (pk, sk) pairs: the partition key must dominate even when one pk is
	// a prefix of another.
	type pair struct{ pk, sk string }
	pairs := []pair{{"a", "9"}, {"a", "10"}, {"a\x00", "-5"}, {"ab", "-5"}, {"b", "0"}}
	var encs [][]byte
	for _, p := range pairs {
		pk, sk := Str(p.pk), Num(p.sk)
		encs = append(encs, AppendKey(AppendKey(nil, &pk), &sk))
	}
	if !slices.IsSortedFunc(encs, bytes.Compare) {
		t.Errorf("composite keys out of order: %x", encs)
	}
	rest := encs[1]
	pk, rest, _ := DecodeKey(rest, S)
	sk, rest, err := DecodeKey(rest, N)
	if err != nil || *pk.S != "a" || *sk.N != "10" || len(rest) != 0 {
		t.Errorf("decode composite = %v %v %q %v", pk, sk, rest, err)
	}
}

func TestDecodeKeyErrors(t *testing.T) {
	tests := []struct {
		k   Kind
		src string
	}{
		{S, ""},
		{S, "abc"},
		{S, "a\x00"},
		{S, "a\x00\x02"},
		{N, ""},
		{N, "\x04"},
		{N, "\x03"},
		{N, "\x03\x80"},
		{N, "\x03\x80\x65\x00"}, // digit byte 101
		{N, "\x03\x80\x01\x00"}, // digits "00"
		{N, "\x03\x80\x0b\x01\x00"},
		{N, "\x03\x80" + strings.Repeat("\x02", 20) + "\x00"}, // 40 digits
		{BOOL, "\x01"},
	}
	for _, tt := range tests {
		if v, _, err := DecodeKey([]byte(tt.src), tt.k); err == nil {
			t.Errorf("DecodeKey(%q, %v) = %s, want error", tt.src, tt.k, AppendJSON(nil, &v))
		}
	}
}

func FuzzKeyOrder(f *testing.F) {
	f.Add("1", "2", "a", "b")
	f.Add("-1.5", "1E-130", "", "\x00")
	f.Add("0", "-0", "a\x00", "a")
	f.Fuzz(func(t *testing.T, n1, n2, s1, s2 string) {
		if a, b := Num(n1), Num(n2); a.Validate() == nil && b.Validate() == nil {
			checkPair(t, &a, &b, N)
		}
		a, b := Str(s1), Str(s2)
		checkPair(t, &a, &b, S)
	})
}

func checkPair(t *testing.T, a, b *Value, k Kind) {
	c, ok := Compare(a, b)
	ea, eb := AppendKey(nil, a), AppendKey(nil, b)
	if !ok || cmp.Compare(c, 0) != bytes.Compare(ea, eb) {
		t.Fatalf("Compare(%s, %s) = %d, %v but encodings compare %d",
			AppendJSON(nil, a), AppendJSON(nil, b), c, ok, bytes.Compare(ea, eb))
	}
	got, rest, err := DecodeKey(ea, k)
	if err != nil || len(rest) != 0 || !Equal(&got, a) {
		t.Fatalf("round trip of %s: %s, %q, %v", AppendJSON(nil, a), AppendJSON(nil, &got), rest, err)
	}
	if k == N && *got.N != *a.N {
		t.Fatalf("decoded %q, encoded normalized %q", *got.N, *a.N)
	}
}

func TestAppendKeyPrefixBoundsBeginsWith(t *testing.T) {
	prefix := Str("ab\x00")
	p := AppendKeyPrefix(nil, &prefix)
	for _, s := range []string{"ab\x00", "ab\x00c", "ab\x00\x00", "ab\x00\xff"} {
		v := Str(s)
		if !bytes.HasPrefix(AppendKey(nil, &v), p) {
			t.Errorf("%q does not start with the prefix encoding of %q", s, "ab\x00")
		}
	}
	for _, s := range []string{"ab", "ab\x01", "a", "abc"} {
		v := Str(s)
		if bytes.HasPrefix(AppendKey(nil, &v), p) {
			t.Errorf("%q starts with the prefix encoding of %q", s, "ab\x00")
		}
	}
}
