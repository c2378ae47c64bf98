package protocol

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"
)

// validText reports whether body is text every string of which decodes to
// valid UTF-8: the bytes are valid UTF-8, and every \u escape of a UTF-16
// surrogate is the high half of a pair whose low half is the next escape.
// Checking the whole body once covers every member of every operation,
// whichever decoder reads it, for about the cost of two scans of the bytes.
func validText(body []byte) bool {
	return utf8.Valid(body) && pairedSurrogates(body)
}

// pairedSurrogates steps from backslash to backslash, over each escape
// whole, so an escaped backslash followed by "u" is never taken for an
// escape. In valid JSON a backslash only ever starts an escape; in a body
// that is not JSON the scan may misread, which only decides which of two
// SerializationExceptions the body gets.
func pairedSurrogates(body []byte) bool {
	for i := 0; ; {
		j := bytes.IndexByte(body[i:], '\\')
		if j < 0 {
			return true
		}
		i += j
		n := escapeSpan(body[i:])
		if n == 0 {
			return false
		}
		i += n
	}
}

// escapeSpan is how many bytes to step over at the escape starting s: a
// surrogate pair's two escapes at once, and 0 for a lone surrogate. Other
// escapes take 2, which for \uXXXX leaves only hex digits to scan again.
func escapeSpan(s []byte) int {
	r := escapedUnit(s)
	switch {
	case !utf16.IsSurrogate(r):
		return min(2, len(s))
	case utf16.DecodeRune(r, escapedUnit(s[6:])) != utf8.RuneError:
		return 12
	}
	return 0
}

// escapedUnit is the code unit of the \uXXXX escape at the start of s, or
// -1 if s does not start with one.
func escapedUnit(s []byte) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' || !isHex4(s[2:6]) {
		return -1
	}
	var r rune
	for _, c := range s[2:6] {
		r = r<<4 | rune(hexValue(c))
	}
	return r
}

func hexValue(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}
