package attr

import (
	"encoding/base64"
	"slices"
	"strconv"
	"unicode/utf8"
)

// JSON encoding is hand-written because responses are mostly items and
// reflection-driven encoding/json is several times slower; it also has to
// keep empty B, L and M, which the struct tags' omitempty would drop.
// Decoding is hand-written too, see jsondecode.go.

// MarshalJSON encodes v as DynamoDB wire JSON. It has a value receiver so
// that encoding/json finds it on Values stored in maps and slices.
func (v Value) MarshalJSON() ([]byte, error) { return AppendJSON(nil, &v), nil }

// MarshalJSON encodes it as a JSON object of wire AttributeValues.
func (it Item) MarshalJSON() ([]byte, error) { return AppendItemJSON(nil, it), nil }

// AppendItemJSON appends it as a JSON object with names in sorted order,
// so equal items give equal bytes (golden files, ETags, tests).
func AppendItemJSON(dst []byte, it Item) []byte {
	if it == nil {
		return append(dst, "null"...)
	}
	return appendMapJSON(dst, it)
}

func appendMapJSON(dst []byte, m map[string]Value) []byte {
	dst = append(dst, '{')
	var buf [keysOnStack]string
	for i, k := range sortedKeys(buf[:0], m) {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONString(dst, k)
		dst = append(dst, ':')
		v := m[k]
		dst = AppendJSON(dst, &v)
	}
	return append(dst, '}')
}

// sortedKeys gives encodings and errors a deterministic attribute order.
// It appends to keys, which callers give a stack array of keysOnStack so
// that most maps sort their names without allocating; a larger map
// allocates once, sized.
func sortedKeys(keys []string, m map[string]Value) []string {
	keys = slices.Grow(keys[:0], len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// keysOnStack is the size of the arrays callers of sortedKeys keep on the
// stack: most items and maps have fewer attributes.
const keysOnStack = 16

// AppendJSON appends v as {"TAG":value}. Every field that is set is
// written, so an invalid value still round-trips as what was received:
// none set gives {}.
func AppendJSON(dst []byte, v *Value) []byte {
	dst = append(dst, '{')
	n := len(dst)
	sep := func(tag string) {
		if len(dst) > n {
			dst = append(dst, ',')
		}
		dst = append(dst, tag...)
	}
	if v.S != nil {
		sep(`"S":`)
		dst = appendJSONString(dst, *v.S)
	}
	if v.N != nil {
		sep(`"N":`)
		dst = appendJSONString(dst, *v.N)
	}
	if v.B != nil {
		sep(`"B":`)
		dst = appendBase64(dst, v.B)
	}
	if v.BOOL != nil {
		sep(`"BOOL":`)
		dst = strconv.AppendBool(dst, *v.BOOL)
	}
	if v.NULL != nil {
		sep(`"NULL":`)
		dst = strconv.AppendBool(dst, *v.NULL)
	}
	if v.M != nil {
		sep(`"M":`)
		dst = appendMapJSON(dst, v.M)
	}
	if v.L != nil {
		sep(`"L":`)
		dst = appendListJSON(dst, v.L)
	}
	if v.SS != nil {
		sep(`"SS":`)
		dst = appendStringsJSON(dst, v.SS)
	}
	if v.NS != nil {
		sep(`"NS":`)
		dst = appendStringsJSON(dst, v.NS)
	}
	if v.BS != nil {
		sep(`"BS":`)
		dst = appendBytesJSON(dst, v.BS)
	}
	return append(dst, '}')
}

func appendListJSON(dst []byte, l []Value) []byte {
	dst = append(dst, '[')
	for i := range l {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendJSON(dst, &l[i])
	}
	return append(dst, ']')
}

func appendStringsJSON(dst []byte, ss []string) []byte {
	dst = append(dst, '[')
	for i, s := range ss {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONString(dst, s)
	}
	return append(dst, ']')
}

func appendBytesJSON(dst []byte, bs [][]byte) []byte {
	dst = append(dst, '[')
	for i, b := range bs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendBase64(dst, b)
	}
	return append(dst, ']')
}

func appendBase64(dst, b []byte) []byte {
	dst = append(dst, '"')
	dst = base64.StdEncoding.AppendEncode(dst, b)
	return append(dst, '"')
}

// appendJSONString writes s as a JSON string. Like encoding/json it
// replaces invalid UTF-8 with U+FFFD and escapes U+2028/U+2029, but it
// does not HTML-escape <, > and &: the AWS SDKs do not need it.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		r, size := rune(c), 1
		if c >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError && r != '\u2028' && r != '\u2029' {
				i += size
				continue
			}
			if r == utf8.RuneError && size == 3 {
				i += size // a literal U+FFFD in valid UTF-8
				continue
			}
		}
		dst = append(dst, s[start:i]...)
		dst = appendEscape(dst, r)
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

const hexDigits = "0123456789abcdef"

// appendEscape writes the escape for one rune that cannot appear raw.
func appendEscape(dst []byte, r rune) []byte {
	switch r {
	case '"', '\\':
		return append(dst, '\\', byte(r))
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	case utf8.RuneError:
		return append(dst, `\ufffd`...)
	}
	return append(dst, '\\', 'u', hexDigits[r>>12&0xF], hexDigits[r>>8&0xF],
		hexDigits[r>>4&0xF], hexDigits[r&0xF])
}

// AppendJSONString appends s as a JSON string, escaped as AppendItemJSON
// escapes names and strings.
func AppendJSONString(dst []byte, s string) []byte { return appendJSONString(dst, s) }
