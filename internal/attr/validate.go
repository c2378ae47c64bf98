package attr

import "errors"

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
	errEmptyName       = errors.New("One or more parameter values were invalid: An attribute name must not be empty")
	errLongName        = errors.New("One or more parameter values were invalid: An attribute name must be less than 64 KB")
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
