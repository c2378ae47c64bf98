package console_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/chromedp/chromedp"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// A person opens a table with a vector index and three items, follows
// the index to its search form, pastes a vector, searches, and sees the
// nearest item first with its score, and the CLI command that does the
// same.
func TestBrowserVectorSearch(t *testing.T) {
	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{Console: true})
	c := dynamodb.NewFromConfig(srv.AWSConfig())
	createDocs(t, c)
	putDocs(t, c, docs()[:3])
	ctx := tab(t)
	w := watchTab(t, ctx)
	open(t, ctx, srv.URL+"/console/tables/Docs")
	if ixs := text(t, ctx, "#vector-indexes"); !strings.Contains(ixs, "ByEmb") || !strings.Contains(ixs, "EUCLIDEAN") {
		t.Fatalf("table page shows vector indexes %q", ixs)
	}
	clickThrough(t, ctx, `#vector-indexes a.vector-link[href$="/ByEmb"]`)
	err := chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.CSS("#v-vector"), "[0.1, 0.9, 0]"),
		chromedp.SendKeys(chromedp.CSS(`input[name="eq.shelf"]`), "poetry"))
	if err != nil {
		t.Fatal(err)
	}
	clickThrough(t, ctx, "#v-run")
	if n := count(t, ctx, "#results tbody tr"); n != 3 {
		t.Errorf("%d results, want the 3 items", n)
	}
	first := text(t, ctx, "#results tbody tr:first-child")
	if cells := strings.Split(first, "\t"); len(cells) < 3 || cells[0] != "1" || cells[2] != "b" {
		t.Errorf("first result %q, want b, nearest to [0.1, 0.9, 0]", first)
	}
	if cli := text(t, ctx, "#v-cli"); !strings.Contains(cli, "aws dynamodb search-vectors") || !strings.Contains(cli, "--index-name ByEmb") {
		t.Errorf("CLI command %q", cli)
	}
	if loc := get1(t, ctx, chromedp.Location()); !strings.Contains(loc, "vector=") || !strings.Contains(loc, "eq.shelf=poetry") {
		t.Errorf("result URL %s does not carry the search", loc)
	}
	shoot(t, ctx, "vector")
	checkTraffic(t, w, srv.URL)
}
