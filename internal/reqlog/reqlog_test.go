package reqlog

import (
	"bytes"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey/internal/server"
)

// A server need not watch calls for a logger that would write nothing:
// info or above with no slow threshold, or error level whatever it is.
func TestWanted(t *testing.T) {
	at := func(l slog.Level) *slog.Logger {
		return slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: l}))
	}
	for _, tc := range []struct {
		level slog.Level
		slow  time.Duration
		want  bool
	}{
		{slog.LevelInfo, 0, false}, {slog.LevelError, time.Second, false},
		{slog.LevelInfo, time.Second, true}, {slog.LevelWarn, time.Second, true}, {slog.LevelDebug, 0, true},
	} {
		if got := Wanted(at(tc.level), tc.slow); got != tc.want {
			t.Errorf("Wanted(%v, %v) = %v, want %v", tc.level, tc.slow, got, tc.want)
		}
	}
}

// A target that names no operation is logged, cut to its first 100 bytes:
// the client chose it, and a line must stay a line's length.
func TestLongTargetIsCut(t *testing.T) {
	var buf bytes.Buffer
	l := New(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})), 0)
	target := strings.Repeat("x", 150)
	l.Answered(httptest.NewRequest("POST", "/", nil), &server.Answer{RequestID: "R", Target: target, Status: 400, Error: "UnknownOperationException"})
	if !strings.Contains(buf.String(), " target="+target[:100]+" ") || strings.Contains(buf.String(), target[:101]) {
		t.Fatalf("logged %q", buf.String())
	}
}
