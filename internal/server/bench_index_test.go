package server

import (
	"bytes"
	"fmt"
	"net/http"
	"testing"

	"github.com/sortkeydb/sortkey/internal/engine"
)

// indexBenchTable has a 1+1 GSI (g, n): the shape every index had before
// multi-attribute keys, whose Query cost they must not raise.
const indexBenchTable = `{"TableName":"IxBench","BillingMode":"PAY_PER_REQUEST",
	"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"g","AttributeType":"S"},{"AttributeName":"n","AttributeType":"N"}],
	"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
	"GlobalSecondaryIndexes":[{"IndexName":"gsi","KeySchema":[{"AttributeName":"g","KeyType":"HASH"},{"AttributeName":"n","KeyType":"RANGE"}],
		"Projection":{"ProjectionType":"ALL"}}]}`

// indexBenchHandler serves IxBench holding 10,000 items, ten per index
// partition.
func indexBenchHandler(b *testing.B) http.Handler {
	e, err := engine.Open(engine.Options{InMemory: true, TTLInterval: -1})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { e.Close() })
	h := New(e)
	if rec := do(h, "CreateTable", []byte(indexBenchTable)); rec.Code != 200 {
		b.Fatal(rec.Body)
	}
	for i := 0; i < 10_000; i++ {
		it := fmt.Appendf(nil, `{"TableName":"IxBench","Item":{"pk":{"S":"p%d"},"g":{"S":"g%d"},"n":{"N":"%d"},"v":{"S":"value"}}}`, i, i/10, i%10)
		if rec := do(h, "PutItem", it); rec.Code != 200 {
			b.Fatal(rec.Body)
		}
	}
	if err := e.Settle(); err != nil {
		b.Fatal(err)
	}
	return h
}

// BenchmarkQueryIndex queries one 10-item partition of a 1+1 GSI with a
// sort-key condition selecting half of it.
func BenchmarkQueryIndex(b *testing.B) {
	h := indexBenchHandler(b)
	q := []byte(`{"TableName":"IxBench","IndexName":"gsi","KeyConditionExpression":"g = :g AND n >= :n","ExpressionAttributeValues":{":g":{"S":"g42"},":n":{"N":"5"}}}`)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if rec := do(h, "Query", q); rec.Code != 200 || !bytes.Contains(rec.Body.Bytes(), []byte(`"Count":5`)) {
			b.Fatal(rec.Body)
		}
	}
}
