package reqlog

import (
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey/internal/server"
)

// BenchmarkAnswered is the watcher's own cost per call: at info level
// with a slow threshold (serve's default, which writes nothing for a fast
// call) and at debug level, a JSON line to io.Discard.
func BenchmarkAnswered(b *testing.B) {
	r := httptest.NewRequest("POST", "/", nil)
	a := &server.Answer{RequestID: "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789ABCDEFGHIJKLMNOP", Op: "GetItem", Status: 200, Took: 80 * time.Microsecond}
	for _, level := range []slog.Level{slog.LevelInfo, slog.LevelDebug} {
		b.Run(level.String(), func(b *testing.B) {
			l := New(slog.New(slog.NewJSONHandler(io.Discard, &slog.HandlerOptions{Level: level})), 500*time.Millisecond)
			b.ReportAllocs()
			for b.Loop() {
				l.Answered(r, a)
			}
		})
	}
}
