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

// noteNodes tells a server on PostgreSQL what it shares with every other
// node on its schema and what stays its own, so that nobody has to guess
// behind a load balancer.
func noteNodes(f serveFlags, log *slog.Logger) {
	if f.store == "" {
		return
	}
	log.Info("other sortkey nodes may serve this schema too (docs/CLUSTER.md)",
		"shared", "items, transactions and their tokens, the catalog, streams, backups; TTL deletes and index backfills run on one node at a time",
		"perNode", "capacity enforcement, fault rules, the virtual clock, replica lag, metrics, console sessions")
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
