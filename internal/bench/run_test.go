package bench

import (
	"context"
	"net/http"
	"net/http/httptest"
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
	if err := target.Setup(context.Background(), 100, 50); err != nil {
		t.Fatal(err)
	}
	if early || describes < 3 {
		t.Fatalf("preloaded before ACTIVE (early %v, %d DescribeTable)", early, describes)
	}
}
