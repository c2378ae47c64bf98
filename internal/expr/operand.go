package expr

import (
	"strconv"
	"unicode/utf8"

	"github.com/sortkeydb/sortkey/internal/attr"
)

// lookup returns the value at path in item, and false when the path does
// not lead to a value: a missing attribute or map key, a list index past
// the end, or a step into a value of the wrong type (a key into a list, an
// index into a map or scalar). A nil item has no values.
func lookup(item attr.Item, path Path) (attr.Value, bool) {
	if len(path) == 0 {
		return attr.Value{}, false
	}
	v, ok := item[path[0].Name]
	if !ok || path[0].IsIndex {
		return attr.Value{}, false
	}
	for _, e := range path[1:] {
		if v, ok = stepInto(&v, e); !ok {
			return attr.Value{}, false
		}
	}
	return v, true
}

// stepInto moves one path element into v.
func stepInto(v *attr.Value, e PathElem) (attr.Value, bool) {
	if e.IsIndex {
		if v.L == nil || v.Kind() != attr.L || e.Index < 0 || e.Index >= len(v.L) {
			return attr.Value{}, false
		}
		return v.L[e.Index], true
	}
	if v.M == nil || v.Kind() != attr.M {
		return attr.Value{}, false
	}
	c, ok := v.M[e.Name]
	return c, ok
}

// condOperand evaluates an operand of a condition. ok is false when the
// operand yields nothing: a path that does not resolve, or size() of a
// missing attribute or of a type that has no size. Comparisons with
// nothing are false (<> is true).
func condOperand(op Operand, item attr.Item) (v attr.Value, ok bool, err error) {
	switch op := op.(type) {
	case *PathOperand:
		v, ok = lookup(item, op.Path)
		return v, ok, nil
	case *ValueOperand:
		return op.Value, true, nil
	case *CallOperand:
		if op.Func != "size" || len(op.Args) != 1 {
			return attr.Value{}, false, errBadFunc(op.Func)
		}
		arg, ok, err := condOperand(op.Args[0], item)
		if err != nil || !ok {
			return attr.Value{}, false, err
		}
		n, ok := sizeOf(&arg)
		if !ok {
			return attr.Value{}, false, nil
		}
		return attr.Num(strconv.Itoa(n)), true, nil
	}
	return attr.Value{}, false, errBadOperand(op)
}

// sizeOf is the size() function: a string's length in UTF-16 code units
// (DynamoDB measures strings as Java does: size("é𝄞") is 3), a binary's
// length in bytes, and the number of members, elements or entries of a
// set, list or map. Numbers, booleans and nulls have no size.
func sizeOf(v *attr.Value) (int, bool) {
	switch v.Kind() {
	case attr.S:
		return utf16Len(*v.S), true
	case attr.B:
		return len(v.B), true
	case attr.SS:
		return len(v.SS), true
	case attr.NS:
		return len(v.NS), true
	case attr.BS:
		return len(v.BS), true
	case attr.L:
		return len(v.L), true
	case attr.M:
		return len(v.M), true
	}
	return 0, false
}

// utf16Len counts the UTF-16 code units of s: one per rune in the Basic
// Multilingual Plane, two (a surrogate pair) per rune above it. Invalid
// UTF-8 bytes count one each, as the replacement character would.
func utf16Len(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		n++
		if r > 0xFFFF {
			n++
		}
		i += size
	}
	return n
}

// longTypeName is the long name DynamoDB uses for a data type in
// "Incorrect operand type" messages about ADD and DELETE.
func longTypeName(k attr.Kind) string {
	switch k {
	case attr.S:
		return "STRING"
	case attr.N:
		return "NUMBER"
	case attr.B:
		return "BINARY"
	case attr.BOOL:
		return "BOOLEAN"
	case attr.NULL:
		return "NULL"
	case attr.M:
		return "MAP"
	case attr.L:
		return "LIST"
	case attr.SS:
		return "STRING_SET"
	case attr.NS:
		return "NUMBER_SET"
	case attr.BS:
		return "BINARY_SET"
	}
	return "UNKNOWN"
}

// isSetKind reports whether k is one of the three set types.
func isSetKind(k attr.Kind) bool { return k == attr.SS || k == attr.NS || k == attr.BS }
