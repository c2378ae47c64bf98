package designtest

import (
	"slices"

	"github.com/sortkeydb/sortkey/internal/design"
)

// Check reports, through t, every finding design.Check makes on d that
// is an error, and every warning whose code is not among explained: the
// warnings a design file keeps on purpose, each explained by a comment
// where the design file holds the element. An explained code that Check
// no longer finds is reported too, so the explanation cannot outlive
// what it explains.
func Check(t TB, d *design.Design, explained ...string) {
	t.Helper()
	seen := map[string]bool{}
	for _, f := range design.Check(d) {
		if f.Severity == design.SeverityWarning && slices.Contains(explained, f.Code) {
			seen[f.Code] = true
			continue
		}
		t.Errorf("%s", f.String(d.File))
	}
	for _, code := range explained {
		if !seen[code] {
			t.Errorf("%s: design check no longer warns %s; remove its explanation", d.File, code)
		}
	}
}
