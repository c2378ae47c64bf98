package metrics

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey/internal/engine"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/server"
	"github.com/sortkeydb/sortkey/internal/storage"
)

// noSource is an engine with no tables, for benchmarks of the hot path,
// which never reads it.
type noSource struct{}

func (noSource) Stats() []engine.TableStats          { return nil }
func (noSource) Health() storage.Health              { return storage.Health{} }
func (noSource) Backlogs() ([]engine.Backlog, error) { return nil, nil }
func (noSource) LastSweep() time.Time                { return time.Time{} }

// BenchmarkAnswered is what the Watcher adds to every call: the request
// and latency counters and the live window.
func BenchmarkAnswered(b *testing.B) {
	m := New(noSource{}, nil)
	r := httptest.NewRequest("POST", "/", nil)
	a := &server.Answer{Op: "GetItem", Took: 80 * time.Microsecond}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			m.Answered(r, a)
		}
	})
}

// BenchmarkObserve is what counting one call's capacity adds: a PutItem
// that wrote the table and one GSI.
func BenchmarkObserve(b *testing.B) {
	m := New(noSource{}, nil)
	one, table := 1.0, "Orders"
	out := &protocol.PutItemOutput{ConsumedCapacity: &protocol.ConsumedCapacity{TableName: table, CapacityUnits: &one,
		Table: &protocol.Capacity{CapacityUnits: &one}, GlobalSecondaryIndexes: map[string]protocol.Capacity{"ByStatus": {CapacityUnits: &one}}}}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			m.Observe("PutItem", nil, out, nil, 0)
		}
	})
}
