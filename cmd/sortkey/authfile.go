package main

import (
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/sortkeydb/sortkey"
)

// readAuthFile reads --auth's file; no flag, no file, access control off.
func readAuthFile(path string) ([]byte, error) {
	if path == "" {
		return nil, nil
	}
	doc, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--auth: %w", err)
	}
	return doc, nil
}

func authDesc(f serveFlags) string {
	if f.authFile == "" {
		return "off (any credentials accepted)"
	}
	return f.authFile
}

// reloadOnHangup re-reads the auth file on each SIGHUP, until the function
// it returns is called. A file that cannot be read or parsed is refused
// and logged; the one in force stays.
func reloadOnHangup(db *sortkey.DB, path string, log *slog.Logger) (stop func()) {
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
				reloadAuth(db, path, log)
			case <-done:
				return
			}
		}
	}()
	return func() { signal.Stop(hup); close(done) }
}

func reloadAuth(db *sortkey.DB, path string, log *slog.Logger) {
	doc, err := os.ReadFile(path)
	if err == nil {
		err = db.ReloadAuth(doc)
	}
	if err != nil {
		log.Warn("auth file refused; the one in force stays", "file", path, "err", err)
		return
	}
	log.Info("auth file reloaded", "file", path)
}
