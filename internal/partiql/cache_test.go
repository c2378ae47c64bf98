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
	if p1 == p2 || len(c.m) != 1 || len(c.toks) != 1 {
		t.Fatalf("a statement with parameters was cached: %d entries, %d token lists", len(c.m), len(c.toks))
	}
	v1, _ := equality(p1.Where, "pk")
	v2, _ := equality(p2.Where, "pk")
	if *v1.S != "x" || *v2.S != "y" {
		t.Fatalf("parameters bound from cached tokens: %v, %v", v1, v2)
	}
	if _, _, err := c.parse(`SELECT * FROM T WHERE pk = ?`, []attr.Value{{S: ptr("x")}, {S: ptr("y")}}); err == nil {
		t.Fatal("a wrong number of parameters was accepted from cached tokens")
	}
	for i := range maxCached + 1 {
		_, _, _ = c.parse(`SELECT * FROM T WHERE pk = `+strconv.Itoa(i), nil)
	}
	if len(c.m) > maxCached {
		t.Fatalf("cache grew to %d", len(c.m))
	}
}
