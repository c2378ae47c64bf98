package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// TestMainRunsEveryPatternTwice runs the program against one server
// twice: the second run finds the table and the data of the first, and
// must print exactly the same.
func TestMainRunsEveryPatternTwice(t *testing.T) {
	srv := sortkeytest.NewWithOptions(t, coverage.Options(nil))
	var first, second bytes.Buffer
	if err := run(context.Background(), srv.URL, DefaultTable, &first); err != nil {
		t.Fatal(err)
	}
	if err := run(context.Background(), srv.URL, DefaultTable, &second); err != nil {
		t.Fatal(err)
	}
	if first.String() != second.String() {
		t.Fatalf("the second run printed differently:\n%s\n---\n%s", first.String(), second.String())
	}
	out := first.String()
	for _, want := range []string{
		"## Get a Menu and all its MenuItems: GetMenuAndItems(w1)\n   Query menus  [PK = :pk]\n",
		"## Get a Category and the first batch of its Ingredients (ScanIndexForward=false, Limit=11): GetCategoryAndIngredients(1)\n" +
			"   Query menus  [PK = :pk, ScanIndexForward=false, Limit=11]\n",
		"     Put menus  [CATEGORYNAME#fresh herbs / CATEGORYNAME#fresh herbs, if attribute_not_exists(PK)]\n" +
			"   action  cancellation reason\n   0       None\n   1       ConditionalCheckFailed\n",
		"## Delete a Category: DeleteCategory(5)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "\n## "); n != 45 {
		t.Errorf("%d patterns printed, want 45", n)
	}
}
