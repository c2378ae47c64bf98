package main

import (
	"errors"
	"fmt"
	"log/slog"
	"net/url"
)

var errStoreInMemory = errors.New("--store keeps the data in PostgreSQL, --in-memory in memory: give one or the other")

// msgDataDirInMemory refuses a folder that --in-memory would leave unused.
const msgDataDirInMemory = "%s names a folder for the data, %s keeps it in memory: give one or the other (--in-memory on the command line wins over a --data-dir from the environment or a config file, such as the container image's SORTKEY_DATA_DIR)"

// checkDataDir refuses --data-dir beside --in-memory when they come from
// one source, or --data-dir from a higher one: either way someone asked
// for the folder, and it would be silently ignored. An --in-memory above
// the --data-dir wins, as a higher source does: `docker run IMAGE serve
// --in-memory` overrides the image's SORTKEY_DATA_DIR=/data.
func checkDataDir(f serveFlags, from sourceOf) error {
	dir, mem := from("data-dir"), from("in-memory")
	if !f.inMemory || dir == fromDefault || dir < mem {
		return nil
	}
	return fmt.Errorf(msgDataDirInMemory, dir.where("data-dir"), mem.where("in-memory"))
}

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
