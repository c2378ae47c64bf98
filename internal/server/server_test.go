package server

import (
	"bytes"
	"encoding/json"
	"hash/crc32"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey/internal/version"
)

func TestResponseHeaders(t *testing.T) {
	h := newTestHandler(t)
	rec := do(h, "ListTables", []byte(`{}`))
	if rec.Code != 200 || rec.Body.String() != `{"TableNames":[]}` {
		t.Fatalf("ListTables: %d %s", rec.Code, rec.Body)
	}
	crc, _ := strconv.ParseUint(rec.Header().Get("X-Amz-Crc32"), 10, 32)
	if uint32(crc) != crc32.ChecksumIEEE(rec.Body.Bytes()) {
		t.Errorf("X-Amz-Crc32 %s does not match the body", rec.Header().Get("X-Amz-Crc32"))
	}
	if id := rec.Header().Get("x-amzn-RequestId"); len(id) != 52 || strings.Trim(id, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") != "" {
		t.Errorf("request id %q", id)
	}
	if ct := rec.Header().Get("Content-Type"); ct != "application/x-amz-json-1.0" {
		t.Errorf("content type %q", ct)
	}
}

func TestBodyOverLimitRefusedBeforeReading(t *testing.T) {
	h := newTestHandler(t)
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader("{}"))
	req.Header.Set("X-Amz-Target", targetPrefix+"PutItem")
	req.Header.Set("Content-Type", contentType)
	req.ContentLength = MaxBodyBytes + 1
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("declared oversized body: %d %s", rec.Code, rec.Body)
	}
	big := bytes.Repeat([]byte(" "), MaxBodyBytes+1)
	req = httptest.NewRequest(http.MethodPost, "/", &unsized{bytes.NewReader(big)})
	req.Header.Set("X-Amz-Target", targetPrefix+"PutItem")
	req.Header.Set("Content-Type", contentType)
	req.ContentLength = -1
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("streamed oversized body: %d %s", rec.Code, rec.Body)
	}
}

type unsized struct{ *bytes.Reader }

// A body cut off by the read timeout is answered with a SerializationException
// that says so, and the connection is not reused for a next request.
func TestBodyCutOffByReadTimeout(t *testing.T) {
	h := newTestHandler(t)
	body := io.MultiReader(strings.NewReader(`{"TableName":`), timedOut{})
	req := httptest.NewRequest(http.MethodPost, "/", body)
	req.Header.Set("X-Amz-Target", targetPrefix+"PutItem")
	req.Header.Set("Content-Type", contentType)
	req.ContentLength = 100
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 400 || !strings.Contains(rec.Body.String(), "SerializationException") || !strings.Contains(rec.Body.String(), "read timeout") {
		t.Fatalf("timed-out body: %d %s", rec.Code, rec.Body)
	}
	if c := rec.Header().Get("Connection"); c != "close" {
		t.Fatalf("Connection: %q, want close", c)
	}
}

// timedOut fails every read as a connection past its read deadline does.
type timedOut struct{}

func (timedOut) Read([]byte) (int, error) {
	return 0, &net.OpError{Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded}
}

func TestHealthCheck(t *testing.T) {
	h := newTestHandler(t)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://db.local/", nil))
	if rec.Code != 200 || !strings.HasPrefix(rec.Body.String(), "healthy: db.local") {
		t.Fatalf("GET /: %d %q", rec.Code, rec.Body)
	}
}

var fuzzTargets = []string{"CreateTable", "DescribeTable", "DeleteTable", "ListTables", "UpdateTable",
	"PutItem", "GetItem", "DeleteItem", "UpdateItem", "TagResource", "UntagResource", "ListTagsOfResource", "Bogus", "UpdateTimeToLive", "DescribeTimeToLive",
	"Query", "Scan", "BatchGetItem", "BatchWriteItem", "TransactWriteItems", "TransactGetItems",
	streamsTargetPrefix + "ListStreams", streamsTargetPrefix + "DescribeStream", streamsTargetPrefix + "GetShardIterator", streamsTargetPrefix + "GetRecords"}

// FuzzRequest sends arbitrary bodies to every operation of a server that
// has a table: no body may panic the server or earn a 500.
func FuzzRequest(f *testing.F) {
	seeds := []string{`{}`, `{"TableName":"TBL","Item":{"pk":{"S":"a"}}}`, `{"TableName":"TBL","Key":{"pk":{"N":"1e400"}}}`,
		`{"TableName":"TBL","Item":{"pk":{"S":"a"},"m":{"M":{"x":{"L":[{"NS":["1","1.0"]}]}}}}}`, `[`, `{"TableName":null}`,
		`{"TableName":"TBL","Key":{"pk":{"S":"a"}},"UpdateExpression":"SET a = list_append(if_not_exists(a, :l), :l) ADD n :one","ConditionExpression":"attribute_not_exists(x) OR size(a) < :one","ExpressionAttributeValues":{":l":{"L":[]},":one":{"N":"1"}}}`,
		`{"TableName":"TBL","Key":{"pk":{"S":"a"}},"AttributeUpdates":{"x":{"Action":"ADD","Value":{"N":"1"}}},"Expected":{"x":{"ComparisonOperator":"NULL"}}}`,
		`{"TableName":"T2","KeySchema":[{"AttributeName":"a","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"a","AttributeType":"B"}],"BillingMode":"PAY_PER_REQUEST"}`,
		`{"TableName":"TBL","KeyConditionExpression":"pk = :p","FilterExpression":"a > :p","ExpressionAttributeValues":{":p":{"S":"a"}},"Limit":1}`,
		`{"RequestItems":{"TBL":[{"PutRequest":{"Item":{"pk":{"S":"a"}}}},{"DeleteRequest":{"Key":{"pk":{"S":"b"}}}}]}}`,
		`{"RequestItems":{"TBL":{"Keys":[{"pk":{"S":"a"}}],"ProjectionExpression":"pk"}}}`,
		`{"ClientRequestToken":"t","TransactItems":[{"Put":{"TableName":"TBL","Item":{"pk":{"S":"a"}}}},{"Update":{"TableName":"TBL","Key":{"pk":{"S":"b"}},"UpdateExpression":"ADD n :one","ConditionExpression":"attribute_not_exists(pk)","ExpressionAttributeValues":{":one":{"N":"1"}}}}]}`,
		`{"TransactItems":[{"Get":{"TableName":"TBL","Key":{"pk":{"S":"a"}}}}]}`,
		`{"StreamArn":"arn:aws:dynamodb:us-east-1:000000000000:table/TBL/stream/2026-01-01T00:00:00.000","ShardId":"shardId-00000000000000000000-00000001","ShardIteratorType":"AT_SEQUENCE_NUMBER","SequenceNumber":"000000000000000000001"}`,
		`{"ShardIterator":"eyJhIjoiYXJuIiwibiI6MSwidCI6MH0","Limit":5}`}
	for i, s := range seeds {
		f.Add(uint8(i), []byte(s))
	}
	h := newTestHandler(f)
	do(h, "CreateTable", []byte(`{"TableName":"TBL","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"}`))
	f.Fuzz(func(t *testing.T, op uint8, body []byte) {
		rec := do(h, fuzzTargets[int(op)%len(fuzzTargets)], body)
		if rec.Code >= 500 {
			t.Fatalf("%d for %q: %s", rec.Code, body, rec.Body)
		}
		if !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("response is not JSON: %q", rec.Body)
		}
	})
}

// Every response names the sortkey version that answered: API calls,
// errors, the health check and the 404 page alike.
func TestVersionHeaderOnEveryResponse(t *testing.T) {
	h := newTestHandler(t)
	want := version.Get().Version
	for name, rec := range map[string]*httptest.ResponseRecorder{
		"ListTables":   do(h, "ListTables", []byte(`{}`)),
		"error":        do(h, "DescribeTable", []byte(`{}`)),
		"health check": send(h, http.MethodGet, "", "", ""),
		"not found":    send(h, http.MethodPut, "", "", ""),
	} {
		if got := rec.Header().Get("X-Sortkey-Version"); got == "" || got != want {
			t.Errorf("%s: X-Sortkey-Version %q, want %q", name, got, want)
		}
	}
}
