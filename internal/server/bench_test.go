package server

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey/internal/engine"
)

const benchTable = `{"TableName":"Bench","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"}],"BillingMode":"PAY_PER_REQUEST"}`

// benchItem is a ~200-byte item of mixed types.
func benchItem(i int64) []byte {
	return fmt.Appendf(nil, `{"TableName":"Bench","Item":{"pk":{"S":"user#%d"},"sk":{"N":"%d"},"name":{"S":"Ada Lovelace"},`+
		`"email":{"S":"ada@example.com"},"age":{"N":"36"},"tags":{"SS":["math","poetry"]},"active":{"BOOL":true},`+
		`"address":{"M":{"city":{"S":"London"},"zip":{"S":"W1"}}}}}`, i%1000, i)
}

func benchHandler(b *testing.B, onDisk bool) *Handler {
	h, _ := benchEngine(b, onDisk)
	return h
}

func benchEngine(b *testing.B, onDisk bool) (*Handler, *engine.Engine) {
	opts := engine.Options{InMemory: !onDisk, Dir: b.TempDir()}
	e, err := engine.Open(opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { e.Close() })
	h := New(e, nil)
	if rec := do(h, "CreateTable", []byte(benchTable)); rec.Code != 200 {
		b.Fatal(rec.Body)
	}
	return h, e
}

func benchPut(b *testing.B, onDisk bool) {
	h := benchHandler(b, onDisk)
	var n atomic.Int64
	b.ReportAllocs()
	defer reportCPU(b)()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if rec := do(h, "PutItem", benchItem(n.Add(1))); rec.Code != 200 {
				b.Fatal(rec.Body)
			}
		}
	})
}

func BenchmarkPutItemInMemory(b *testing.B) { benchPut(b, false) }

// BenchmarkPutItemOnDisk includes the fsync of every commit; run with
// -cpu 1,16 to see concurrent writers share syncs.
func BenchmarkPutItemOnDisk(b *testing.B) { benchPut(b, true) }

func BenchmarkGetItem(b *testing.B) {
	benchRead(b, "GetItem", func(i int) []byte {
		return fmt.Appendf(nil, `{"TableName":"Bench","Key":{"pk":{"S":"user#%d"},"sk":{"N":"%d"}}}`, i, i)
	})
}

// benchRead loads 1000 items, then runs op with body(i) for item i, round
// robin, from parallel clients: the reads share one setup so that their
// costs compare.
func benchRead(b *testing.B, op string, body func(i int) []byte) {
	h := benchHandler(b, false)
	for i := int64(0); i < 1000; i++ {
		do(h, "PutItem", benchItem(i))
	}
	bodies := make([][]byte, 1000)
	for i := range bodies {
		bodies[i] = body(i)
	}
	var n atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	defer reportCPU(b)()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if rec := do(h, op, bodies[n.Add(1)%1000]); rec.Code != 200 || rec.Body.Len() < 100 {
				b.Fatal(rec.Body)
			}
		}
	})
}

// BenchmarkStartInMemory is the time from nothing to the first answered
// request over real HTTP: open, listen, ListTables.
func BenchmarkStartInMemory(b *testing.B) {
	var total time.Duration
	for i := 0; i < b.N; i++ {
		start := time.Now()
		e, err := engine.Open(engine.Options{InMemory: true})
		if err != nil {
			b.Fatal(err)
		}
		srv := httptest.NewServer(New(e, nil))
		req, _ := http.NewRequest(http.MethodPost, srv.URL, bytes.NewReader([]byte(`{}`)))
		req.Header.Set("X-Amz-Target", targetPrefix+"ListTables")
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != 200 {
			b.Fatal(err)
		}
		resp.Body.Close()
		total += time.Since(start)
		srv.Close()
		e.Close()
	}
	b.ReportMetric(float64(total.Microseconds())/float64(b.N), "µs-to-first-answer")
}

// BenchmarkUpdateItem is a conditional counter increment through the handler.
func BenchmarkUpdateItem(b *testing.B) { benchUpdate(b, false) }

// BenchmarkUpdateItemOnDisk is BenchmarkUpdateItem with every commit synced.
func BenchmarkUpdateItemOnDisk(b *testing.B) { benchUpdate(b, true) }

func benchUpdate(b *testing.B, onDisk bool) {
	h := benchHandler(b, onDisk)
	do(h, "PutItem", benchItem(1))
	body := []byte(`{"TableName":"Bench","Key":{"pk":{"S":"user#1"},"sk":{"N":"1"}},"UpdateExpression":"SET age = age + :one",` +
		`"ConditionExpression":"attribute_exists(pk) AND age >= :zero","ExpressionAttributeValues":{":one":{"N":"1"},":zero":{"N":"0"}}}`)
	b.ReportAllocs()
	b.ResetTimer()
	defer reportCPU(b)()
	for i := 0; i < b.N; i++ {
		if rec := do(h, "UpdateItem", body); rec.Code != 200 {
			b.Fatal(rec.Body)
		}
	}
}

// queryTables are the two tables BenchmarkQueryPartition compares, built
// once per process so that -count alternates the two measurements instead
// of rebuilding a million items each time.
var queryTables = map[int]http.Handler{}

func queryTable(b *testing.B, size int) http.Handler {
	if h, ok := queryTables[size]; ok {
		return h
	}
	e, err := engine.Open(engine.Options{InMemory: true, TTLInterval: -1})
	if err != nil {
		b.Fatal(err)
	}
	h := New(e, nil)
	if rec := do(h, "CreateTable", []byte(benchTable)); rec.Code != 200 {
		b.Fatal(rec.Body)
	}
	loadBench(b, h, size)
	if err := e.Settle(); err != nil {
		b.Fatal(err)
	}
	queryTables[size] = h
	return h
}

// BenchmarkQueryPartition queries one 10-item partition of tables of
// 10,000 and 1,000,000 items: the cost should not grow with the table.
// Loading the large table takes a while (BatchWriteItem, 25 per request);
// run with -count to alternate the two sizes on the same loaded tables.
func BenchmarkQueryPartition(b *testing.B) {
	for _, size := range []int{10_000, 1_000_000} {
		b.Run(fmt.Sprint(size), func(b *testing.B) {
			h := queryTable(b, size)
			q := []byte(`{"TableName":"Bench","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"p42"}}}`)
			b.ReportAllocs()
			b.ResetTimer()
			defer reportCPU(b)()
			for i := 0; i < b.N; i++ {
				if rec := do(h, "Query", q); rec.Code != 200 || !bytes.Contains(rec.Body.Bytes(), []byte(`"Count":10`)) {
					b.Fatal(rec.Body)
				}
			}
		})
	}
}

// loadBench fills the Bench table with size items, ten per partition.
func loadBench(b *testing.B, h http.Handler, size int) {
	for i := 0; i < size; i += 25 {
		body := []byte(`{"RequestItems":{"Bench":[`)
		for j := i; j < min(i+25, size); j++ {
			if j > i {
				body = append(body, ',')
			}
			body = fmt.Appendf(body, `{"PutRequest":{"Item":{"pk":{"S":"p%d"},"sk":{"N":"%d"},"v":{"S":"value"}}}}`, j/10, j%10)
		}
		body = append(body, "]}}"...)
		if rec := do(h, "BatchWriteItem", body); rec.Code != 200 {
			b.Fatal(rec.Body)
		}
	}
}

// benchWriteBody builds a BatchWriteItem of 25 puts or a TransactWriteItems
// of 4 puts of new ~200-byte items, numbered from first.
func benchWriteBody(op string, first int64) []byte {
	n := 25
	if op == "TransactWriteItems" {
		n = 4
	}
	var body []byte
	for i := range int64(n) {
		if i > 0 {
			body = append(body, ',')
		}
		it := benchItem(first + i)
		it = it[len(`{"TableName":"Bench","Item":`) : len(it)-1]
		if op == "BatchWriteItem" {
			body = fmt.Appendf(body, `{"PutRequest":{"Item":%s}}`, it)
		} else {
			body = fmt.Appendf(body, `{"Put":{"TableName":"Bench","Item":%s}}`, it)
		}
	}
	if op == "BatchWriteItem" {
		return fmt.Appendf(nil, `{"RequestItems":{"Bench":[%s]}}`, body)
	}
	return fmt.Appendf(nil, `{"TransactItems":[%s]}`, body)
}

// benchMultiWrite runs op in memory or on disk (every commit synced); run
// with -cpu 1,16 for the two concurrencies. items/s counts the items
// written.
func benchMultiWrite(b *testing.B, op string, per int64, onDisk bool) {
	h := benchHandler(b, onDisk)
	var n atomic.Int64
	b.ReportAllocs()
	defer reportCPU(b)()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if rec := do(h, op, benchWriteBody(op, n.Add(per)*per)); rec.Code != 200 {
				b.Fatal(rec.Body)
			}
		}
	})
	b.ReportMetric(float64(b.N*int(per))/b.Elapsed().Seconds(), "items/s")
}

func BenchmarkBatchWriteItem25InMemory(b *testing.B) { benchMultiWrite(b, "BatchWriteItem", 25, false) }
func BenchmarkBatchWriteItem25OnDisk(b *testing.B)   { benchMultiWrite(b, "BatchWriteItem", 25, true) }
func BenchmarkTransactWriteItems4OnDisk(b *testing.B) {
	benchMultiWrite(b, "TransactWriteItems", 4, true)
}

// benchTransact runs TransactWriteItems of 4 new items in memory, with a
// fresh ClientRequestToken each when token is set (as the SDKs send):
// the engine's own cost, holding items and tokens included.
func benchTransact(b *testing.B, token bool) {
	h := benchHandler(b, false)
	var n atomic.Int64
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := n.Add(1)
			body := benchWriteBody("TransactWriteItems", i*4)
			if token {
				body = fmt.Appendf(body[:len(body)-1], `,"ClientRequestToken":"t%d"}`, i)
			}
			if rec := do(h, "TransactWriteItems", body); rec.Code != 200 {
				b.Fatal(rec.Body)
			}
		}
	})
}

func BenchmarkTransactWriteItems4InMemory(b *testing.B)      { benchTransact(b, false) }
func BenchmarkTransactWriteItems4TokenInMemory(b *testing.B) { benchTransact(b, true) }

// BenchmarkGetItemAcceptGzip is BenchmarkGetItem from a client that takes
// gzip (Accept-Encoding: gzip): its ~300-byte answers are under
// compressMinBytes, so it costs what BenchmarkGetItem costs.
func BenchmarkGetItemAcceptGzip(b *testing.B) {
	h := benchHandler(b, false)
	for i := int64(0); i < 1000; i++ {
		do(h, "PutItem", benchItem(i))
	}
	b.ReportAllocs()
	b.ResetTimer()
	defer reportCPU(b)()
	for i := 0; b.Loop(); i++ {
		key := fmt.Appendf(nil, `{"TableName":"Bench","Key":{"pk":{"S":"user#%d"},"sk":{"N":"%d"}}}`, i%1000, i%1000)
		if rec := post(h, "GetItem", key, "Accept-Encoding", "gzip"); rec.Code != 200 || rec.Header().Get("Content-Encoding") != "" {
			b.Fatal(rec.Body)
		}
	}
}

// discard is a ResponseWriter that counts the bytes written.
type discard struct {
	h http.Header
	n int
}

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) WriteHeader(int)             {}
func (d *discard) Write(p []byte) (int, error) { d.n += len(p); return len(p), nil }

// itemsBody is a Query answer of about size bytes of benchItem items.
func itemsBody(size int) []byte {
	body := []byte(`{"Items":[`)
	for i := int64(0); len(body) < size-40; i++ {
		if i > 0 {
			body = append(body, ',')
		}
		it := benchItem(i)
		body = append(body, it[len(`{"TableName":"Bench","Item":`):len(it)-1]...)
	}
	return append(body, `],"Count":1,"ScannedCount":1}`...)
}

// BenchmarkWriteBody writes answers of each size as they are and gzipped
// (BestSpeed, pooled writer): the cost compressMinBytes weighs against the
// bytes saved (wire-B/op).
func BenchmarkWriteBody(b *testing.B) {
	for _, size := range []int{512, 1 << 10, 2 << 10, 4 << 10, 16 << 10, 64 << 10, 1 << 20} {
		body := itemsBody(size)
		for _, gz := range []bool{false, true} {
			b.Run(fmt.Sprintf("%d/gzip=%v", size, gz), func(b *testing.B) {
				w := &discard{h: http.Header{}}
				rp := reply{w: w, contentType: contentType}
				b.ReportAllocs()
				defer reportCPU(b)()
				for b.Loop() {
					if gz {
						writeCompressedBody(rp, 200, body, gzipCoding)
					} else {
						writeBody(rp, 200, body)
					}
				}
				b.ReportMetric(float64(w.n)/float64(b.N), "wire-B/op")
			})
		}
	}
}

// BenchmarkExecuteStatementByKey is BenchmarkGetItem as a PartiQL SELECT
// by the whole key, which runs as that GetItem: the difference is the
// cost of parsing and planning.
func BenchmarkExecuteStatementByKey(b *testing.B) {
	benchRead(b, "ExecuteStatement", func(i int) []byte {
		return fmt.Appendf(nil, `{"Statement":"SELECT * FROM \"Bench\" WHERE pk = 'user#%d' AND sk = %d"}`, i, i)
	})
}

// BenchmarkExecuteStatementByKeyWithParameters is the same SELECT with the
// key in Parameters: one statement text, parsed on each call from its
// cached tokens, then planned.
func BenchmarkExecuteStatementByKeyWithParameters(b *testing.B) {
	benchRead(b, "ExecuteStatement", func(i int) []byte {
		return fmt.Appendf(nil, `{"Statement":"SELECT * FROM \"Bench\" WHERE pk = ? AND sk = ?",`+
			`"Parameters":[{"S":"user#%d"},{"N":"%d"}]}`, i, i)
	})
}
