package bench

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey"
)

// embedded serves an in-memory sortkey for the test's length.
func embedded(t *testing.T) *Target {
	t.Helper()
	db, err := sortkey.Open("", &sortkey.Options{InMemory: true, TTLInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(db.Handler())
	t.Cleanup(func() { srv.Close(); db.Close() })
	return &Target{Endpoint: srv.URL, Region: "us-east-1", Client: http.DefaultClient}
}

// TestEveryWorkloadRunsWithoutErrors runs each workload briefly against
// an in-memory sortkey whose table has the index: every request must be
// one DynamoDB accepts, or the figures would measure errors.
func TestEveryWorkloadRunsWithoutErrors(t *testing.T) {
	target := embedded(t)
	ctx := context.Background()
	shape := Shape{Keys: 300, ItemSize: 100, Skew: 1.2, GSI: true}
	if _, err := target.Setup(ctx, shape, nil); err != nil {
		t.Fatal(err)
	}
	for _, w := range Workloads {
		samples, err := target.RunWorkload(ctx, w, shape, 2, 200*time.Millisecond, 1, func(int64, int64) {})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range Summarize(w, 2, samples, time.Second) {
			if r.Ops == 0 || r.Errors != 0 {
				t.Fatalf("%s/%s: %d ops, %d errors (%s)", w, r.Op, r.Ops, r.Errors, r.FirstError)
			}
		}
	}
}

func TestBuildRefusesUnknownWorkload(t *testing.T) {
	if _, err := Build("scan-everything", Shape{Keys: 10}, 1, 1); err == nil {
		t.Fatal("an unknown workload was accepted")
	}
	_, err := embedded(t).RunWorkload(context.Background(), "query-index", Shape{Keys: 10}, 1, time.Millisecond, 1, func(int64, int64) {})
	if err == nil || !strings.Contains(err.Error(), "--gsi") {
		t.Fatalf("query-index without the index: %v", err)
	}
}

// count is the number of items in the table, or its index, by a Scan
// with Select COUNT.
func count(t *testing.T, target *Target, index string) int {
	t.Helper()
	var total int
	var from json.RawMessage
	for {
		body := `{"TableName":"` + Table + `","Select":"COUNT"`
		if index != "" {
			body += `,"IndexName":"` + index + `"`
		}
		if from != nil {
			body += `,"ExclusiveStartKey":` + string(from)
		}
		p := target.prepare([]Request{{"Scan", []byte(body + "}")}})[0]
		answer, err := target.call(context.Background(), &p)
		if err != nil {
			t.Fatal(err)
		}
		var page scanPage
		if err := page.parse(answer); err != nil {
			t.Fatal(err)
		}
		total += page.Count
		if from = page.LastEvaluatedKey; from == nil {
			return total
		}
	}
}

// TestStreamingPreloadWritesEveryItem: the preload writes exactly items
// 0..n-1 (n not a multiple of the batch size), each into the index too,
// and reports them.
func TestStreamingPreloadWritesEveryItem(t *testing.T) {
	target := embedded(t)
	load, err := target.Setup(context.Background(), Shape{Keys: 1037, ItemSize: 200, GSI: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := count(t, target, ""); got != 1037 {
		t.Fatalf("table holds %d items, want 1037", got)
	}
	if got := count(t, target, Index); got != 1037 {
		t.Fatalf("index holds %d items, want 1037", got)
	}
	if load.Items != 1037 || load.Requests != 42 || load.ItemsPerSec <= 0 || load.Workload != "preload" {
		t.Fatalf("load report %+v", load)
	}
}

// TestQueryIndexReturnsABucket: every query-index request reads the ten
// items of one bucket.
func TestQueryIndexReturnsABucket(t *testing.T) {
	target := embedded(t)
	shape := Shape{Keys: 500, ItemSize: 100, GSI: true}
	if _, err := target.Setup(context.Background(), shape, nil); err != nil {
		t.Fatal(err)
	}
	reqs, err := Build("query-index", shape, 5, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range reqs {
		p := target.prepare([]Request{r})[0]
		body, err := target.call(context.Background(), &p)
		if err != nil {
			t.Fatal(err)
		}
		var page scanPage
		if err := page.parse(body); err != nil || page.Count != bucketSize {
			t.Fatalf("%s: %d items (%v): %.300s", r.Body, page.Count, err, body)
		}
	}
}

// TestScanCountsItems: the scan workload's pages are counted as items, and
// its segments together cover the table: a run long enough to read a
// small table several times over reads more items than it holds.
func TestScanCountsItems(t *testing.T) {
	target := embedded(t)
	if _, err := target.Setup(context.Background(), Shape{Keys: 250, ItemSize: 100}, nil); err != nil {
		t.Fatal(err)
	}
	samples := target.Scan(context.Background(), 2, 300*time.Millisecond, func(int64, int64) {})
	rs := Summarize("scan", 2, samples, 300*time.Millisecond)
	if len(rs) != 1 || rs[0].Op != "Scan" || rs[0].Errors != 0 || rs[0].Ops == 0 {
		t.Fatalf("%+v", rs)
	}
	if rs[0].Items <= 250 || rs[0].Items > rs[0].Ops*ScanLimit || rs[0].ItemsPerSec <= 0 {
		t.Fatalf("%d items in %d pages", rs[0].Items, rs[0].Ops)
	}
}

// TestScanCoversTheTableOnce: following a segment's pages from its start
// to its end reads each item once across the segments.
func TestScanCoversTheTableOnce(t *testing.T) {
	target := embedded(t)
	if _, err := target.Setup(context.Background(), Shape{Keys: 333, ItemSize: 100}, nil); err != nil {
		t.Fatal(err)
	}
	total := 0
	for segment := range 3 {
		var from json.RawMessage
		for first := true; first || from != nil; first = false {
			p := target.prepare([]Request{scanRequest(segment, 3, from)})[0]
			body, err := target.call(context.Background(), &p)
			if err != nil {
				t.Fatal(err)
			}
			var page scanPage
			if err := page.parse(body); err != nil {
				t.Fatal(err)
			}
			total, from = total+page.Count, page.LastEvaluatedKey
		}
	}
	if total != 333 {
		t.Fatalf("the segments read %d items, want 333", total)
	}
}

// TestItemsDoNotCompress: item padding is random text, so a server that
// compresses its data cannot shrink the benchmark's items to nothing.
func TestItemsDoNotCompress(t *testing.T) {
	var all bytes.Buffer
	for i := range 1000 {
		it := item(i, Shape{ItemSize: 200})
		if len(it) < 200 || len(it) > 260 { // JSON; the DynamoDB item size is about 190 bytes
			t.Fatalf("item %d is %d bytes: %s", i, len(it), it)
		}
		all.WriteString(it)
	}
	var z bytes.Buffer
	w, _ := flate.NewWriter(&z, flate.BestCompression)
	w.Write(all.Bytes())
	w.Close()
	// Entropy coding alone takes alphanumeric text to 6/8 of its size, and
	// the keys and JSON around it compress well; padding of one repeated
	// character would compress to a few percent.
	if ratio := float64(z.Len()) / float64(all.Len()); ratio < 0.45 {
		t.Fatalf("1,000 items compress to %.0f%% of their size", ratio*100)
	}
	if item(5, Shape{ItemSize: 100000}) == "" || len(padding(3, 3<<20)) != 3<<20 {
		t.Fatal("large padding")
	}
}

// TestConflictsAreCountedApart: a transaction cancelled for
// TransactionConflict is contention DynamoDB answers the same way, so it
// is counted as a conflict, not an error, even when the reason falls past
// the 200 bytes the error's text keeps.
func TestConflictsAreCountedApart(t *testing.T) {
	reasons := strings.Repeat(`{"Code":"None"},`, 20) + `{"Code":"TransactionConflict"}`
	body := []byte(`{"__type":"com.amazonaws.dynamodb.v20120810#TransactionCanceledException","CancellationReasons":[` + reasons + `]}`)
	samples := []Sample{
		{Op: "TransactWriteItems", Err: httpError("TransactWriteItems", 400, body)},
		{Op: "TransactWriteItems", Err: httpError("TransactWriteItems", 400, []byte(`{"__type":"ValidationException"}`))},
		{Op: "TransactWriteItems"},
	}
	r := Summarize("transact-write", 2, samples, time.Second)[0]
	if r.Ops != 3 || r.Conflicts != 1 || r.Errors != 1 || !strings.Contains(r.FirstError, "ValidationException") {
		t.Fatalf("%+v", r)
	}
}
