package partiql

import (
	"strconv"
	"testing"

	"github.com/sortkeydb/sortkey/internal/attr"
)

func TestCacheKeepsStatementsWithoutParametersOnly(t *testing.T) {
	var c cache
	a, _, _ := c.parse(`SELECT * FROM T WHERE pk = 1`, nil)
	b, _, _ := c.parse(`SELECT * FROM T WHERE pk = 1`, nil)
	if a != b {
		t.Fatal("a repeated statement was parsed again")
	}
	p1, _, _ := c.parse(`SELECT * FROM T WHERE pk = ?`, []attr.Value{{S: ptr("x")}})
	p2, _, _ := c.parse(`SELECT * FROM T WHERE pk = ?`, []attr.Value{{S: ptr("y")}})
	if p1 == p2 || len(c.m) != 1 {
		t.Fatalf("a statement with parameters was cached: %d entries", len(c.m))
	}
	for i := range maxCached + 1 {
		_, _, _ = c.parse(`SELECT * FROM T WHERE pk = `+strconv.Itoa(i), nil)
	}
	if len(c.m) > maxCached {
		t.Fatalf("cache grew to %d", len(c.m))
	}
}
