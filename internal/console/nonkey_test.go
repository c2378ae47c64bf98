package console

import (
	"slices"
	"testing"
)

func TestNonKeyAttributesSplitsOnCommasAndSpaces(t *testing.T) {
	for field, want := range map[string][]string{
		"total":              {"total"},
		"total, status":      {"total", "status"},
		"total status\tname": {"total", "status", "name"},
		" a,,b ,\n c ":       {"a", "b", "c"},
		"":                   nil,
		" , ":                nil,
	} {
		if got := nonKeyAttributes(field); !slices.Equal(got, want) || (want == nil) != (got == nil) {
			t.Errorf("nonKeyAttributes(%q) = %q, want %q", field, got, want)
		}
	}
}
