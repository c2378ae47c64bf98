package bench

import (
	"context"
	"net/http"
	"net/http/httptest"
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
