package console_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

const bigTable = 100_000

// BenchmarkItemCollectionsPage renders the first page of a 100,000-item
// table over plain HTTP: the page reads one Scan page, so its time does
// not grow with the table. With Chromium installed it also reports the
// browser's first contentful paint of the same page (fcp-ms).
func BenchmarkItemCollectionsPage(b *testing.B) {
	srv := sortkeytest.NewWithOptions(b, &sortkey.Options{Console: true})
	loadItems(b, dynamodb.NewFromConfig(srv.AWSConfig()), bigTable)
	page := srv.URL + "/console/tables/Big"
	fcp := firstPaint(b, page)
	b.ResetTimer()
	for b.Loop() {
		resp, err := http.Get(page)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("status %d", resp.StatusCode)
		}
	}
	b.ReportMetric(fcp, "fcp-ms")
}

// paintScript waits for the page's first contentful paint, which headless
// Chromium may record after the load event; -1 if it never comes.
const paintScript = `new Promise(done => {
  new PerformanceObserver(list => {
    for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') done(e.startTime);
  }).observe({type: 'paint', buffered: true});
  setTimeout(() => done(-1), 10000);
})`

// firstPaint opens page in the browser and returns its first contentful
// paint in milliseconds from the navigation's start.
func firstPaint(b *testing.B, page string) float64 {
	b.Helper()
	ctx := tab(b)
	if _, err := chromedp.RunResponse(ctx, chromedp.Navigate(page)); err != nil {
		b.Fatal(err)
	}
	summary, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(".summary")))
	if err != nil || !strings.Contains(summary, "100000 items") || !strings.Contains(summary, "shows 100 items") {
		b.Fatalf("page summary %q (%v), want 100 of 100000 items", summary, err)
	}
	fcp, err := chromedp.Run(ctx, chromedp.Evaluate[float64](paintScript, chromedp.EvalAwaitPromise))
	if err != nil {
		b.Fatal(err)
	}
	return fcp
}
