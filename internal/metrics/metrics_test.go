package metrics

import (
	"maps"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/engine"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/server"
	"github.com/sortkeydb/sortkey/internal/storage"
	"github.com/sortkeydb/sortkey/internal/storage/pgstore"
)

// Calls counted from many goroutines at once all count, each under its
// operation and code, while new series are being made.
func TestConcurrentCallsAllCount(t *testing.T) {
	m := New(noSource{}, nil)
	r := httptest.NewRequest("POST", "/", nil)
	ops := []string{"GetItem", "PutItem", "Query", ""}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 500 {
				a := &server.Answer{Op: ops[(g+i)%len(ops)], Took: time.Millisecond}
				if i%5 == 0 {
					a.Error = apierr.Code("ValidationException")
				}
				m.Answered(r, a)
			}
		})
	}
	wg.Wait()
	total := 0.0
	for _, op := range []string{"GetItem", "PutItem", "Query", unknownOp} {
		total += testutil.ToFloat64(m.requests.WithLabelValues(op, ""))
		total += testutil.ToFloat64(m.requests.WithLabelValues(op, "ValidationException"))
	}
	if total != 8*500 {
		t.Fatalf("counted %v calls, want %d", total, 8*500)
	}
	if errs := testutil.ToFloat64(m.requests.WithLabelValues("GetItem", "ValidationException")); errs == 0 {
		t.Errorf("no GetItem errors counted")
	}
}

// fixedSource is an engine with one table and a GSI.
type fixedSource struct{}

func (fixedSource) Stats() []engine.TableStats {
	return []engine.TableStats{{Table: "Orders", Items: 7, Bytes: 700}, {Table: "Orders", Index: "ByStatus", Items: 3, Bytes: 120}}
}
func (fixedSource) Health() storage.Health {
	return storage.Health{Compactions: 2, WriteStalls: 1, CacheHits: 9}
}
func (fixedSource) Backlogs() ([]engine.Backlog, error) {
	return []engine.Backlog{{Table: "Orders", Streamed: true, StreamRecords: 5, TTLDeleted: 2}, {Table: "Plain"}}, nil
}
func (fixedSource) LastSweep() time.Time { return time.UnixMilli(1_700_000_000_500) }

func TestScrapeReadsTablesAndStorage(t *testing.T) {
	m := New(fixedSource{}, nil)
	want := `# HELP sortkey_table_items Items in a table or index ("" for the table itself), as DescribeTable's ItemCount.
# TYPE sortkey_table_items gauge
sortkey_table_items{index="",table="Orders"} 7
sortkey_table_items{index="ByStatus",table="Orders"} 3
`
	if err := testutil.GatherAndCompare(m.reg, strings.NewReader(want), "sortkey_table_items"); err != nil {
		t.Error(err)
	}
	fams, err := m.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, f := range fams {
		if strings.HasPrefix(f.GetName(), "sortkey_storage_") {
			got[f.GetName()] = f.Metric[0].GetCounter().GetValue() + f.Metric[0].GetGauge().GetValue()
		}
	}
	if len(got) != len(storageStats) || got["sortkey_storage_compactions_total"] != 2 || got["sortkey_storage_write_stalls_total"] != 1 ||
		got["sortkey_storage_block_cache_hits_total"] != 9 {
		t.Errorf("storage metrics %v", got)
	}
}

// pgSource is a source on the PostgreSQL store.
type pgSource struct{ fixedSource }

func (pgSource) Health() storage.Health {
	return storage.Health{Postgres: &pgstore.Usage{RoundTrips: 40, Errors: 1, Retries: 2, RoundTripSeconds: 0.5, OpenConns: 3, IdleConns: 2, AcquireWaits: 4}}
}

// On PostgreSQL the store's metrics are its round trips and connections,
// and none of Pebble's.
func TestScrapeReadsPostgresStore(t *testing.T) {
	m := New(pgSource{}, nil)
	fams, err := m.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, f := range fams {
		if strings.HasPrefix(f.GetName(), "sortkey_storage_") {
			got[f.GetName()] = f.Metric[0].GetCounter().GetValue() + f.Metric[0].GetGauge().GetValue()
		}
	}
	want := map[string]float64{"sortkey_storage_round_trips_total": 40, "sortkey_storage_round_trip_errors_total": 1,
		"sortkey_storage_retries_total": 2, "sortkey_storage_round_trip_seconds_total": 0.5, "sortkey_storage_connections": 3,
		"sortkey_storage_idle_connections": 2, "sortkey_storage_connection_waits_total": 4}
	if !maps.Equal(got, want) {
		t.Errorf("storage metrics %v, want %v", got, want)
	}
}

// A streamed table reports its records kept, every table its TTL
// deletions, and the last sweep's time is in seconds.
func TestScrapeReadsBacklog(t *testing.T) {
	m := New(fixedSource{}, nil)
	want := `# HELP sortkey_stream_records Stream records kept for a table: what a reader from TRIM_HORIZON would still read.
# TYPE sortkey_stream_records gauge
sortkey_stream_records{table="Orders"} 5
# HELP sortkey_ttl_deleted_total Items the TTL sweeper deleted from a table.
# TYPE sortkey_ttl_deleted_total counter
sortkey_ttl_deleted_total{table="Orders"} 2
sortkey_ttl_deleted_total{table="Plain"} 0
# HELP sortkey_ttl_last_sweep_timestamp_seconds When the TTL sweeper last finished a pass over every TTL table, by the database clock.
# TYPE sortkey_ttl_last_sweep_timestamp_seconds gauge
sortkey_ttl_last_sweep_timestamp_seconds 1.7000000005e+09
`
	if err := testutil.GatherAndCompare(m.reg, strings.NewReader(want), "sortkey_stream_records", "sortkey_ttl_deleted_total",
		"sortkey_ttl_last_sweep_timestamp_seconds"); err != nil {
		t.Error(err)
	}
}

// An entry without a breakdown counts wholly under the table; a
// transaction's split entry counts as the kind it names.
func TestObserveCountsCapacityByIndex(t *testing.T) {
	m := New(noSource{}, nil)
	one, half := 1.0, 0.5
	m.Observe("PutItem", nil, &protocol.PutItemOutput{ConsumedCapacity: &protocol.ConsumedCapacity{TableName: "Orders", CapacityUnits: &one}}, nil, 0)
	m.Observe("Query", nil, &protocol.ReadOutput{ConsumedCapacity: &protocol.ConsumedCapacity{TableName: "arn:aws:dynamodb:us-east-1:000000000000:table/Orders",
		CapacityUnits: &half, Table: &protocol.Capacity{CapacityUnits: new(float64)},
		GlobalSecondaryIndexes: map[string]protocol.Capacity{"ByStatus": {CapacityUnits: &half}}}}, nil, 0)
	m.Observe("ExecuteTransaction", nil, &protocol.ExecuteTransactionOutput{ConsumedCapacity: []protocol.ConsumedCapacity{
		{TableName: "Orders", CapacityUnits: &one, WriteCapacityUnits: &one}}}, nil, 0)
	for _, c := range []struct {
		got  float64
		want float64
	}{
		{testutil.ToFloat64(m.write.WithLabelValues("Orders", "")), 2},
		{testutil.ToFloat64(m.read.WithLabelValues("Orders", "ByStatus")), 0.5},
		{testutil.ToFloat64(m.read.WithLabelValues("Orders", "")), 0},
	} {
		if c.got != c.want {
			t.Errorf("got %v, want %v", c.got, c.want)
		}
	}
}
