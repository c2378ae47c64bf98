package main

import (
	"errors"
	"log/slog"
	"net/url"
)

var errStoreInMemory = errors.New("--store keeps the data in PostgreSQL, --in-memory in memory: give one or the other")

// checkStore refuses --store beside --in-memory, which contradicts it.
// --data-dir is only warned about (warnDataDir): the container image sets
// it for every server.
func checkStore(f serveFlags) error {
	if f.store != "" && f.inMemory {
		return errStoreInMemory
	}
	return nil
}

// warnDataDir says that a --data-dir other than the default is not used.
func warnDataDir(f serveFlags, log *slog.Logger) {
	if f.store != "" && f.dataDir != defaultDataDir {
		log.Warn("--data-dir is not used: --store keeps the data in PostgreSQL", "dataDir", f.dataDir)
	}
}

// storeDesc is the store's URL as logged: without its password.
func storeDesc(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(a store URL that does not parse)"
	}
	return u.Redacted() + " (PostgreSQL)"
}

const defaultDataDir = "./sortkey-data"
