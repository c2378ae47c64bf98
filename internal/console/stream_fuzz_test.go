package console

import (
	"strings"
	"testing"
)

func FuzzParseAfter(f *testing.F) {
	for _, s := range []string{"", "000000000000000000042", "x", "12a", strings.Repeat("9", 41)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := parseAfter(s)
		if err != nil {
			return
		}
		if got != s || len(s) > maxSeqDigits || strings.Trim(s, "0123456789") != "" {
			t.Fatalf("parseAfter(%q) accepted %q", s, got)
		}
	})
}
