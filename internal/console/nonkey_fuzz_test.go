package console

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzNonKeyAttributes: any text splits into non-empty names with no
// separator in them, losing no other character, and the names listed
// again with ", " split back into the same names.
func FuzzNonKeyAttributes(f *testing.F) {
	f.Add("total, status")
	f.Add(" a,,b\tc\n")
	f.Add("")
	f.Fuzz(func(t *testing.T, field string) {
		names := nonKeyAttributes(field)
		isSep := func(r rune) bool { return r == ',' || unicode.IsSpace(r) }
		for _, n := range names {
			if n == "" || strings.IndexFunc(n, isSep) >= 0 {
				t.Fatalf("%q gave name %q", field, n)
			}
		}
		if !utf8.ValidString(field) {
			return // strings.Map below would rewrite bad bytes; the split itself keeps them
		}
		kept := strings.Map(func(r rune) rune {
			if isSep(r) {
				return -1
			}
			return r
		}, field)
		if strings.Join(names, "") != kept {
			t.Fatalf("%q split into %q", field, names)
		}
		if again := nonKeyAttributes(strings.Join(names, ", ")); !slices.Equal(again, names) {
			t.Fatalf("%q split again into %q", names, again)
		}
	})
}
