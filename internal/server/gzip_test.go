package server

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"encoding/json"
	"hash/crc32"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

func gzipped(t testing.TB, b []byte) []byte {
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func deflated(t testing.TB, b []byte) []byte {
	var out bytes.Buffer
	zw := zlib.NewWriter(&out)
	_, _ = zw.Write(b)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// post sends body to target with extra headers (name, value, ...).
func post(h http.Handler, target string, body []byte, hdr ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("X-Amz-Target", targetPrefix+target)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Add(hdr[i], hdr[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

const gzipTable = `{"TableName":"TBL","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"}`

// TestGzipRequestBody: a body sent with Content-Encoding gzip, or deflate,
// is decompressed before it is decoded.
func TestGzipRequestBody(t *testing.T) {
	h := newTestHandler(t)
	do(h, "CreateTable", []byte(gzipTable))
	put := []byte(`{"TableName":"TBL","Item":{"pk":{"S":"a"},"v":{"S":"zipped"}}}`)
	cases := map[string][]byte{"gzip": gzipped(t, put), "GZIP": gzipped(t, put), "deflate": deflated(t, put),
		"identity": put, "gzip, identity": gzipped(t, put)}
	for coding, body := range cases {
		if rec := post(h, "PutItem", body, "Content-Encoding", coding); rec.Code != 200 {
			t.Fatalf("%s: %d %s", coding, rec.Code, rec.Body)
		}
	}
	get := post(h, "GetItem", gzipped(t, []byte(`{"TableName":"TBL","Key":{"pk":{"S":"a"}}}`)), "Content-Encoding", "gzip")
	if get.Code != 200 || !strings.Contains(get.Body.String(), "zipped") {
		t.Fatalf("GetItem: %d %s", get.Code, get.Body)
	}
}

// TestBadRequestBodyCodingIsInternalError: a body that is not what its
// Content-Encoding says, or in a coding DynamoDB does not take, is a 500
// as on DynamoDB (facts 20), with sortkey's InternalServerError naming
// the coding.
func TestBadRequestBodyCodingIsInternalError(t *testing.T) {
	h := newTestHandler(t)
	whole := gzipped(t, []byte(`{}`))
	cases := []struct{ coding, body, msg string }{
		{"gzip", `{}`, "The request body is not valid gzip data"},
		{"gzip", string(whole[:len(whole)-3]), "The request body is not valid gzip data"},
		{"deflate", `{}`, "The request body is not valid deflate data"},
		{"br", `{}`, "Unsupported Content-Encoding: br"},
	}
	for _, c := range cases {
		rec := post(h, "ListTables", []byte(c.body), "Content-Encoding", c.coding)
		got := errorOf(t, rec)
		if rec.Code != 500 || got["__type"] != "com.amazonaws.dynamodb.v20120810#InternalServerError" || got["message"] != c.msg {
			t.Errorf("%s %q: %d %v", c.coding, c.body, rec.Code, got)
		}
	}
}

// TestGzipBombRefused: the body limit holds for the decompressed body, so
// a small body that expands past it is refused with 413.
func TestGzipBombRefused(t *testing.T) {
	h := newTestHandler(t)
	bomb := gzipped(t, append([]byte(`{"TableName":"TBL"`), bytes.Repeat([]byte(" "), MaxBodyBytes)...))
	if len(bomb) > 1<<20 {
		t.Fatalf("bomb is %d bytes, not small", len(bomb))
	}
	rec := post(h, "PutItem", bomb, "Content-Encoding", "gzip")
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	justFits := gzipped(t, append(bytes.Repeat([]byte(" "), MaxBodyBytes-2), "{}"...))
	if rec := post(h, "ListTables", justFits, "Content-Encoding", "gzip"); rec.Code != 200 {
		t.Fatalf("a body of exactly the limit: %d %s", rec.Code, rec.Body)
	}
}

// bigItem creates TBL and puts an item of about n bytes.
func bigItem(t *testing.T, h http.Handler, n int) {
	do(h, "CreateTable", []byte(gzipTable))
	item := `{"TableName":"TBL","Item":{"pk":{"S":"a"},"v":{"S":"` + strings.Repeat("sortkey ", n/8) + `"}}}`
	if rec := do(h, "PutItem", []byte(item)); rec.Code != 200 {
		t.Fatal(rec.Body)
	}
}

// TestGzipResponseCRC32OverCompressedBytes: a client that takes gzip gets a
// large response compressed, with Content-Length and X-Amz-Crc32 of the
// bytes sent, as SDKs check them before decompressing.
func TestGzipResponseCRC32OverCompressedBytes(t *testing.T) {
	h := newTestHandler(t)
	bigItem(t, h, 64<<10)
	rec := post(h, "GetItem", []byte(`{"TableName":"TBL","Key":{"pk":{"S":"a"}}}`), "Accept-Encoding", "gzip")
	sent := rec.Body.Bytes()
	crc, _ := strconv.ParseUint(rec.Header().Get("X-Amz-Crc32"), 10, 32)
	if rec.Code != 200 || rec.Header().Get("Content-Encoding") != "gzip" || uint32(crc) != crc32.ChecksumIEEE(sent) ||
		rec.Header().Get("Content-Length") != strconv.Itoa(len(sent)) || rec.Header().Get("Content-Type") != contentType {
		t.Fatalf("%d %v", rec.Code, rec.Header())
	}
	zr, err := gzip.NewReader(bytes.NewReader(sent))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil || !json.Valid(plain) || len(plain) < 64<<10 || len(sent) > len(plain)/4 {
		t.Fatalf("decompressed %d bytes from %d: %v", len(plain), len(sent), err)
	}
}

// TestSmallResponseNotCompressed: as DynamoDB, small responses are sent as
// they are even to a client that takes gzip, and no response is
// compressed for a client that does not.
func TestSmallResponseNotCompressed(t *testing.T) {
	h := newTestHandler(t)
	bigItem(t, h, 64<<10)
	small := post(h, "ListTables", []byte(`{}`), "Accept-Encoding", "gzip")
	large := post(h, "GetItem", []byte(`{"TableName":"TBL","Key":{"pk":{"S":"a"}}}`), "Accept-Encoding", "identity")
	for name, rec := range map[string]*httptest.ResponseRecorder{"small": small, "not accepted": large} {
		if rec.Code != 200 || rec.Header().Get("Content-Encoding") != "" || !json.Valid(rec.Body.Bytes()) {
			t.Errorf("%s: %d %v", name, rec.Code, rec.Header())
		}
	}
}

// TestGzipErrorResponse: a large error (a failed condition returning the
// old item) is compressed like any other response.
func TestGzipErrorResponse(t *testing.T) {
	h := newTestHandler(t)
	bigItem(t, h, 64<<10)
	rec := post(h, "PutItem", []byte(`{"TableName":"TBL","Item":{"pk":{"S":"a"}},"ConditionExpression":"attribute_not_exists(pk)","ReturnValuesOnConditionCheckFailure":"ALL_OLD"}`),
		"Accept-Encoding", "gzip")
	crc, _ := strconv.ParseUint(rec.Header().Get("X-Amz-Crc32"), 10, 32)
	if rec.Code != 400 || rec.Header().Get("Content-Encoding") != "gzip" || uint32(crc) != crc32.ChecksumIEEE(rec.Body.Bytes()) {
		t.Fatalf("%d %v", rec.Code, rec.Header())
	}
}

// TestResponseCoding: which coding each Accept-Encoding value gets for a
// large response (facts 21.4 has the rules, TestFactsAcceptEncoding their
// observed cases).
func TestResponseCoding(t *testing.T) {
	cases := map[string]coding{"": identity, "identity": identity, "gzip": gzipCoding, "GZIP": gzipCoding, "x-gzip": identity,
		"deflate, gzip;q=1.0, *;q=0.5": deflateCoding, "gzip;q=0": identity, "gzip; q=0.000": identity, "gzip;q=0.001": gzipCoding,
		"*": gzipCoding, "*;q=0": identity, "br, *": gzipCoding, "gzip;q=0, *": deflateCoding, "deflate, br": deflateCoding,
		"gzipx": identity, "*;q=0.5, deflate;q=0.4": gzipCoding, "*;q=0.5, gzip;q=0.4": deflateCoding}
	for v, want := range cases {
		if got := responseCoding(v); got != want {
			t.Errorf("%q: %v, want %v", v, got, want)
		}
	}
}

// FuzzGzipRequest sends arbitrary bytes as a gzip body, and arbitrary JSON
// gzipped: either is answered, as a clear error or a result (a body that
// is not gzip a 500, as on DynamoDB), never with a panic, and a gzipped
// body is answered as its plain twin is.
func FuzzGzipRequest(f *testing.F) {
	for _, s := range []string{`{}`, `{"TableName":"TBL","Item":{"pk":{"S":"a"}}}`, "\x1f\x8b\x08\x00", "", `{"TableName":`} {
		f.Add([]byte(s))
		f.Add(gzipped(f, []byte(s)))
	}
	h := newTestHandler(f)
	do(h, "CreateTable", []byte(gzipTable))
	f.Fuzz(func(t *testing.T, body []byte) {
		raw := post(h, "GetItem", body, "Content-Encoding", "gzip")
		if raw.Code > 500 || !json.Valid(raw.Body.Bytes()) {
			t.Fatalf("raw: %d %q", raw.Code, raw.Body)
		}
		zipped := post(h, "GetItem", gzipped(t, body), "Content-Encoding", "gzip")
		plain := post(h, "GetItem", body)
		if zipped.Code != plain.Code || zipped.Body.String() != plain.Body.String() {
			t.Fatalf("gzipped %d %s, plain %d %s", zipped.Code, zipped.Body, plain.Code, plain.Body)
		}
	})
}
