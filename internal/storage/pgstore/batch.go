package pgstore

import (
	"bytes"
	"context"
	"slices"

	"github.com/jackc/pgx/v5"
)

// OpKind says what an Op does.
type OpKind uint8

const (
	OpSet         OpKind = iota // Key = Val
	OpDelete                    // Key gone
	OpDeleteRange               // every key and stats key in [Key, Hi); Hi nil is unbounded
	OpStats                     // add Items and Bytes to the stats at Key
)

// Op is one change of a batch.
type Op struct {
	Kind         OpKind
	Key, Val, Hi []byte
	Items, Bytes int64
}

// Commit applies ops in order as one transaction, in one round trip, and
// returns once it has committed. Stats deltas are summed per key and
// added to the row of the commit's slot (slots below), in key order.
// With guards (guard.go), it commits only if every guard holds, and
// answers ErrConflict, having written nothing, if one does not.
func (s *Store) Commit(ops []Op, guards ...Guard) error { return s.commit(ops, guards, true) }

// CommitLazy is Commit without waiting for the commit to be flushed to
// the database's WAL (synchronous_commit off for this transaction alone):
// for work that can be redone after a crash, such as an index backfill.
// It is durable once any later durable commit is, since the WAL is
// flushed in order.
func (s *Store) CommitLazy(ops []Op, guards ...Guard) error { return s.commit(ops, guards, false) }

// lazyCommit turns synchronous_commit off for the transaction it is
// queued in.
const lazyCommit = "SELECT set_config('synchronous_commit', 'off', true)"

func (s *Store) commit(ops []Op, guards []Guard, durable bool) error {
	if len(ops) == 0 {
		return nil
	}
	slot := <-s.slots
	defer func() { s.slots <- slot }()
	b := &pgx.Batch{}
	if !durable {
		b.Queue(lazyCommit)
	}
	s.queueGuards(b, guards)
	s.batch(b, ops, slot)
	err := s.retry(false, func(ctx context.Context) error {
		return s.pool.SendBatch(ctx, b).Close()
	})
	return conflictOf(err)
}

// Slots give each commit in flight a stats row of its own. Every table's
// count changes with almost every write, so commits that shared a row
// would queue on its lock, each until the other's commit was flushed;
// with one slot per pool connection no two commits ever meet on a row,
// and a key's stats are the sum of at most that many rows.
func newSlots(n int) chan int {
	slots := make(chan int, n)
	for i := range n {
		slots <- i
	}
	return slots
}

func (s *Store) batch(b *pgx.Batch, ops []Op, shard int) {
	for i := 0; i < len(ops); {
		if ops[i].Kind == OpStats {
			j := i
			for j < len(ops) && ops[j].Kind == OpStats {
				j++
			}
			s.queueStats(b, ops[i:j], shard)
			i = j
			continue
		}
		s.queue(b, &ops[i])
		i++
	}
}

func (s *Store) queue(b *pgx.Batch, op *Op) {
	switch op.Kind {
	case OpSet:
		b.Queue(s.sql.set, op.Key, op.Val)
	case OpDelete:
		b.Queue(s.sql.del, op.Key)
	case OpDeleteRange:
		if op.Hi == nil {
			b.Queue(s.sql.delRangeOpen, op.Key)
			b.Queue(s.sql.delStatsOpen, op.Key)
			return
		}
		b.Queue(s.sql.delRange, op.Key, op.Hi)
		b.Queue(s.sql.delStats, op.Key, op.Hi)
	}
}

// queueStats adds a run of stats deltas, summed per key, in key order.
func (s *Store) queueStats(b *pgx.Batch, run []Op, shard int) {
	run = slices.Clone(run)
	slices.SortStableFunc(run, func(x, y Op) int { return bytes.Compare(x.Key, y.Key) })
	for i := 0; i < len(run); {
		sum := run[i]
		for i++; i < len(run) && bytes.Equal(run[i].Key, sum.Key); i++ {
			sum.Items += run[i].Items
			sum.Bytes += run[i].Bytes
		}
		if sum.Items != 0 || sum.Bytes != 0 {
			b.Queue(s.sql.stats, sum.Key, shard, sum.Items, sum.Bytes)
		}
	}
}
