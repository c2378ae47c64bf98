package attr

import (
	"bytes"
	"cmp"
	"slices"
	"strings"
)

// Compare orders two values of the same scalar key type the way DynamoDB
// orders sort keys and evaluates <, <=, >, >=, BETWEEN: S by UTF-8 bytes,
// N numerically, B by unsigned bytes. ok is false when the kinds differ,
// are not S, N or B, or a number does not parse; DynamoDB's comparison is
// then simply false, which the caller decides.
func Compare(a, b *Value) (c int, ok bool) {
	k := a.Kind()
	if k != b.Kind() {
		return 0, false
	}
	switch k {
	case S:
		return strings.Compare(*a.S, *b.S), true
	case B:
		return bytes.Compare(a.B, b.B), true
	case N:
		return compareNumbers(*a.N, *b.N)
	}
	return 0, false
}

func compareNumbers(a, b string) (int, bool) {
	x, errA := parseNumber(a)
	y, errB := parseNumber(b)
	if errA != nil || errB != nil {
		return 0, false
	}
	return x.cmp(&y), true
}

// cmp orders by sign, then exponent, then digits; the digits carry no
// trailing zeros, so a shorter prefix is the smaller magnitude.
func (x *num) cmp(y *num) int {
	if c := cmp.Compare(x.sign(), y.sign()); c != 0 || x.n == 0 {
		return c
	}
	c := cmp.Compare(x.exp, y.exp)
	if c == 0 {
		c = bytes.Compare(x.d[:x.n], y.d[:y.n])
	}
	if x.neg {
		return -c
	}
	return c
}

func (x *num) sign() int {
	switch {
	case x.n == 0:
		return 0
	case x.neg:
		return -1
	}
	return 1
}

// Equal reports whether a and b are the same DynamoDB value: same type,
// numbers equal as numbers, sets equal regardless of order, maps and lists
// equal element by element. Values of no valid type are never equal.
func Equal(a, b *Value) bool {
	k := a.Kind()
	if k == Invalid || k != b.Kind() {
		return false
	}
	switch k {
	case S, N, B:
		c, ok := Compare(a, b)
		return ok && c == 0
	case BOOL:
		return *a.BOOL == *b.BOOL
	case NULL:
		return *a.NULL == *b.NULL
	case M:
		return equalMaps(a.M, b.M)
	case L:
		return slices.EqualFunc(a.L, b.L, func(x, y Value) bool { return Equal(&x, &y) })
	}
	return equalSets(a, b)
}

func equalMaps(a, b map[string]Value) bool {
	if len(a) != len(b) {
		return false
	}
	for k, x := range a {
		y, ok := b[k]
		if !ok || !Equal(&x, &y) {
			return false
		}
	}
	return true
}

// equalSets compares sorted copies; NS members are normalized first so
// that 1 and 1.0 match.
func equalSets(a, b *Value) bool {
	switch {
	case a.SS != nil:
		return sameMembers(a.SS, b.SS)
	case a.NS != nil:
		return sameMembers(normalizedAll(a.NS), normalizedAll(b.NS))
	}
	return sameMembers(stringsOf(a.BS), stringsOf(b.BS))
}

func sameMembers(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// normalizedAll maps each number to its normalized form, keeping a
// malformed one as sent so that it can still equal itself.
func normalizedAll(ns []string) []string {
	out := make([]string, len(ns))
	for i, s := range ns {
		if n, err := NormalizeNumber(s); err == nil {
			s = n
		}
		out[i] = s
	}
	return out
}

func stringsOf(bs [][]byte) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = string(b)
	}
	return out
}
