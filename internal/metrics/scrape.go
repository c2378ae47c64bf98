package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/sortkeydb/sortkey/internal/storage"
)

// scrape collects, when Prometheus scrapes, what the engine keeps
// anyway: item counts and sizes, and the store's statistics (Pebble's, or
// the PostgreSQL store's round trips and connections).
type scrape struct{ src Source }

func newScrape(src Source) *scrape { return &scrape{src} }

func desc(name, help string, labels ...string) *prometheus.Desc {
	return prometheus.NewDesc(Prefix+name, help, labels, nil)
}

var (
	itemsDesc = desc("table_items", "Items in a table or index (\"\" for the table itself), as DescribeTable's ItemCount.", "table", "index")
	bytesDesc = desc("table_size_bytes", "Bytes of a table's or index's items, as DescribeTable's TableSizeBytes and IndexSizeBytes.", "table", "index")

	streamRecordsDesc = desc("stream_records", "Stream records kept for a table: what a reader from TRIM_HORIZON would still read.", "table")
	ttlDeletedDesc    = desc("ttl_deleted_total", "Items the TTL sweeper deleted from a table.", "table")
	lastSweepDesc     = desc("ttl_last_sweep_timestamp_seconds", "When the TTL sweeper last finished a pass over every TTL table, by the database clock.")
)

// storageStat is one of Pebble's numbers as a metric.
type storageStat struct {
	desc  *prometheus.Desc
	kind  prometheus.ValueType
	value func(h *storage.Health) float64
}

func counter(name, help string, v func(h *storage.Health) float64) storageStat {
	return storageStat{desc("storage_"+name, help), prometheus.CounterValue, v}
}

func gauge(name, help string, v func(h *storage.Health) float64) storageStat {
	return storageStat{desc("storage_"+name, help), prometheus.GaugeValue, v}
}

var storageStats = []storageStat{
	counter("compactions_total", "Pebble compactions finished since the store opened.", func(h *storage.Health) float64 { return float64(h.Compactions) }),
	gauge("compaction_debt_bytes", "Bytes Pebble estimates its compactions still have to rewrite.", func(h *storage.Health) float64 { return float64(h.CompactionDebtBytes) }),
	counter("flushes_total", "Pebble memtable flushes since the store opened.", func(h *storage.Health) float64 { return float64(h.Flushes) }),
	counter("write_stalls_total", "Times Pebble held writes back until compactions caught up.", func(h *storage.Health) float64 { return float64(h.WriteStalls) }),
	counter("block_cache_hits_total", "Reads served by Pebble's block cache.", func(h *storage.Health) float64 { return float64(h.CacheHits) }),
	counter("block_cache_misses_total", "Reads Pebble's block cache could not serve.", func(h *storage.Health) float64 { return float64(h.CacheMisses) }),
	gauge("block_cache_bytes", "Bytes held by Pebble's block cache.", func(h *storage.Health) float64 { return float64(h.CacheBytes) }),
	gauge("memtable_bytes", "Bytes of Pebble's memtables.", func(h *storage.Health) float64 { return float64(h.MemtableBytes) }),
	gauge("disk_bytes", "Bytes of every file of the store (in memory: of its in-memory files).", func(h *storage.Health) float64 { return float64(h.DiskBytes) }),
	gauge("read_amplification", "Sstables a point read may have to look in.", func(h *storage.Health) float64 { return float64(h.ReadAmp) }),
}

// pgStats are the PostgreSQL store's numbers, in place of Pebble's.
var pgStats = []storageStat{
	counter("round_trips_total", "Statements and pipelines of statements sent to PostgreSQL.", func(h *storage.Health) float64 { return float64(h.Postgres.RoundTrips) }),
	counter("round_trip_errors_total", "Round trips to PostgreSQL that failed.", func(h *storage.Health) float64 { return float64(h.Postgres.Errors) }),
	counter("round_trip_seconds_total", "Time spent in round trips to PostgreSQL, summed; divided by storage_round_trips_total, their mean latency.", func(h *storage.Health) float64 { return h.Postgres.RoundTripSeconds }),
	counter("retries_total", "Statements tried again after a serialization failure, a deadlock or a lost connection.", func(h *storage.Health) float64 { return float64(h.Postgres.Retries) }),
	gauge("connections", "Connections open to PostgreSQL.", func(h *storage.Health) float64 { return float64(h.Postgres.OpenConns) }),
	gauge("idle_connections", "Connections to PostgreSQL open and idle.", func(h *storage.Health) float64 { return float64(h.Postgres.IdleConns) }),
	counter("connection_waits_total", "Times a request waited for a free connection to PostgreSQL.", func(h *storage.Health) float64 { return float64(h.Postgres.AcquireWaits) }),
}

// Describe sends every metric's description.
func (s *scrape) Describe(ch chan<- *prometheus.Desc) {
	ch <- itemsDesc
	ch <- bytesDesc
	ch <- streamRecordsDesc
	ch <- ttlDeletedDesc
	ch <- lastSweepDesc
	for _, st := range storageStats {
		ch <- st.desc
	}
	for _, st := range pgStats {
		ch <- st.desc
	}
}

// Collect reads the engine's counters now.
func (s *scrape) Collect(ch chan<- prometheus.Metric) {
	for _, t := range s.src.Stats() {
		ch <- prometheus.MustNewConstMetric(itemsDesc, prometheus.GaugeValue, float64(t.Items), t.Table, t.Index)
		ch <- prometheus.MustNewConstMetric(bytesDesc, prometheus.GaugeValue, float64(t.Bytes), t.Table, t.Index)
	}
	h := s.src.Health()
	stats := storageStats
	if h.Postgres != nil {
		stats = pgStats
	}
	for _, st := range stats {
		ch <- prometheus.MustNewConstMetric(st.desc, st.kind, st.value(&h))
	}
	s.collectBacklog(ch)
}

// collectBacklog reports the tables' stream and TTL backlog; a table the
// store failed to read is reported as an invalid metric, so the scrape
// shows the error instead of a wrong number.
func (s *scrape) collectBacklog(ch chan<- prometheus.Metric) {
	bs, err := s.src.Backlogs()
	for _, b := range bs {
		if b.Streamed {
			ch <- prometheus.MustNewConstMetric(streamRecordsDesc, prometheus.GaugeValue, float64(b.StreamRecords), b.Table)
		}
		ch <- prometheus.MustNewConstMetric(ttlDeletedDesc, prometheus.CounterValue, float64(b.TTLDeleted), b.Table)
	}
	if err != nil {
		ch <- prometheus.NewInvalidMetric(streamRecordsDesc, err)
	}
	if at := s.src.LastSweep(); !at.IsZero() {
		ch <- prometheus.MustNewConstMetric(lastSweepDesc, prometheus.GaugeValue, float64(at.UnixMilli())/1000)
	}
}
