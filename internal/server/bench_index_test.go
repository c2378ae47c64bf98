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
	return loadIndexBench(b, indexBenchTable, `{"TableName":"IxBench","Item":{"pk":{"S":"p%d"},"g":{"S":"g%d"},"n":{"N":"%d"},"v":{"S":"value"}}}`)
}

// loadIndexBench creates table (IxBench) and puts 10,000 items from
// format, given each item's number, partition and position in it.
func loadIndexBench(b *testing.B, table, format string) http.Handler {
	e, err := engine.Open(engine.Options{InMemory: true, TTLInterval: -1})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { e.Close() })
	h := New(e, nil)
	if rec := do(h, "CreateTable", []byte(table)); rec.Code != 200 {
		b.Fatal(rec.Body)
	}
	for i := 0; i < 10_000; i++ {
		it := fmt.Appendf(nil, format, i, i/10, i%10)
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

// indexBench4x4Table holds the same data under a 4+4 GSI: g and three
// constant HASH attributes, three constant RANGE attributes and then n.
const indexBench4x4Table = `{"TableName":"IxBench","BillingMode":"PAY_PER_REQUEST",
	"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"g","AttributeType":"S"},{"AttributeName":"n","AttributeType":"N"},
		{"AttributeName":"h2","AttributeType":"S"},{"AttributeName":"h3","AttributeType":"N"},{"AttributeName":"h4","AttributeType":"B"},
		{"AttributeName":"r1","AttributeType":"S"},{"AttributeName":"r2","AttributeType":"N"},{"AttributeName":"r3","AttributeType":"B"}],
	"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
	"GlobalSecondaryIndexes":[{"IndexName":"gsi","KeySchema":[{"AttributeName":"g","KeyType":"HASH"},{"AttributeName":"h2","KeyType":"HASH"},
		{"AttributeName":"h3","KeyType":"HASH"},{"AttributeName":"h4","KeyType":"HASH"},{"AttributeName":"r1","KeyType":"RANGE"},
		{"AttributeName":"r2","KeyType":"RANGE"},{"AttributeName":"r3","KeyType":"RANGE"},{"AttributeName":"n","KeyType":"RANGE"}],
		"Projection":{"ProjectionType":"ALL"}}]}`

// BenchmarkQueryIndex4x4 is BenchmarkQueryIndex's query on a 4+4 GSI of
// the same data: every HASH attribute and three RANGE ones equal, n >= 5.
func BenchmarkQueryIndex4x4(b *testing.B) {
	h := loadIndexBench(b, indexBench4x4Table, `{"TableName":"IxBench","Item":{"pk":{"S":"p%d"},"g":{"S":"g%d"},"n":{"N":"%d"},"v":{"S":"value"},`+
		`"h2":{"S":"t"},"h3":{"N":"1"},"h4":{"B":"AQ=="},"r1":{"S":"a"},"r2":{"N":"2"},"r3":{"B":"Ag=="}}}`)
	q := []byte(`{"TableName":"IxBench","IndexName":"gsi","KeyConditionExpression":"g = :g AND h2 = :h2 AND h3 = :h3 AND h4 = :h4 AND r1 = :r1 AND r2 = :r2 AND r3 = :r3 AND n >= :n",` +
		`"ExpressionAttributeValues":{":g":{"S":"g42"},":h2":{"S":"t"},":h3":{"N":"1"},":h4":{"B":"AQ=="},":r1":{"S":"a"},":r2":{"N":"2"},":r3":{"B":"Ag=="},":n":{"N":"5"}}}`)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if rec := do(h, "Query", q); rec.Code != 200 || !bytes.Contains(rec.Body.Bytes(), []byte(`"Count":5`)) {
			b.Fatal(rec.Body)
		}
	}
}
