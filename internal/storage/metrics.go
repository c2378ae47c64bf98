package storage

import (
	"sync/atomic"

	"github.com/sortkeydb/sortkey/internal/storage/pgstore"

	"github.com/cockroachdb/pebble"
)

// Health is Pebble's own account of how the store is doing, the few
// numbers an operator watches: whether compactions keep up, whether
// writes were held back for them, and whether the block cache serves
// reads.
type Health struct {
	Compactions         int64  // compactions finished since open
	CompactionDebtBytes uint64 // bytes compactions still estimate to rewrite
	Flushes             int64  // memtable flushes since open
	WriteStalls         int64  // times writes were held back for compactions
	CacheHits           int64  // block cache hits since open
	CacheMisses         int64
	CacheBytes          int64  // bytes held by the block cache
	MemtableBytes       uint64 // bytes of the memtables
	DiskBytes           uint64 // bytes of every file of the store
	ReadAmp             int    // sstables a point read may have to look in

	// Postgres is the PostgreSQL store's account instead; nil on Pebble.
	Postgres *pgstore.Usage
}

// stalls counts Pebble's write stalls, which its metrics do not keep: the
// event listener Open installs adds one per stall begun.
type stalls struct{ n atomic.Int64 }

func (s *stalls) listener() *pebble.EventListener {
	return &pebble.EventListener{WriteStallBegin: func(pebble.WriteStallBeginInfo) { s.n.Add(1) }}
}

// health reads Pebble's metrics; it takes a lock inside Pebble briefly, so
// it is for a scrape, not for every request.
func (s *pebbleStore) health() Health {
	m := s.pdb.Metrics()
	return Health{
		Compactions: m.Compact.Count, CompactionDebtBytes: m.Compact.EstimatedDebt, Flushes: m.Flush.Count,
		WriteStalls: s.stalls.n.Load(), CacheHits: m.BlockCache.Hits, CacheMisses: m.BlockCache.Misses,
		CacheBytes: m.BlockCache.Size, MemtableBytes: m.MemTable.Size,
		DiskBytes: m.DiskSpaceUsage(), ReadAmp: m.ReadAmp(),
	}
}
