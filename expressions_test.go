package sortkey_test

import "strings"

// The expression tests are transcripts now, under
// conformance/testdata/expressions; containsToken stays for the root tests
// that still use it.

// containsToken reports whether expression e holds tok as a whole token:
// not followed by a letter, digit or '_'.
func containsToken(e, tok string) bool {
	for i := strings.Index(e, tok); i >= 0; i = indexFrom(e, tok, i+1) {
		end := i + len(tok)
		if end == len(e) || !isNameByte(e[end]) {
			return true
		}
	}
	return false
}

func indexFrom(s, sub string, from int) int {
	if j := strings.Index(s[from:], sub); j >= 0 {
		return from + j
	}
	return -1
}

func isNameByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}
