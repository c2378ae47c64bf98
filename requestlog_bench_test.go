package sortkey_test

import (
	"fmt"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey"
)

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
