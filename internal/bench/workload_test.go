package bench

import (
	"bytes"
	"compress/flate"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey"
)

// TestEveryWorkloadRunsWithoutErrors runs each workload briefly against
// an in-memory sortkey: every prebuilt request must be one DynamoDB
// accepts, or the figures would measure errors.
func TestEveryWorkloadRunsWithoutErrors(t *testing.T) {
	db, err := sortkey.Open("", &sortkey.Options{InMemory: true, TTLInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	srv := httptest.NewServer(db.Handler())
	defer srv.Close()
	target := &Target{Endpoint: srv.URL, Region: "us-east-1", Client: http.DefaultClient}
	ctx := context.Background()
	if err := target.Setup(ctx, 300, 100); err != nil {
		t.Fatal(err)
	}
	for _, w := range Workloads {
		reqs, err := Build(w, Shape{Keys: 300, ItemSize: 100, Skew: 1.2}, 64, 1)
		if err != nil {
			t.Fatal(err)
		}
		samples := target.Run(ctx, reqs, 2, 200*time.Millisecond, func(int64, int64) {})
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
}

// TestItemsDoNotCompress: item padding is random text, so a server that
// compresses its data cannot shrink the benchmark's items to nothing.
func TestItemsDoNotCompress(t *testing.T) {
	var all bytes.Buffer
	for i := range 1000 {
		it := item(i, 200)
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
	if item(5, 100000) == "" || len(padding(3, 3<<20)) != 3<<20 {
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
