package engine

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/throttle"
)

// benchEngine is an engine with a provisioned table at DynamoDB's
// default maximum, enforcing capacity or not. Its clock moves a
// millisecond a reading, so an enforcing limiter always has capacity and
// the benchmark measures its bookkeeping, not its refusals.
func benchEngine(b *testing.B, enforce bool) *Engine {
	var ticks atomic.Int64
	now := func() time.Time { return time.Unix(0, ticks.Add(int64(time.Millisecond))) }
	opts := Options{InMemory: true, TTLInterval: -1, Now: now}
	if enforce {
		opts.Limiter = throttle.New(now)
	}
	e, err := Open(opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { e.Close() })
	must[protocol.CreateTableOutput](b)(call(b, e.CreateTable, `{"TableName":"tbl",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
		"ProvisionedThroughput":{"ReadCapacityUnits":40000,"WriteCapacityUnits":40000}}`))
	return e
}

// putInputs are n PutItem requests of distinct 100-byte items.
func putInputs(b *testing.B, n int) []*protocol.PutItemInput {
	ins := make([]*protocol.PutItemInput, n)
	for i := range ins {
		ins[i] = new(protocol.PutItemInput)
		body := fmt.Sprintf(`{"TableName":"tbl","Item":{"pk":{"S":"k%04d"},"v":{"S":"%080d"}}}`, i, i)
		if err := protocol.Decode([]byte(body), ins[i]); err != nil {
			b.Fatal(err)
		}
	}
	return ins
}

func benchPutItem(b *testing.B, enforce bool) {
	e := benchEngine(b, enforce)
	ins := putInputs(b, 1000)
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := e.PutItem(ctx, ins[i%len(ins)]); err != nil {
			b.Fatal(err)
		}
	}
}

func benchGetItem(b *testing.B, enforce bool) {
	e := benchEngine(b, enforce)
	ctx := context.Background()
	for _, in := range putInputs(b, 1000) {
		must[protocol.PutItemOutput](b)(e.PutItem(ctx, in))
	}
	gets := make([]*protocol.GetItemInput, 1000)
	for i := range gets {
		gets[i] = new(protocol.GetItemInput)
		if err := protocol.Decode(fmt.Appendf(nil, `{"TableName":"tbl","Key":{"pk":{"S":"k%04d"}}}`, i), gets[i]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := e.GetItem(ctx, gets[i%len(gets)]); err != nil {
			b.Fatal(err)
		}
	}
}

// The cost of enforcement: compare each pair (docs/TESTING-FAILURES.md).
func BenchmarkPutItemCapacityOff(b *testing.B) { benchPutItem(b, false) }
func BenchmarkPutItemCapacityOn(b *testing.B)  { benchPutItem(b, true) }
func BenchmarkGetItemCapacityOff(b *testing.B) { benchGetItem(b, false) }
func BenchmarkGetItemCapacityOn(b *testing.B)  { benchGetItem(b, true) }

// TestLocalIndexWritesChargeTheTable checks that a write's local secondary
// index units come out of its table's capacity, which they share.
func TestLocalIndexWritesChargeTheTable(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	e, err := Open(Options{InMemory: true, TTLInterval: -1, Now: func() time.Time { return now },
		Limiter: throttle.New(func() time.Time { return now })})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	must[protocol.CreateTableOutput](t)(call(t, e.CreateTable, `{"TableName":"tbl",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"},{"AttributeName":"lk","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
		"LocalSecondaryIndexes":[{"IndexName":"byLK","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"lk","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}],
		"ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":2}}`))
	// 1 unit for the item and 1 for its index entry: the table's 2 WCU.
	must[protocol.PutItemOutput](t)(call(t, e.PutItem, `{"TableName":"tbl","Item":{"pk":{"S":"a"},"sk":{"S":"1"},"lk":{"S":"x"}}}`))
	_, err = call(t, e.PutItem, `{"TableName":"tbl","Item":{"pk":{"S":"a"},"sk":{"S":"2"}}}`)
	if err == nil {
		t.Fatal("the table's second write passed after an LSI write used its capacity")
	}
}
