package server

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// indexedTable is benchTable with what a write can have to maintain
// besides the item: two GSIs projecting ALL (the most each entry can
// carry) and a stream of new and old images.
const indexedTable = `{"TableName":"Indexed","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"},
 {"AttributeName":"email","AttributeType":"S"},{"AttributeName":"name","AttributeType":"S"}],
"GlobalSecondaryIndexes":[
 {"IndexName":"byEmail","KeySchema":[{"AttributeName":"email","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}},
 {"IndexName":"byName","KeySchema":[{"AttributeName":"name","KeyType":"HASH"},{"AttributeName":"pk","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}],
"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"},
"BillingMode":"PAY_PER_REQUEST"}`

// BenchmarkPutItemIndexed compares a PutItem of a new item into a table
// with nothing to maintain (plain) with the same PutItem into one with two
// ALL-projected GSIs and a NEW_AND_OLD_IMAGES stream (gsi2+stream), in
// memory: the cost of index entries and stream records themselves.
func BenchmarkPutItemIndexed(b *testing.B) {
	for _, c := range []struct{ name, create, table string }{
		{"plain", benchTable, "Bench"},
		{"gsi2+stream", indexedTable, "Indexed"},
	} {
		b.Run(c.name, func(b *testing.B) { benchPutInto(b, c.create, c.table, false) })
	}
}

// BenchmarkPutItemIndexedOnDisk is the gsi2+stream PutItem with every
// commit synced; run with -cpu 1,16 to see whether writers of a streamed
// table share WAL syncs.
func BenchmarkPutItemIndexedOnDisk(b *testing.B) { benchPutInto(b, indexedTable, "Indexed", true) }

func benchPutInto(b *testing.B, create, table string, onDisk bool) {
	h, _ := benchEngine(b, onDisk)
	if table != "Bench" { // benchEngine made Bench
		if rec := do(h, "CreateTable", []byte(create)); rec.Code != 200 {
			b.Fatal(rec.Body)
		}
	}
	var n atomic.Int64
	b.ReportAllocs()
	defer reportCPU(b)()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			body := fmt.Appendf(nil, `{"TableName":%q,%s`, table, benchItem(n.Add(1))[len(`{"TableName":"Bench",`):])
			if rec := do(h, "PutItem", body); rec.Code != 200 {
				b.Fatal(rec.Body)
			}
		}
	})
}

// vectorTable is benchTable with one 128-dimension COSINE vector index on
// v, projecting KEYS_ONLY (an entry holds the vector all the same).
const vectorTable = `{"TableName":"Vectors","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"}],
"VectorIndexes":[{"IndexName":"vix","VectorAttribute":{"AttributeName":"v"},"Dimensions":128,"DistanceFunction":"COSINE",
 "Projection":{"ProjectionType":"KEYS_ONLY"}}],
"BillingMode":"PAY_PER_REQUEST"}`

// BenchmarkPutItemVector is a PutItem of a new item with a 128-number
// vector into a table with one vector index, in memory: the cost of
// reading the vector and writing its entry. entries: no search has built
// the index's graph, so a write maintains the entry alone; graph: a
// search has, so each write also adds its vector to the graph.
func BenchmarkPutItemVector(b *testing.B) {
	vectors := benchVectors(256, 128)
	for _, graph := range []bool{false, true} {
		b.Run(map[bool]string{false: "entries", true: "graph"}[graph], func(b *testing.B) {
			h, _ := benchEngine(b, false)
			if rec := do(h, "CreateTable", []byte(vectorTable)); rec.Code != 200 {
				b.Fatal(rec.Body)
			}
			if graph {
				search := `{"TableName":"Vectors","IndexName":"vix","TopK":1,"SearchVector":` + vectors[0] + `}`
				if rec := do(h, "SearchVectors", []byte(search)); rec.Code != 200 {
					b.Fatal(rec.Body)
				}
			}
			benchPutVectors(b, h, vectors)
		})
	}
}

func benchPutVectors(b *testing.B, h http.Handler, vectors []string) {
	var n atomic.Int64
	b.ReportAllocs()
	defer reportCPU(b)()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := n.Add(1)
			body := fmt.Appendf(nil, `{"TableName":"Vectors","Item":{"pk":{"S":"user#%d"},"sk":{"N":"%d"},"v":{"L":%s}}}`,
				i%1000, i, vectors[i%int64(len(vectors))])
			if rec := do(h, "PutItem", body); rec.Code != 200 {
				b.Fatal(rec.Body)
			}
		}
	})
}

// benchVectors is n vectors of dims random float32s, each the JSON of a
// list of number attribute values.
func benchVectors(n, dims int) []string {
	r := rand.New(rand.NewPCG(1, 2))
	out := make([]string, n)
	for i := range out {
		l := make([]string, dims)
		for j := range l {
			l[j] = `{"N":"` + strconv.FormatFloat(float64(r.Float32()*2-1), 'g', -1, 32) + `"}`
		}
		out[i] = "[" + strings.Join(l, ",") + "]"
	}
	return out
}
