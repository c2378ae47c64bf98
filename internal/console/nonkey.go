package console

import (
	"strings"
	"unicode"
)

// nonKeyAttributes reads a form field listing attribute names for an
// INCLUDE projection, separated by commas, spaces or both ("a, b c"), as
// people type lists. It only splits: empty names vanish, and everything
// else (duplicates, too many, too long) is left to DynamoDB, whose own
// message then shows beside the form. Nil for an empty field, so the
// request carries no NonKeyAttributes at all.
func nonKeyAttributes(field string) []string {
	names := strings.FieldsFunc(field, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
	if len(names) == 0 {
		return nil
	}
	return names
}
