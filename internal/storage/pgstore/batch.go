package pgstore

import (
	"bytes"
	"context"
	"math/rand/v2"
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

// statsShards spreads each stats key over this many rows: a batch adds
// to one of them, chosen at random, and a read sums them all.
const statsShards = 16

// Commit applies ops in order as one transaction, in one round trip, and
// returns once it has committed. Stats deltas are summed per key and
// added in key order, so that concurrent batches lock counter rows in
// one order and cannot deadlock on them.
func (s *Store) Commit(ops []Op) error { return s.commit(ops, true) }

// CommitLazy is Commit without waiting for the commit to be flushed to
// the database's WAL (synchronous_commit off for this transaction alone):
// for work that can be redone after a crash, such as an index backfill.
// It is durable once any later durable commit is, since the WAL is
// flushed in order.
func (s *Store) CommitLazy(ops []Op) error { return s.commit(ops, false) }

// lazyCommit turns synchronous_commit off for the transaction it is
// queued in.
const lazyCommit = "SELECT set_config('synchronous_commit', 'off', true)"

func (s *Store) commit(ops []Op, durable bool) error {
	if len(ops) == 0 {
		return nil
	}
	b := &pgx.Batch{}
	if !durable {
		b.Queue(lazyCommit)
	}
	s.batch(b, ops)
	return s.retry(false, func(ctx context.Context) error {
		return s.pool.SendBatch(ctx, b).Close()
	})
}

func (s *Store) batch(b *pgx.Batch, ops []Op) {
	shard := rand.N(statsShards)
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
