package main

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"time"
)

// logFlags are serve's logging flags (docs/OPERATIONS.md).
type logFlags struct {
	level  string
	format string
	slow   time.Duration
}

// logLevels are the levels --log-level takes; slog's own parser would also
// take offsets such as "info+2", which nobody needs to type.
var logLevels = map[string]slog.Level{"debug": slog.LevelDebug, "info": slog.LevelInfo, "warn": slog.LevelWarn, "error": slog.LevelError}

func logFlagSet(fs *flag.FlagSet, f *logFlags) {
	fs.StringVar(&f.level, "log-level", "info", "least severe log lines written: debug (adds a line per request), info, warn or error")
	fs.StringVar(&f.format, "log-format", "text", "log lines as text (key=value) or json, one object a line")
	fs.DurationVar(&f.slow, "slow-request", 500*time.Millisecond, "log a warning for each request that takes this long or longer; 0 turns it off")
}

// check refuses a level or format serve does not know and a negative
// threshold.
func (f logFlags) check(stderr io.Writer) error {
	var err error
	if _, ok := logLevels[f.level]; !ok {
		err = fmt.Errorf("--log-level must be debug, info, warn or error, not %q", f.level)
	} else if f.format != "text" && f.format != "json" {
		err = fmt.Errorf("--log-format must be text or json, not %q", f.format)
	} else if f.slow < 0 {
		err = fmt.Errorf("--slow-request must not be negative")
	}
	if err != nil {
		fmt.Fprintln(stderr, "sortkey serve:", err)
	}
	return err
}

// logger writes to w at the flags' level and in their format.
func (f logFlags) logger(w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: logLevels[f.level]}
	if f.format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
