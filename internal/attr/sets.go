package attr

import (
	"encoding/base64"
	"errors"
	"slices"
	"strings"
)

// Sets are kept canonical: validation sorts every SS, NS and BS it
// accepts, and the update operators keep results sorted, so an item is
// stored and returned with its set members in one order whatever order
// they were written in. DynamoDB documents sets as unordered; the order
// chosen is DynamoDB Local's (strings by code point, numbers by value,
// binaries by bytes read as signed), which test suites written against it
// assert.

// emptySetError is the error for an empty SS, NS or BS. DynamoDB reports
// it with the same text wherever the set is, an item or an expression
// attribute value, so callers tell it apart with IsEmptySet.
type emptySetError string

func (e emptySetError) Error() string { return string(e) }

// duplicatesError is the error for a set with a repeated member, whose
// text lists the members as they were sent. It keeps the text, not the
// members, so that validating a set never moves it to the heap.
type duplicatesError struct{ text string }

const (
	msgDuplicatesOpen  = "One or more parameter values were invalid: Input collection ["
	msgDuplicatesClose = "] contains duplicates."
)

func (e duplicatesError) Error() string { return e.text }

// IsEmptySet reports whether err is the error for an empty set.
func IsEmptySet(err error) bool {
	var e emptySetError
	return errors.As(err, &e)
}

// IsDuplicates reports whether err is the error for a set with a repeated
// member.
func IsDuplicates(err error) bool {
	var e duplicatesError
	return errors.As(err, &e)
}

// validateSet checks emptiness, then (for NS) each member, then
// duplicates, and sorts the members. Duplicates are found after
// normalization, so "1" and "1.0" collide as they do in the service; the
// message lists the members as sent.
func (v *Value) validateSet() error {
	switch {
	case v.SS != nil:
		return validateSS(v.SS)
	case v.NS != nil:
		return validateNS(v.NS)
	}
	return validateBS(v.BS)
}

func validateSS(ss []string) error {
	if err := checkStrings(ss, func() []string { return ss }, errEmptySS); err != nil {
		return err
	}
	slices.Sort(ss)
	return nil
}

func validateNS(ns []string) error {
	if len(ns) == 0 {
		return errEmptyNS
	}
	sent := append([]string(nil), ns...)
	for i := range ns {
		if err := normalizeInPlace(&ns[i]); err != nil {
			return err
		}
	}
	if err := checkStrings(ns, func() []string { return sent }, errEmptyNS); err != nil {
		return err
	}
	sortNumbers(ns)
	return nil
}

func validateBS(bs [][]byte) error {
	members := make([]string, len(bs))
	for i, b := range bs {
		members[i] = string(b)
	}
	if err := checkStrings(members, func() []string { return base64s(bs) }, errEmptyBS); err != nil {
		return err
	}
	slices.SortFunc(bs, compareSigned)
	return nil
}

// base64s renders binary members the way they were sent on the wire.
func base64s(bs [][]byte) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = base64.StdEncoding.EncodeToString(b)
	}
	return out
}

// checkStrings reports empty for an empty set, or the duplicates error
// (listing shown(), built only then) when members has a repeated element.
func checkStrings(members []string, shown func() []string, empty error) error {
	if len(members) == 0 {
		return empty
	}
	if !hasDuplicate(members) {
		return nil
	}
	return duplicatesError{msgDuplicatesOpen + strings.Join(shown(), ", ") + msgDuplicatesClose}
}

// hasDuplicate uses a quadratic scan for small sets, where it beats
// building a map, and a map for large ones, where quadratic would let one
// request burn seconds of CPU.
func hasDuplicate(ss []string) bool {
	if len(ss) <= 16 {
		for i := range ss {
			for j := i + 1; j < len(ss); j++ {
				if ss[i] == ss[j] {
					return true
				}
			}
		}
		return false
	}
	seen := make(map[string]struct{}, len(ss))
	for _, s := range ss {
		if _, ok := seen[s]; ok {
			return true
		}
		seen[s] = struct{}{}
	}
	return false
}

// SortSet puts the members of an SS, NS or BS in canonical order; other
// values are left alone. The update operators call it on the sets they
// build, which may start from items stored before sets were canonical.
func SortSet(v *Value) {
	switch {
	case v.SS != nil:
		slices.Sort(v.SS)
	case v.NS != nil:
		sortNumbers(v.NS)
	case v.BS != nil:
		slices.SortFunc(v.BS, compareSigned)
	}
}

// sortNumbers orders normalized numbers by value; one that does not parse
// (never, after validation) sorts by its text.
func sortNumbers(ns []string) {
	if slices.IsSortedFunc(ns, compareNumberText) {
		return
	}
	slices.SortFunc(ns, compareNumberText)
}

func compareNumberText(a, b string) int {
	if c, ok := compareNumbers(a, b); ok {
		return c
	}
	return strings.Compare(a, b)
}

// compareSigned orders byte strings as DynamoDB Local orders binary set
// members: byte by byte, each read as a signed 8-bit value, a prefix
// before the longer string.
func compareSigned(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if x, y := int8(a[i]), int8(b[i]); x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return len(a) - len(b)
}
