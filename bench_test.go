package sortkey_test

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey"
)

// BenchmarkMetrics measures GetItem and PutItem through the handler, in
// process, with metrics off and on: the difference is what counting a
// call (the counters, the live window, and the capacity asked on the
// client's behalf) costs.
func BenchmarkMetrics(b *testing.B) {
	for _, op := range []string{"GetItem", "PutItem"} {
		for _, on := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/metrics=%v", op, on), func(b *testing.B) {
				h := benchMetricsHandler(b, on)
				var n atomic.Int64
				b.ReportAllocs()
				b.ResetTimer()
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						i := n.Add(1) % 256
						body := fmt.Sprintf(`{"TableName":"Bench","Key":{"pk":{"S":"p%d"}}}`, i)
						if op == "PutItem" {
							body = fmt.Sprintf(`{"TableName":"Bench","Item":{"pk":{"S":"p%d"},"name":{"S":"Ada Lovelace"}}}`, i)
						}
						if rec := benchCall(h, op, body); rec.Code != 200 {
							b.Fatal(rec.Body)
						}
					}
				})
			})
		}
	}
}

func benchMetricsHandler(b *testing.B, on bool) http.Handler {
	return benchHandler(b, &sortkey.Options{InMemory: true, TTLInterval: -1, Metrics: on})
}

// benchHandler is a handler of a database opened with opts and a table
// Bench of 256 items.
func benchHandler(b *testing.B, opts *sortkey.Options) http.Handler {
	db, err := sortkey.Open("", opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	h := db.Handler()
	benchCall(h, "CreateTable", `{"TableName":"Bench","BillingMode":"PAY_PER_REQUEST","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
	  "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}]}`)
	for i := range 256 {
		benchCall(h, "PutItem", fmt.Sprintf(`{"TableName":"Bench","Item":{"pk":{"S":"p%d"},"name":{"S":"Ada Lovelace"}}}`, i))
	}
	return h
}

func benchCall(h http.Handler, op, body string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader([]byte(body)))
	r.Header.Set("X-Amz-Target", "DynamoDB_20120810."+op)
	r.Header.Set("Content-Type", "application/x-amz-json-1.0")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	return rec
}

// BenchmarkRequestLog measures GetItem through the handler, in process,
// with no request log, with sortkey serve's defaults (info level, slow
// requests over 500ms warned of: nothing is written, but each call is
// watched) and at debug level, a JSON line per call to io.Discard.
func BenchmarkRequestLog(b *testing.B) {
	for _, tc := range []struct {
		name  string
		level slog.Level
		log   bool
	}{{"off", 0, false}, {"default", slog.LevelInfo, true}, {"debug", slog.LevelDebug, true}} {
		b.Run(tc.name, func(b *testing.B) {
			opts := &sortkey.Options{InMemory: true, TTLInterval: -1}
			if tc.log {
				opts.RequestLog = slog.New(slog.NewJSONHandler(io.Discard, &slog.HandlerOptions{Level: tc.level}))
				opts.SlowRequest = 500 * time.Millisecond
			}
			benchGetItems(b, opts)
		})
	}
}

func benchGetItems(b *testing.B, opts *sortkey.Options) {
	h := benchHandler(b, opts)
	var n atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			body := fmt.Sprintf(`{"TableName":"Bench","Key":{"pk":{"S":"p%d"}}}`, n.Add(1)%256)
			if rec := benchCall(h, "GetItem", body); rec.Code != 200 {
				b.Fatal(rec.Body)
			}
		}
	})
}
