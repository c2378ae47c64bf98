package engine

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey/internal/protocol"
)

// BenchmarkBacklogs is one scrape's backlog read of a streamed table
// whose oldest 5,000 of 10,000 records have been trimmed.
func BenchmarkBacklogs(b *testing.B) {
	var now atomic.Int64
	now.Store(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli())
	e, err := Open(Options{InMemory: true, TTLInterval: -1, Now: func() time.Time { return time.UnixMilli(now.Load()) }})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	must[protocol.CreateTableOutput](b)(call(b, e.CreateTable, `{"TableName":"tbl","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
		"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"KEYS_ONLY"}}`))
	for i := range 10_000 {
		if i == 5_000 {
			now.Add((25 * time.Hour).Milliseconds())
		}
		must[protocol.PutItemOutput](b)(call(b, e.PutItem, fmt.Sprintf(`{"TableName":"tbl","Item":{"pk":{"S":"k%d"}}}`, i)))
	}
	if err := e.trimStreams(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		bs, err := e.Backlogs()
		if err != nil || bs[0].StreamRecords != 5_000 {
			b.Fatalf("%+v %v", bs, err)
		}
	}
}
