package attr

import (
	"errors"
	"slices"
)

// MaxDepth is how many M/L values may nest inside each other, counting the
// top-level attribute's own value. The service accepts 31 map-wraps around
// a scalar and rejects 32 ("32 levels" counts the scalar too).
const MaxDepth = 31

// The validation errors carry DynamoDB's ValidationException texts; the
// engine wraps them without rewording. The double space in the empty-set
// messages is the service's; binary sets have their own wording.
var (
	errEmpty           = errors.New("Supplied AttributeValue is empty, must contain exactly one of the supported datatypes")
	errMany            = errors.New("Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes")
	errNullFalse       = errors.New("One or more parameter values were invalid: Null attribute value types must have the value of true")
	errEmptySS   error = emptySetError("One or more parameter values were invalid: An string set  may not be empty")
	errEmptyNS   error = emptySetError("One or more parameter values were invalid: An number set  may not be empty")
	errEmptyBS   error = emptySetError("One or more parameter values were invalid: Binary sets should not be empty")
	errDepth           = errors.New("Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit")
	errEmptyName       = errors.New(invalidParams + TextEmptyName)
	errLongName        = errors.New(invalidParams + TextLongName)
)

// The attribute-name texts, also used where a name arrives outside an item
// (ExpressionAttributeNames, AttributesToGet, legacy attribute maps).
// DynamoDB's long-name message states the limit in figures.
const (
	invalidParams = "One or more parameter values were invalid: "
	TextEmptyName = "Empty attribute name"
	TextLongName  = "An attribute name must be less than 65536 bytes"
)

// MaxNameBytes is the longest attribute name the Developer Guide allows:
// less than 64 KB.
const MaxNameBytes = 64*1024 - 1

// ValidateItem validates every attribute of it (see Value.Validate). When
// several attributes are bad it reports the first in sorted name order, so
// that an item always gets the same error.
func ValidateItem(it Item) error {
	_, err := validateMembers(it, 1, true)
	return err
}

// ValidateValues validates every value of m as a top-level value, as
// ExpressionAttributeValues are, without checking the names. It returns
// the first bad one's name in sorted order and its error.
func ValidateValues(m Item) (name string, err error) { return validateMembers(m, 1, false) }

// validateMembers checks m's members at depth, and their names when names
// is set. A valid map, the usual case, is walked once in map order without
// sorting its names; only after an error does firstInvalid work out which
// member sorted order reports. Validation changes a value only through its
// pointers, slices and maps, which the map's copy shares, so nothing is
// stored back: storing into a full 8-entry map grows it.
func validateMembers(m map[string]Value, depth int, names bool) (string, error) {
	for name, v := range m {
		if err := validateMember(name, &v, depth, names); err != nil {
			return firstInvalid(m, name, err, depth, names)
		}
	}
	return "", nil
}

func validateMember(name string, v *Value, depth int, names bool) error {
	if names {
		if err := checkName(name); err != nil {
			return err
		}
	}
	return v.validate(depth)
}

// firstInvalid returns the error of the first member in sorted order that
// fails, given that bad fails with err. The members before bad that were
// already checked passed and stay valid once normalized; the others are as
// they were sent.
func firstInvalid(m map[string]Value, bad string, err error, depth int, names bool) (string, error) {
	var before []string
	for name := range m {
		if name < bad {
			before = append(before, name)
		}
	}
	slices.Sort(before)
	for _, name := range before {
		v := m[name]
		if e := validateMember(name, &v, depth, names); e != nil {
			return name, e
		}
	}
	return bad, err
}

// CheckName refuses an empty attribute name or one of 64 KB or more, with
// the texts an item's names get.
func CheckName(name string) error { return checkName(name) }

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

// validateMap checks map members, reporting the first bad one in sorted
// order as ValidateItem does.
func validateMap(m map[string]Value, depth int) error {
	if len(m) == 0 {
		return nil
	}
	_, err := validateMembers(m, depth, false)
	return err
}
