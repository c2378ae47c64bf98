package server

import (
	"fmt"
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
