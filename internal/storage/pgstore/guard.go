package pgstore

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"os"
	"slices"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Several sortkey processes may share a schema. Each reads an item,
// decides in Go (a condition, an update expression), and commits; a
// guard makes that commit conditional on what was read, checked inside
// the commit's own transaction under an advisory lock on the key, so two
// processes that read the same version cannot both commit on it. The
// loser's whole transaction rolls back and it reads again (ErrConflict).
// Transaction-scoped locks die with their transaction: a process that is
// killed holds nothing.

// ErrConflict is a commit's answer when a guard found its key changed
// since the caller read it: nothing was written.
var ErrConflict = errors.New("pgstore: a guarded key changed since it was read")

// ErrStaleShared is the ErrConflict of a shared guard.
var ErrStaleShared = fmt.Errorf("%w (a shared key)", ErrConflict)

// conflictCode and sharedCode are the SQLSTATEs the guard functions
// raise: for an exclusive guard and for a shared one.
const conflictCode, sharedCode = "SK409", "SK410"

// guardFunctions are the migration to schema version 2: guard checks a
// key's value (by digest, NULL for none) under an exclusive or shared
// lock; guard_last checks that no key of a range comes after one. A volatile function
// takes a fresh snapshot per statement, so the check sees every commit
// that released the lock.
var guardFunctions = []string{
	`CREATE OR REPLACE FUNCTION %[1]s.guard(lk bigint, shared boolean, key bytea, want text) RETURNS void
	 LANGUAGE plpgsql VOLATILE AS $$
	 BEGIN
	   IF shared THEN PERFORM pg_advisory_xact_lock_shared(lk); ELSE PERFORM pg_advisory_xact_lock(lk); END IF;
	   IF (SELECT md5(v) FROM %[1]s.kv WHERE k = key) IS NOT DISTINCT FROM want THEN
	     RETURN;
	   END IF;
	   IF shared THEN
	     RAISE EXCEPTION 'sortkey: a guarded key changed since it was read' USING ERRCODE = 'SK410';
	   END IF;
	   RAISE EXCEPTION 'sortkey: a guarded key changed since it was read' USING ERRCODE = 'SK409';
	 END $$`,
	`CREATE OR REPLACE FUNCTION %[1]s.guard_last(lk bigint, lo bytea, hi bytea, want bytea) RETURNS void
	 LANGUAGE plpgsql VOLATILE AS $$
	 BEGIN
	   PERFORM pg_advisory_xact_lock(lk);
	   IF EXISTS (SELECT 1 FROM %[1]s.kv WHERE k >= lo AND k < hi AND (want IS NULL OR k > want)) THEN
	     RAISE EXCEPTION 'sortkey: a guarded key changed since it was read' USING ERRCODE = 'SK409';
	   END IF;
	 END $$`,
}

// A Guard is one condition of a commit.
type Guard struct {
	// Key's value must digest to Want (Digest; "" for no value), under an
	// exclusive lock on Key unless Shared. With Hi set, no key in
	// [Key, Hi) may come after Last instead (nil: the range is empty):
	// keys before it may have gone meanwhile.
	Key, Hi, Last []byte
	Want          string
	Shared        bool
}

// Digest is what a guard compares a value by: PostgreSQL's md5 of it,
// so that an item's bytes do not travel twice.
func Digest(val []byte) string {
	sum := md5.Sum(val)
	return hex.EncodeToString(sum[:])
}

// lockOf is a guard's advisory lock: a hash of its key, so that every
// process locks one key alike.
func lockOf(key []byte) int64 {
	h := fnv.New64a()
	h.Write(key)
	return int64(h.Sum64())
}

// queueGuards adds the guards ahead of a commit's changes, in lock
// order, so that two commits never each hold a lock the other waits for.
func (s *Store) queueGuards(b *pgx.Batch, gs []Guard) {
	if len(gs) == 0 || unguarded {
		return
	}
	gs = slices.Clone(gs)
	slices.SortFunc(gs, func(x, y Guard) int { return cmpLock(lockOf(x.Key), lockOf(y.Key), x.Key, y.Key) })
	for i := range gs {
		s.queueGuard(b, &gs[i])
	}
}

func cmpLock(a, b int64, ka, kb []byte) int {
	if a != b {
		if a < b {
			return -1
		}
		return 1
	}
	return bytes.Compare(ka, kb)
}

func (s *Store) queueGuard(b *pgx.Batch, g *Guard) {
	if g.Hi != nil {
		b.Queue(s.sql.guardLast, lockOf(g.Key), g.Key, g.Hi, g.Last)
		return
	}
	var want *string
	if g.Want != "" {
		want = &g.Want
	}
	b.Queue(s.sql.guard, lockOf(g.Key), g.Shared, g.Key, want)
}

// conflictOf translates a guard's refusal; other errors pass.
func conflictOf(err error) error {
	var pe *pgconn.PgError
	switch {
	case !errors.As(err, &pe):
		return err
	case pe.Code == conflictCode:
		return ErrConflict
	case pe.Code == sharedCode:
		return ErrStaleShared
	}
	return err
}

// unguarded turns every guard off, for one purpose: showing that the
// cross-node linearizability check fails without them. Never set it on a
// store more than one process uses.
var unguarded = os.Getenv("SORTKEY_UNSAFE_NO_CROSS_NODE_LOCKS") == "1"

func init() {
	if unguarded {
		slog.Warn("SORTKEY_UNSAFE_NO_CROSS_NODE_LOCKS=1: writes from several sortkey processes on one PostgreSQL schema can overwrite each other")
	}
}
