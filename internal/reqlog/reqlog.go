package reqlog

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/sortkeydb/sortkey/internal/server"
)

// Logger logs the API calls a server answers.
type Logger struct {
	log  *slog.Logger
	slow time.Duration // 0: no slow-request warnings
}

// New logs to log: every call at debug level when log is enabled for it,
// and every call that took slow or longer at warn level (slow 0: none).
func New(log *slog.Logger, slow time.Duration) *Logger {
	return &Logger{log: log, slow: slow}
}

// Wanted reports whether a Logger on log with threshold slow would ever
// write a line. When it would not, a server need not watch calls for it,
// so logging at the default level costs nothing.
func Wanted(log *slog.Logger, slow time.Duration) bool {
	ctx := context.Background()
	return log.Enabled(ctx, slog.LevelDebug) || slow > 0 && log.Enabled(ctx, slog.LevelWarn)
}

// Answered logs a, as a server.Watcher: a slow call at warn level, any
// other only if debug is on. Disabled levels cost a comparison.
func (l *Logger) Answered(r *http.Request, a *server.Answer) {
	level, msg := slog.LevelDebug, "request"
	if l.slow > 0 && a.Took >= l.slow {
		level, msg = slog.LevelWarn, "slow request"
	}
	ctx := r.Context()
	if !l.log.Enabled(ctx, level) {
		return
	}
	l.log.LogAttrs(ctx, level, msg, attrs(r, a)...)
}

// maxTarget bounds how much of an unknown X-Amz-Target, which the client
// chose, a line repeats.
const maxTarget = 100

// attrs are a call's fields: what the client sent as its target only when
// it named no operation sortkey serves, and the error code only on error.
func attrs(r *http.Request, a *server.Answer) []slog.Attr {
	out := make([]slog.Attr, 0, 6)
	out = append(out, slog.String("requestId", a.RequestID))
	if a.Op != "" {
		out = append(out, slog.String("op", a.Op))
	} else {
		out = append(out, slog.String("target", a.Target[:min(len(a.Target), maxTarget)]))
	}
	out = append(out, slog.Int("status", a.Status))
	if a.Error != "" {
		out = append(out, slog.String("error", string(a.Error)))
	}
	return append(out, slog.Duration("took", a.Took), slog.String("client", r.RemoteAddr))
}
