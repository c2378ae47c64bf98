package attr

import (
	"encoding/base64"
	"errors"
	"strings"
)

// MaxDepth is how many M/L values may nest inside each other, counting the
// top-level attribute's own value. The service accepts 31 map-wraps around
// a scalar and rejects 32 ("32 levels" counts the scalar too).
const MaxDepth = 31

// The validation errors carry DynamoDB's ValidationException texts; the
// engine wraps them without rewording. The double space in the empty-set
// messages is the service's.
var (
	errEmpty     = errors.New("Supplied AttributeValue is empty, must contain exactly one of the supported datatypes")
	errMany      = errors.New("Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes")
	errNullFalse = errors.New("One or more parameter values were invalid: Null attribute value types must have the value of true")
	errEmptySS   = errors.New("One or more parameter values were invalid: An string set  may not be empty")
	errEmptyNS   = errors.New("One or more parameter values were invalid: An number set  may not be empty")
	errEmptyBS   = errors.New("One or more parameter values were invalid: An binary set  may not be empty")
	errDepth     = errors.New("Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit")
	errEmptyName = errors.New("One or more parameter values were invalid: An attribute name must not be empty")
	errLongName  = errors.New("One or more parameter values were invalid: An attribute name must be less than 64 KB")
)

// MaxNameBytes is the longest attribute name the Developer Guide allows:
// less than 64 KB.
const MaxNameBytes = 64*1024 - 1

// ValidateItem validates every attribute of it (see Value.Validate). It
// visits names in sorted order so that an item with several bad
// attributes always reports the same one.
func ValidateItem(it Item) error {
	for _, name := range sortedKeys(it) {
		v := it[name]
		if err := checkName(name); err != nil {
			return err
		}
		if err := v.validate(1); err != nil {
			return err
		}
		it[name] = v // v.N may have been normalized
	}
	return nil
}

func checkName(name string) error {
	switch {
	case name == "":
		return errEmptyName
	case len(name) > MaxNameBytes:
		return errLongName
	}
	return nil
}

// Validate checks v as DynamoDB checks an AttributeValue in a request and
// rewrites every N and NS member in place to its normalized form, so that
// equal numbers have equal strings from here on.
func (v *Value) Validate() error { return v.validate(1) }

// validate checks v at nesting depth depth (1 for a top-level value).
func (v *Value) validate(depth int) error {
	k, n := v.kinds()
	switch {
	case n == 0:
		return errEmpty
	case n > 1:
		return errMany
	}
	switch k {
	case NULL:
		if !*v.NULL {
			return errNullFalse
		}
	case N:
		return normalizeInPlace(v.N)
	case M, L:
		return v.validateDoc(depth)
	case SS, NS, BS:
		return v.validateSet()
	}
	return nil
}

func normalizeInPlace(p *string) error {
	s, err := NormalizeNumber(*p)
	if err == nil {
		*p = s
	}
	return err
}

// validateDoc checks the depth and then each element of an M or L.
func (v *Value) validateDoc(depth int) error {
	if depth > MaxDepth {
		return errDepth
	}
	for i := range v.L {
		if err := v.L[i].validate(depth + 1); err != nil {
			return err
		}
	}
	return validateMap(v.M, depth+1)
}

// validateMap checks map members in sorted key order, for the same
// determinism as ValidateItem.
func validateMap(m map[string]Value, depth int) error {
	if len(m) == 0 {
		return nil
	}
	for _, k := range sortedKeys(m) {
		e := m[k]
		if err := e.validate(depth); err != nil {
			return err
		}
		m[k] = e
	}
	return nil
}

// validateSet checks emptiness, then (for NS) each member, then
// duplicates. Duplicates are found after normalization, so "1" and "1.0"
// collide as they do in the service; the message lists the members as sent.
func (v *Value) validateSet() error {
	switch {
	case v.SS != nil:
		return checkStrings(v.SS, func() []string { return v.SS }, errEmptySS)
	case v.NS != nil:
		return validateNS(v.NS)
	}
	members := make([]string, len(v.BS))
	for i, b := range v.BS {
		members[i] = string(b)
	}
	return checkStrings(members, func() []string { return base64s(v.BS) }, errEmptyBS)
}

// base64s renders binary members the way they were sent on the wire.
func base64s(bs [][]byte) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = base64.StdEncoding.EncodeToString(b)
	}
	return out
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
	return checkStrings(ns, func() []string { return sent }, errEmptyNS)
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
	return errors.New("One or more parameter values were invalid: Input collection [" +
		strings.Join(shown(), ", ") + "] contains duplicates.")
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
