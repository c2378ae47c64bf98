package server

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey/internal/engine"
)

// lagBench serves IxBench with 1,000 items, ten per index partition, each
// written, then rewritten a second later, within the lag of its stopped
// clock: every read goes back to the first version.
func lagBench(b *testing.B) *Handler {
	at := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	e, err := engine.Open(engine.Options{InMemory: true, TTLInterval: -1, Now: func() time.Time { return at },
		IndexLag: time.Second, StaleReads: time.Second})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { e.Close() })
	h := New(e, nil)
	if rec := do(h, "CreateTable", []byte(indexBenchTable)); rec.Code != 200 {
		b.Fatal(rec.Body)
	}
	for i := 0; i < 1000; i++ {
		do(h, "PutItem", fmt.Appendf(nil, `{"TableName":"IxBench","Item":{"pk":{"S":"p%d"},"g":{"S":"g%d"},"n":{"N":"%d"},"v":{"S":"value"}}}`, i, i/10, i%10))
	}
	at = at.Add(time.Second)
	for i := 0; i < 1000; i++ {
		do(h, "PutItem", fmt.Appendf(nil, `{"TableName":"IxBench","Item":{"pk":{"S":"p%d"},"g":{"S":"g%d"},"n":{"N":"%d"},"v":{"S":"new"}}}`, i, i/10, i%10))
	}
	return h
}

// BenchmarkGetItemStale is an eventually consistent GetItem of an item
// changed within the stale-read window: the previous version is served.
func BenchmarkGetItemStale(b *testing.B) {
	h := lagBench(b)
	q := []byte(`{"TableName":"IxBench","Key":{"pk":{"S":"p42"}}}`)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if rec := do(h, "GetItem", q); rec.Code != 200 || !bytes.Contains(rec.Body.Bytes(), []byte(`"value"`)) {
			b.Fatal(rec.Body)
		}
	}
}

// BenchmarkQueryIndexLagging is BenchmarkQueryIndex's query on an index
// whose every entry changed within the lag: the previous ones are served.
func BenchmarkQueryIndexLagging(b *testing.B) {
	h := lagBench(b)
	q := []byte(`{"TableName":"IxBench","IndexName":"gsi","KeyConditionExpression":"g = :g AND n >= :n","ExpressionAttributeValues":{":g":{"S":"g42"},":n":{"N":"5"}}}`)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if rec := do(h, "Query", q); rec.Code != 200 || !bytes.Contains(rec.Body.Bytes(), []byte(`"pk":{"S":"p425"},"v":{"S":"value"}},`)) {
			b.Fatal(rec.Body)
		}
	}
}
