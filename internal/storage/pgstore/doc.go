// Package pgstore keeps sortkey's ordered key space in PostgreSQL, or in
// a database that speaks its wire protocol (CockroachDB, YugabyteDB), through
// jackc/pgx.
//
// The key space is one table of byte keys and values, kv(k bytea primary
// key, v bytea), so a range of keys is an index range read in key order,
// both ways; table and index stats are summed from rows of counters, each
// key spread over one row per commit slot so that concurrent writers of one
// table never queue on one row. Everything lives in one schema that the store owns
// ("sortkey" unless the URL's schema parameter names another), versioned
// in its meta table: Open creates or migrates it, and refuses a schema
// written by a newer version.
//
// A batch is sent as one pipeline of statements that PostgreSQL runs as
// one implicit transaction: one round trip, all or nothing, acknowledged
// once committed (durable by the server's own settings). A snapshot is a
// REPEATABLE READ, READ ONLY transaction on a connection of its own.
// Serialization failures and deadlocks (SQLSTATE 40001, 40P01) and
// requests that never reached the server are retried with backoff; a
// statement that did not answer within the store's timeout fails rather
// than hangs.
//
// One process owns a schema at a time, as one process owns a Pebble
// directory: the engine's item locks and sequence numbers live in it. Open
// takes a session advisory lock for that, held on a connection of its own.
//
// The SQL is written to run on PostgreSQL 14 and later, CockroachDB and
// YugabyteDB alike (docs/STORES.md lists it); only PostgreSQL is tested.
package pgstore
