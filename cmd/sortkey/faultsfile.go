package main

import (
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/sortkeydb/sortkey"
)

// readFaultsFile reads --faults' rule file; no flag, no rules.
func readFaultsFile(path string) ([]byte, error) {
	if path == "" {
		return nil, nil
	}
	doc, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--faults: %w", err)
	}
	return doc, nil
}

// reloadFaultsOnHangup re-reads the rule file on each SIGHUP, until the
// function it returns is called. It listens beside the auth file's
// reload: every channel notified of SIGHUP receives it. A file that
// cannot be read or parsed is refused and logged; the rules in force
// stay. Rules the admin API set meanwhile are replaced.
func reloadFaultsOnHangup(db *sortkey.DB, path string, log *slog.Logger) (stop func()) {
	if path == "" {
		return func() {}
	}
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-hup:
				reloadFaults(db, path, log)
			case <-done:
				return
			}
		}
	}()
	return func() { signal.Stop(hup); close(done) }
}

func reloadFaults(db *sortkey.DB, path string, log *slog.Logger) {
	doc, err := os.ReadFile(path)
	if err == nil {
		err = db.SetFaults(doc)
	}
	if err != nil {
		log.Warn("fault rules refused; the ones in force stay", "file", path, "err", err)
		return
	}
	log.Info("fault rules reloaded", "file", path)
}
