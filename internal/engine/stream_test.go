package engine

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/storage"
)

// TestStreamRetention writes records a day apart: reads skip the old
// ones at once, and trimming deletes them.
func TestStreamRetention(t *testing.T) {
	var now atomic.Int64
	now.Store(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli())
	e, err := Open(Options{InMemory: true, TTLInterval: -1, Now: func() time.Time { return time.UnixMilli(now.Load()) }})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	must[protocol.CreateTableOutput](t)(call(t, e.CreateTable, `{"TableName":"tbl","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
		"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"KEYS_ONLY"}}`))
	put := func(k string) {
		must[protocol.PutItemOutput](t)(call(t, e.PutItem, fmt.Sprintf(`{"TableName":"tbl","Item":{"pk":{"S":%q}}}`, k)))
	}
	put("old1")
	put("old2")
	now.Add((25 * time.Hour).Milliseconds())
	put("new")
	tbl := e.lookup("tbl")
	s := &tbl.meta.Streams[0]
	recs, _, err := e.readRecords(tbl, s, s.Start+1, 100)
	if err != nil || len(recs) != 1 {
		t.Fatalf("read after a day: %d records (%v), want only the new one", len(recs), err)
	}
	if err := e.trimStreams(); err != nil {
		t.Fatal(err)
	}
	lo, hi := storage.RecordRange(tbl.meta.ID)
	left := 0
	e.db.Scan(lo, hi, func(_, _ []byte) bool { left++; return true })
	if left != 1 {
		t.Fatalf("%d records stored after trimming, want 1", left)
	}
}
