package console

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzParseVector: any text is refused with one of the vector messages or
// read as exactly dims numbers, each a JSON number that reads back as
// itself, so what is sent is what was typed.
func FuzzParseVector(f *testing.F) {
	f.Add("[0.12, -0.5, 0.33]", 3)
	f.Add("[1e-3,2E+4, 0]", 3)
	f.Add(`["1", 2]`, 2)
	f.Add("[1, 2] [3]", 2)
	f.Add("null", 1)
	f.Add("", 1)
	f.Fuzz(func(t *testing.T, s string, dims int) {
		got, err := parseVector(s, "ix", dims)
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "Paste a search vector") &&
				!strings.HasPrefix(msg, "The search vector") {
				t.Fatalf("%q: unexpected error %q", s, msg)
			}
			return
		}
		if len(got) != dims {
			t.Fatalf("%q: %d numbers, want %d", s, len(got), dims)
		}
		for _, n := range got {
			var back json.Number
			if err := json.Unmarshal([]byte(n), &back); err != nil || back.String() != n {
				t.Fatalf("%q: %q is not a JSON number (%v)", s, n, err)
			}
		}
	})
}
