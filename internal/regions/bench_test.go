package regions_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey"
)

// benchTable is a table with a stream of new and old images (a replica
// has one), so that plain and replica differ only by replication.
const benchTable = `{"TableName":"Bench","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"},"BillingMode":"PAY_PER_REQUEST"}`

// BenchmarkPutItemReplica is a PutItem of a new item in us-east-1, in
// memory, into a table of that region alone (plain) and into a replica of
// a global table with one other region (replica: the write also stores
// its stamp and one change for us-west-2; the lag is an hour, so nothing
// is sent meanwhile). The difference is what replication costs a write.
func BenchmarkPutItemReplica(b *testing.B) {
	for _, replica := range []bool{false, true} {
		b.Run(map[bool]string{false: "plain", true: "replica"}[replica], func(b *testing.B) {
			h := benchServer(b, time.Hour, replica)
			var n atomic.Int64
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					benchPut(b, h, n.Add(1))
				}
			})
		})
	}
}

// BenchmarkReplicate is the replicator's cost per write: each op is one
// write made in us-east-1 and applied in us-west-2 (the lag is none and
// FlushReplication sends what is pending, in chunks).
func BenchmarkReplicate(b *testing.B) {
	db, h := benchDB(b, -1, true)
	var n int64
	b.ReportAllocs()
	for b.Loop() {
		n++
		benchPut(b, h, n)
		if n%256 == 0 {
			if err := db.FlushReplication(ctx); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := db.FlushReplication(ctx); err != nil {
		b.Fatal(err)
	}
	if st, _ := db.ReplicationStats(); st.Applied != n || st.Backlog != 0 {
		b.Fatalf("%+v after %d writes", st, n)
	}
}

func benchServer(b *testing.B, lag time.Duration, replica bool) http.Handler {
	_, h := benchDB(b, lag, replica)
	return h
}

func benchDB(b *testing.B, lag time.Duration, replica bool) (*sortkey.DB, http.Handler) {
	db, err := sortkey.Open("", &sortkey.Options{InMemory: true, Regions: sortkey.RegionsSeparate, ReplicationLag: lag, TTLInterval: -1})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	h := db.Handler()
	post(b, h, east, "CreateTable", benchTable)
	if replica {
		post(b, h, east, "UpdateTable", `{"TableName":"Bench","ReplicaUpdates":[{"Create":{"RegionName":"us-west-2"}}]}`)
	}
	return db, h
}

func benchPut(b *testing.B, h http.Handler, i int64) {
	post(b, h, east, "PutItem", fmt.Sprintf(`{"TableName":"Bench","Item":{"pk":{"S":"user#%d"},"name":{"S":"Ada Lovelace"},"n":{"N":"%d"}}}`, i, i))
}

// post sends one API call in region, signed-looking enough to name it
// (the server checks no signature without access control).
func post(b *testing.B, h http.Handler, region, op, body string) {
	r := httptest.NewRequest(http.MethodPost, "/", bytes.NewBufferString(body))
	r.Header.Set("X-Amz-Target", "DynamoDB_20120810."+op)
	r.Header.Set("Content-Type", "application/x-amz-json-1.0")
	r.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=sortkey/20261129/"+region+"/dynamodb/aws4_request, SignedHeaders=host, Signature=00")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusOK {
		b.Fatalf("%s: %d %s", op, w.Code, w.Body)
	}
}
