package storage

import (
	"crypto/rand"
	"encoding/hex"
	"hash/fnv"
	"os"
	"path/filepath"
)

// TestStoreEnv names the test switch: with a postgres:// URL in it, every
// store that would be Pebble's is PostgreSQL's instead, so that the whole
// test suite (and any sortkey started by it) runs on PostgreSQL. An
// in-memory store gets a schema of its own, dropped at Close; a data
// directory gets the schema named after its path, so that reopening the
// directory reopens its data, as Pebble would.
const TestStoreEnv = "SORTKEY_TEST_STORE"

func underTestStore(opts Options) Options {
	url := os.Getenv(TestStoreEnv)
	if url == "" {
		return opts
	}
	opts.URL = url
	if opts.InMemory {
		opts.schema, opts.temporary = "sortkey_mem_"+randomHex(), true
		return opts
	}
	if opts.Dir != "" {
		_ = os.MkdirAll(opts.Dir, 0o755)
		abs, _ := filepath.Abs(opts.Dir)
		h := fnv.New64a()
		h.Write([]byte(abs))
		opts.schema = "sortkey_dir_" + hex.EncodeToString(h.Sum(nil))
	}
	return opts
}

// UnderTestStore reports whether the test switch is set: tests of what
// only Pebble does (its files, its metrics) say so and skip.
func UnderTestStore() bool { return os.Getenv(TestStoreEnv) != "" }

func randomHex() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
