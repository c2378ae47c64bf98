package main

import (
	"errors"
	"net/url"
)

var errStoreWithPebble = errors.New("--store keeps the data in PostgreSQL: --in-memory and --data-dir are Pebble's, give one or the other")

// checkStore refuses --store beside a flag of Pebble's store, which
// would otherwise be silently ignored.
func checkStore(f serveFlags) error {
	if f.store != "" && (f.inMemory || f.dataDir != defaultDataDir) {
		return errStoreWithPebble
	}
	return nil
}

// storeDesc is the store's URL as logged: without its password.
func storeDesc(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(a store URL that does not parse)"
	}
	return u.Redacted()
}

const defaultDataDir = "./sortkey-data"
