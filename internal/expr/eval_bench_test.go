package expr

import (
	"testing"

	"github.com/sortkeydb/sortkey/internal/attr"
)

// BenchmarkEvalCond evaluates a typical write condition against the
// ProductCatalog item: attribute_exists AND (Price BETWEEN AND
// contains(Color)) AND size(Brand) <= :n AND a nested path comparison.
func BenchmarkEvalCond(b *testing.B) {
	item := tProductCatalog()
	c := &AndCond{
		L: &AndCond{
			L: tFn("attribute_exists", tPO("Id")),
			R: &AndCond{
				L: &BetweenCond{X: tPO("Price"), Lo: tNum("100"), Hi: tNum("600")},
				R: tFn("contains", tPO("Color"), tStr("Red")),
			},
		},
		R: &AndCond{
			L: tCmp("<=", tSize(tPO("Brand")), tNum("20")),
			R: tCmp("=", tPO("ProductReviews", "OneStar", 0), tStr("Terrible product! Do not buy this.")),
		},
	}
	b.ReportAllocs()
	for b.Loop() {
		ok, err := EvalCond(c, item)
		if err != nil || !ok {
			b.Fatal(ok, err)
		}
	}
}

// BenchmarkApplyUpdate applies a counter increment, a list append, a
// nested SET, a REMOVE and a set ADD to the ProductCatalog item.
func BenchmarkApplyUpdate(b *testing.B) {
	item := tProductCatalog()
	u := &Update{
		Set: []SetAction{
			tSet(tPath("Price"), tArith('+', tPO("Price"), tNum("1"))),
			tSet(tPath("RelatedItems"), tCall("list_append", tPO("RelatedItems"), tVal(attr.Value{L: []attr.Value{attr.Num("700")}}))),
			tSet(tPath("Pictures", "TopView"), tStr("http://example.com/products/123_top.jpg")),
		},
		Remove: []Path{tPath("Comment")},
		Add:    []AddAction{{Path: tPath("Color"), Value: tVal(tSS("Blue"))}},
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ApplyUpdate(u, item); err != nil {
			b.Fatal(err)
		}
	}
}
