package expr

import (
	"testing"

	"github.com/sortkeydb/sortkey/internal/attr"
)

func TestProject(t *testing.T) {
	item := tProductCatalog()
	tests := []struct {
		name  string
		paths []Path
		want  attr.Item
	}{
		{"top-level attributes (the guide's Description, RelatedItems[0], ProductReviews.FiveStar)",
			[]Path{tPath("Description"), tPath("RelatedItems", 0), tPath("ProductReviews", "FiveStar")},
			attr.Item{
				"Description":  attr.Str("123 description"),
				"RelatedItems": {L: []attr.Value{attr.Num("341")}},
				"ProductReviews": {M: map[string]attr.Value{
					"FiveStar": tList("Excellent! Can't recommend it highly enough! Buy it!", "Do yourself a favor and buy this."),
				}},
			}},
		{"one list element comes back in a list",
			[]Path{tPath("RelatedItems", 2)},
			attr.Item{"RelatedItems": {L: []attr.Value{attr.Num("649")}}}},
		{"several elements in index order",
			[]Path{tPath("RelatedItems", 2), tPath("RelatedItems", 0)},
			attr.Item{"RelatedItems": {L: []attr.Value{attr.Num("341"), attr.Num("649")}}}},
		{"missing index skipped",
			[]Path{tPath("RelatedItems", 7), tPath("RelatedItems", 1)},
			attr.Item{"RelatedItems": {L: []attr.Value{attr.Num("472")}}}},
		{"keys of one map merge",
			[]Path{tPath("Pictures", "FrontView"), tPath("Pictures", "RearView"), tPath("Pictures", "TopView")},
			attr.Item{"Pictures": {M: map[string]attr.Value{
				"FrontView": attr.Str("http://example.com/products/123_front.jpg"),
				"RearView":  attr.Str("http://example.com/products/123_rear.jpg"),
			}}}},
		{"element of a nested list",
			[]Path{tPath("ProductReviews", "FiveStar", 1), tPath("ProductReviews", "OneStar", 0)},
			attr.Item{"ProductReviews": {M: map[string]attr.Value{
				"FiveStar": tList("Do yourself a favor and buy this."),
				"OneStar":  tList("Terrible product! Do not buy this."),
			}}}},
		{"missing paths skipped entirely",
			[]Path{tPath("Nope"), tPath("Pictures", "Nope"), tPath("Price", "x"), tPath("Pictures", 0), tPath("Nope", "a", 1)},
			attr.Item{}},
		{"whole attribute and a part of it",
			[]Path{tPath("Pictures", "FrontView"), tPath("Pictures")},
			attr.Item{"Pictures": item["Pictures"]}},
		{"dotted name", []Path{tPath("Safety.Warning")}, attr.Item{"Safety.Warning": attr.Str("Always wear a helmet")}},
		{"no paths", nil, attr.Item{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Project(item, tt.paths)
			if got == nil {
				t.Fatal("Project returned nil")
			}
			tSameItem(t, got, tt.want)
		})
	}
	if got := Project(nil, []Path{tPath("a")}); got == nil || len(got) != 0 {
		t.Errorf("Project(nil) = %v", got)
	}
}

// TestProjectListShape checks the guide's rule literally: a[3] of a
// five-element list is {"a": {"L": [<a[3]>]}}.
func TestProjectListShape(t *testing.T) {
	item := attr.Item{"a": tList("0", "1", "2", "3", "4")}
	got := Project(item, []Path{tPath("a", 3)})
	l := got["a"].L
	if len(got) != 1 || len(l) != 1 || l[0].S == nil || *l[0].S != "3" {
		t.Errorf("Project = %s", tItemJSON(got))
	}
}

func TestProjectSharesNothing(t *testing.T) {
	item := attr.Item{
		"m": {M: map[string]attr.Value{"l": tList("a"), "b": attr.Bin([]byte{1})}},
		"s": attr.Str("x"),
		"l": tList("p", "q"),
	}
	before := cloneItem(item)
	got := Project(item, []Path{tPath("m"), tPath("s"), tPath("l", 1)})
	got["m"].M["l"].L[0] = attr.Str("changed")
	got["m"].M["b"].B[0] = 9
	got["m"].M["new"] = attr.Num("1")
	*got["s"].S = "changed"
	*got["l"].L[0].S = "changed"
	tSameItem(t, item, before)
}
