package attr

import (
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// string decodes the JSON string at d.pos.
func (d *jsonDecoder) string() string {
	start, end, plain := d.scanString()
	switch {
	case d.err != nil || start == end:
		return ""
	case plain:
		return d.sub(start, end)
	}
	d.unquote(start, end)
	return string(d.buf)
}

// name decodes a member name; names are strings.
func (d *jsonDecoder) name() string { return d.string() }

// stringBytes decodes the JSON string at d.pos into bytes that alias
// d.data or d.buf, so they are only good until the next string.
func (d *jsonDecoder) stringBytes() []byte {
	start, end, plain := d.scanString()
	if d.err != nil || plain {
		return d.data[start:end]
	}
	d.unquote(start, end)
	return d.buf
}

// sub returns data[i:j] as a string, sharing one copy of small inputs
// among all their strings: one allocation instead of one per string.
func (d *jsonDecoder) sub(i, j int) string {
	if d.arena == "" {
		if len(d.data) > arenaMax {
			return string(d.data[i:j])
		}
		d.arena = string(d.data)
	}
	return d.arena[i:j]
}

func (d *jsonDecoder) unquote(start, end int) {
	var ok bool
	d.buf, ok = appendUnquoted(d.buf[:0], d.data[start:end])
	if !ok {
		d.fail(errJSONSyntax)
	}
}

// scanString finds the contents of the string at d.pos and steps past
// it. plain means the contents are their own decoding: no escapes and
// valid UTF-8.
func (d *jsonDecoder) scanString() (start, end int, plain bool) {
	if d.peek() != '"' {
		d.fail(errJSONSyntax)
		return d.pos, d.pos, false
	}
	start = d.pos + 1
	end, plain = stringEnd(d.data, start)
	if end < 0 {
		d.fail(errJSONSyntax)
		d.pos = len(d.data)
		return start, start, false
	}
	d.pos = end + 1
	return start, end, plain
}

// stringEnd returns the index of the quote that closes the string whose
// contents start at data[i], or -1.
func stringEnd(data []byte, i int) (end int, plain bool) {
	plain = true
	for i < len(data) {
		switch c := data[i]; {
		case c == '"':
			return i, plain
		case c == '\\':
			plain = false
			i += 2
		case c < ' ':
			return -1, false
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				plain = false
			}
			i += size
		}
	}
	return -1, false
}

// appendUnquoted decodes string contents as encoding/json does: escapes,
// surrogate pairs, and U+FFFD for invalid UTF-8 and lone surrogates.
func appendUnquoted(dst, s []byte) ([]byte, bool) {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\':
			var n int
			if dst, n = appendUnescaped(dst, s[i:]); n == 0 {
				return dst, false
			}
			i += n
		case c < ' ':
			return dst, false
		case c < utf8.RuneSelf:
			dst = append(dst, c)
			i++
		default:
			r, size := utf8.DecodeRune(s[i:])
			dst = utf8.AppendRune(dst, r)
			i += size
		}
	}
	return dst, true
}

var escapes = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// appendUnescaped decodes the escape at the start of s, reporting how many
// bytes it took, 0 if it is not valid.
func appendUnescaped(dst, s []byte) ([]byte, int) {
	if len(s) < 2 {
		return dst, 0
	}
	if e := escapes[s[1]]; e != 0 {
		return append(dst, e), 2
	}
	r := hex4(s)
	if r < 0 {
		return dst, 0
	}
	if !utf16.IsSurrogate(r) {
		return utf8.AppendRune(dst, r), 6
	}
	if pair := utf16.DecodeRune(r, hex4(s[6:])); pair != unicode.ReplacementChar {
		return utf8.AppendRune(dst, pair), 12
	}
	return utf8.AppendRune(dst, unicode.ReplacementChar), 6
}

// hex4 decodes a \uXXXX escape at the start of s, or returns -1.
func hex4(s []byte) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range s[2:6] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// skip steps over the value at d.pos, as for a member Value does not
// have; the syntax is trusted (see jsondecode.go), only strings need care.
func (d *jsonDecoder) skip() {
	depth := 0
	for d.err == nil && d.pos < len(d.data) {
		switch d.data[d.pos] {
		case '"':
			d.scanString()
		case '{', '[':
			depth++
			d.pos++
		case '}', ']':
			depth--
			d.pos++
		default:
			d.skipLiteral()
		}
		if depth <= 0 {
			return
		}
		d.ws()
	}
}

// skipLiteral steps over a number, true, false or null, or over one
// structural byte between nested values.
func (d *jsonDecoder) skipLiteral() {
	start := d.pos
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ',', ':', '}', ']', ' ', '\t', '\n', '\r', '"', '{', '[':
			if d.pos == start {
				d.pos++
			}
			return
		}
		d.pos++
	}
}

// AppendUnquoted appends the decoding of JSON string contents s (what lies
// between the quotes) as encoding/json decodes them, reporting false if s
// is not valid JSON string contents. It is the decoder's own unescaping,
// shared so that protocol's request envelopes decode strings alike.
func AppendUnquoted(dst, s []byte) ([]byte, bool) { return appendUnquoted(dst, s) }
