package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
)

// TestSignaturesAreReusedWithinASecond sends one prepared request twice:
// within a second the second send carries the first's signature, which
// must be exactly what signing afresh at that instant gives.
func TestSignaturesAreReusedWithinASecond(t *testing.T) {
	var mu sync.Mutex
	var seen []http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Clone())
		mu.Unlock()
		w.Write([]byte("{}"))
	}))
	defer srv.Close()
	creds := &aws.Credentials{AccessKeyID: "AKID", SecretAccessKey: "secret"}
	target := &Target{Endpoint: srv.URL, Region: "us-east-1", Client: srv.Client(), Credentials: creds}
	p := target.prepare([]Request{{"GetItem", []byte(`{"TableName":"t"}`)}})[0]
	for {
		mu.Lock()
		seen = nil
		mu.Unlock()
		start := time.Now().Unix()
		for range 2 {
			if _, err := target.call(context.Background(), &p); err != nil {
				t.Fatal(err)
			}
		}
		if time.Now().Unix() == start {
			break // both sends in one second
		}
	}
	mu.Lock()
	first, second := seen[0], seen[1]
	mu.Unlock()
	if first.Get("Authorization") == "" || !strings.Contains(first.Get("Authorization"), "Credential=AKID/") {
		t.Fatalf("not signed: %v", first)
	}
	if first.Get("Authorization") != second.Get("Authorization") || first.Get("X-Amz-Date") != second.Get("X-Amz-Date") {
		t.Fatalf("signature not reused:\n%v\n%v", first, second)
	}
	// The reused signature is the one signing afresh gives.
	at, err := time.Parse("20060102T150405Z", second.Get("X-Amz-Date"))
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(string(p.Body)))
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810.GetItem")
	if err := signer.SignHTTP(context.Background(), *creds, req, p.hash, "dynamodb", "us-east-1", at); err != nil {
		t.Fatal(err)
	}
	if got := req.Header.Get("Authorization"); got != second.Get("Authorization") {
		t.Fatalf("reused signature %q, fresh one %q", second.Get("Authorization"), got)
	}
}

// TestSetupWaitsForTheTable: a server that keeps the table CREATING for a
// while must not see the preload before it says ACTIVE.
func TestSetupWaitsForTheTable(t *testing.T) {
	var mu sync.Mutex
	describes, early := 0, false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		switch r.Header.Get("X-Amz-Target") {
		case "DynamoDB_20120810.DescribeTable":
			describes++
			status := "CREATING"
			if describes >= 3 {
				status = "ACTIVE"
			}
			w.Write([]byte(`{"Table":{"TableStatus":"` + status + `"}}`))
		case "DynamoDB_20120810.BatchWriteItem":
			early = early || describes < 3
			w.Write([]byte(`{}`))
		default:
			w.Write([]byte(`{}`))
		}
	}))
	defer srv.Close()
	target := &Target{Endpoint: srv.URL, Region: "us-east-1", Client: srv.Client()}
	if _, err := target.Setup(context.Background(), Shape{Keys: 100, ItemSize: 50}, nil); err != nil {
		t.Fatal(err)
	}
	if early || describes < 3 {
		t.Fatalf("preloaded before ACTIVE (early %v, %d DescribeTable)", early, describes)
	}
}

// TestPreloadSendsUnprocessedItemsAgain: a server that leaves part of a
// batch unprocessed gets exactly that part again, and the preload counts
// every item once.
func TestPreloadSendsUnprocessedItemsAgain(t *testing.T) {
	var mu sync.Mutex
	written := map[string]int{}
	refused := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Amz-Target") != "DynamoDB_20120810.BatchWriteItem" {
			w.Write([]byte(`{}`))
			return
		}
		var req struct{ RequestItems map[string][]json.RawMessage }
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		puts := req.RequestItems[Table]
		mu.Lock()
		defer mu.Unlock()
		if !refused && len(puts) > 3 {
			refused = true
			left, _ := json.Marshal(map[string]any{Table: puts[len(puts)-3:]})
			puts = puts[:len(puts)-3]
			fmt.Fprintf(w, `{"UnprocessedItems":%s}`, left)
		} else {
			w.Write([]byte(`{"UnprocessedItems":{}}`))
		}
		for _, p := range puts {
			written[string(p)]++
		}
	}))
	defer srv.Close()
	target := &Target{Endpoint: srv.URL, Region: "us-east-1", Client: srv.Client()}
	if _, err := target.Setup(context.Background(), Shape{Keys: 60, ItemSize: 50}, nil); err != nil {
		t.Fatal(err)
	}
	if !refused || len(written) != 60 {
		t.Fatalf("refused %v, %d distinct items written, want 60", refused, len(written))
	}
	for p, n := range written {
		if n != 1 {
			t.Fatalf("%s written %d times", p, n)
		}
	}
}

func TestDirSizeSumsFiles(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "a"), make([]byte, 1000), 0o644)
	os.WriteFile(filepath.Join(dir, "sub", "b"), make([]byte, 234), 0o644)
	if n, err := DirSize(dir); err != nil || n != 1234 {
		t.Fatalf("DirSize %d, %v; want 1234", n, err)
	}
	if _, err := DirSize(filepath.Join(dir, "missing")); err == nil {
		t.Fatal("a missing directory was measured")
	}
}
