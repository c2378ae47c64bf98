package partiql

import (
	"testing"

	"github.com/sortkeydb/sortkey/internal/attr"
)

// BenchmarkParseWithParameters is the per-call parse of a SELECT by key
// with parameters, which the statement cache cannot keep whole.
func BenchmarkParseWithParameters(b *testing.B) {
	var c cache
	params := []attr.Value{{S: ptr("user#1")}, {N: ptr("1")}}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := c.parse(`SELECT * FROM "Bench" WHERE pk = ? AND sk = ?`, params); err != nil {
			b.Fatal(err)
		}
	}
}
