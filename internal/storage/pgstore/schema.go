package pgstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"
)

// SchemaVersion is the version of the schema this build writes. Each
// migration takes a schema from its index to the next version.
const SchemaVersion = 2

// migrations[i] are the statements that take a schema of version i to
// i+1; %[1]s is the schema's quoted name.
var migrations = [][]string{{
	`CREATE TABLE IF NOT EXISTS %[1]s.kv (k bytea PRIMARY KEY, v bytea NOT NULL)`,
	`CREATE TABLE IF NOT EXISTS %[1]s.counters (k bytea NOT NULL, shard int NOT NULL,
	   items bigint NOT NULL, bytes bigint NOT NULL, PRIMARY KEY (k, shard))`,
}, guardFunctions}

// ErrNewerSchema is Open's answer for a schema a newer sortkey wrote.
var ErrNewerSchema = errors.New("pgstore: the schema was written by a newer sortkey")

// migrate creates the schema and brings it to SchemaVersion in one
// transaction. The caller holds the schema's lock, so no other sortkey
// migrates it meanwhile.
func migrate(ctx context.Context, conn *pgx.Conn, schema string) error {
	q := ident(schema)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA IF NOT EXISTS "+q); err != nil {
		return err
	}
	if _, err := conn.Exec(ctx, "CREATE TABLE IF NOT EXISTS "+q+".meta (name text PRIMARY KEY, value text NOT NULL)"); err != nil {
		return err
	}
	return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		v, err := version(ctx, tx, q)
		if err != nil {
			return err
		}
		if v > SchemaVersion {
			return fmt.Errorf("%w: schema %s is at version %d, this build knows %d", ErrNewerSchema, schema, v, SchemaVersion)
		}
		return upgrade(ctx, tx, q, v)
	})
}

func version(ctx context.Context, tx pgx.Tx, q string) (int, error) {
	var s string
	err := tx.QueryRow(ctx, "SELECT value FROM "+q+".meta WHERE name = 'schema_version'").Scan(&s)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(s)
}

func upgrade(ctx context.Context, tx pgx.Tx, q string, from int) error {
	for v := from; v < SchemaVersion; v++ {
		for _, stmt := range migrations[v] {
			if _, err := tx.Exec(ctx, fmt.Sprintf(stmt, q)); err != nil {
				return fmt.Errorf("pgstore: migrate to version %d: %w", v+1, err)
			}
		}
	}
	if from == SchemaVersion {
		return nil
	}
	_, err := tx.Exec(ctx, "INSERT INTO "+q+".meta (name, value) VALUES ('schema_version', $1) "+
		"ON CONFLICT (name) DO UPDATE SET value = excluded.value", strconv.Itoa(SchemaVersion))
	return err
}

func ident(name string) string { return pgx.Identifier{name}.Sanitize() }
