package server

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/httpfast"
)

// The HTTP facts (sections 20 to 22 of the facts file) over real
// connections, on both of sortkey's HTTP paths: net/http alone, and
// internal/httpfast in front of it as `sortkey serve` runs it.

// httpPaths serves h on each path and returns their addresses by name.
func httpPaths(t *testing.T, h http.Handler) map[string]string {
	t.Helper()
	plain := httptest.NewServer(h)
	t.Cleanup(plain.Close)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fallback := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, MaxHeaderBytes: 64 << 10}
	fast := &httpfast.Server{Handler: h, Fallback: fallback, MaxBodyBytes: MaxBodyBytes}
	go fast.Serve(ln)
	t.Cleanup(func() { fast.Close() })
	return map[string]string{"net/http": plain.Listener.Addr().String(), "httpfast": ln.Addr().String()}
}

// rawReply is an answer read off the wire, its body as sent.
type rawReply struct {
	status int
	header http.Header
	body   []byte
}

// roundTrip sends the raw request req to addr on a new connection and
// reads the answer.
func roundTrip(t *testing.T, addr, req string) rawReply {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return rawReply{resp.StatusCode, resp.Header, body}
}

// apiRequest is a raw POST / of op with body and extra header lines
// ("Name: value").
func apiRequest(op, body string, lines ...string) string {
	return rawRequest("POST", "/", body, append([]string{"Content-Type: " + contentType, "X-Amz-Target: " + targetPrefix + op}, lines...)...)
}

func rawRequest(method, path, body string, lines ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: sortkey.test\r\n", method, path)
	for _, l := range lines {
		b.WriteString(l + "\r\n")
	}
	fmt.Fprintf(&b, "Content-Length: %d\r\nConnection: close\r\n\r\n%s", len(body), body)
	return b.String()
}

// factsTable is the hash table p the facts use.
const factsTable = `{"TableName":"Facts","KeySchema":[{"AttributeName":"p","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"p","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"}`

// factsHandler is a handler with table F.
func factsHandler(t *testing.T) *Handler {
	h := newTestHandler(t)
	if rec := do(h, "CreateTable", []byte(factsTable)); rec.Code != 200 {
		t.Fatal(rec.Body)
	}
	return h
}

func putF(t *testing.T, h http.Handler, item string) {
	t.Helper()
	if rec := do(h, "PutItem", []byte(`{"TableName":"Facts","Item":`+item+`}`)); rec.Code != 200 {
		t.Fatal(rec.Body)
	}
}

func getF(p string) string { return `{"TableName":"Facts","Key":{"p":{"S":"` + p + `"}}}` }

// TestFactsBadContentEncodingIs500: an unknown Content-Encoding, or a body
// that does not decompress, is a 500 and writes nothing.
func TestFactsBadContentEncodingIs500(t *testing.T) {
	h := factsHandler(t)
	gz := gzipped(t, []byte(`{"TableName":"Facts","Item":{"p":{"S":"x"},"c":{"S":"x"}}}`))
	cases := []struct{ name, coding, body string }{
		{"20.1", "garbage", "plain"},  // facts 20.1
		{"20.2", "gzip", "plain"},     // facts 20.2
		{"20.3", "gzip", "truncated"}, // facts 20.3
		{"20.4", "gzip", "empty"},     // facts 20.4
		{"20.5", "deflate", "empty"},  // facts 20.5
		{"20.6", "deflate", "plain"},  // facts 20.6
	}
	for path, addr := range httpPaths(t, h) {
		for i, c := range cases {
			p := fmt.Sprintf("%s-%d", c.name, i)
			body := map[string]string{"plain": `{"TableName":"Facts","Item":{"p":{"S":"` + p + `"},"c":{"S":"x"}}}`,
				"truncated": string(gz[:len(gz)-1]), "empty": ""}[c.body]
			r := roundTrip(t, addr, apiRequest("PutItem", body, "Content-Encoding: "+c.coding))
			var e map[string]string
			json.Unmarshal(r.body, &e)
			if r.status != 500 || e["__type"] != "com.amazonaws.dynamodb.v20120810#InternalServerError" {
				t.Errorf("%s %s: %d %s", path, c.name, r.status, r.body)
			}
			if got := do(h, "GetItem", []byte(getF(p))); got.Body.String() != `{}` {
				t.Errorf("%s %s: the item was written: %s", path, c.name, got.Body)
			}
		}
	}
}

// sizedItem puts item p with attribute v sized so that GetItem of it
// answers exactly n bytes, uncompressed.
func sizedItem(t *testing.T, h http.Handler, p string, n int) {
	t.Helper()
	item := func(k int) string { return `{"p":{"S":"` + p + `"},"v":{"S":"` + strings.Repeat("s", k) + `"}}` }
	putF(t, h, item(1000))
	k := 1000 + n - do(h, "GetItem", []byte(getF(p))).Body.Len()
	putF(t, h, item(k))
	if got := do(h, "GetItem", []byte(getF(p))).Body.Len(); got != n {
		t.Fatalf("GetItem of %s answers %d bytes, not %d", p, got, n)
	}
}

// decompressed is r's body undone from its Content-Encoding.
func decompressed(t *testing.T, r rawReply) []byte {
	t.Helper()
	var zr io.Reader
	var err error
	switch r.header.Get("Content-Encoding") {
	case "":
		return r.body
	case "gzip":
		zr, err = gzip.NewReader(bytes.NewReader(r.body))
	case "deflate":
		zr, err = zlib.NewReader(bytes.NewReader(r.body))
	}
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return plain
}

// checkReply checks an answer's Content-Encoding, its CRC32 and length
// over the bytes sent, and that it decompresses to JSON.
func checkReply(t *testing.T, what string, r rawReply, coding string) []byte {
	t.Helper()
	crc, _ := strconv.ParseUint(r.header.Get("X-Amz-Crc32"), 10, 32)
	if r.status != 200 || r.header.Get("Content-Encoding") != coding || uint32(crc) != crc32.ChecksumIEEE(r.body) ||
		r.header.Get("Content-Length") != strconv.Itoa(len(r.body)) {
		t.Errorf("%s: %d %v, want Content-Encoding %q", what, r.status, r.header, coding)
		return nil
	}
	plain := decompressed(t, r)
	if !json.Valid(plain) {
		t.Errorf("%s: not JSON once decompressed", what)
	}
	return plain
}

// TestFactsDeflateResponses: a response over 4096 bytes is compressed
// with deflate (zlib, RFC 1950) for a client that takes only deflate.
func TestFactsDeflateResponses(t *testing.T) {
	h := factsHandler(t)
	big := strings.Repeat("a", 2048)
	putF(t, h, `{"p":{"S":"abc"},"a":{"S":"`+big+`"},"b":{"S":"`+big+`"},"c":{"S":"`+big+`"}}`)
	putF(t, h, `{"p":{"S":"random"},"r":{"S":"`+randomText(200<<10)+`"}}`)
	keys := ""
	for i := range 10 {
		putF(t, h, fmt.Sprintf(`{"p":{"S":"b%d"},"v":{"S":"%s"}}`, i, strings.Repeat("b", 15<<10)))
		keys += fmt.Sprintf(`,{"p":{"S":"b%d"}}`, i)
	}
	batch := `{"RequestItems":{"Facts":{"Keys":[` + keys[1:] + `]}}}`
	project := func(e string) string {
		return `{"TableName":"Facts","Key":{"p":{"S":"abc"}},"ProjectionExpression":"` + e + `"}`
	}
	for path, addr := range httpPaths(t, h) {
		abc := roundTrip(t, addr, apiRequest("GetItem", project("a, b, c"), "Accept-Encoding: deflate"))
		if plain := checkReply(t, path+" 21.1", abc, "deflate"); len(plain) < 30*len(abc.body) { // facts 21.1
			t.Errorf("%s 21.1: %d bytes from %d, not 30x smaller", path, len(abc.body), len(plain))
		}
		a := roundTrip(t, addr, apiRequest("GetItem", project("a"), "Accept-Encoding: deflate"))
		checkReply(t, path+" 21.1 one attribute", a, "") // facts 21.1
		random := roundTrip(t, addr, apiRequest("GetItem", getF("random"), "Accept-Encoding: deflate"))
		checkReply(t, path+" 21.2", random, "deflate") // facts 21.2
		batched := roundTrip(t, addr, apiRequest("BatchGetItem", batch, "Accept-Encoding: deflate"))
		if plain := checkReply(t, path+" 21.3", batched, "deflate"); plain != nil && len(plain) < 150<<10 { // facts 21.3
			t.Errorf("%s 21.3: %d bytes", path, len(plain))
		}
	}
}

func randomText(n int) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[rand.IntN(len(alphabet))]
	}
	return string(b)
}

// TestFactsAcceptEncoding: the coding chosen for a response just over
// 4096 bytes, for each Accept-Encoding value of facts 21.4, and none for
// one of exactly 4096 bytes.
func TestFactsAcceptEncoding(t *testing.T) {
	h := factsHandler(t)
	sizedItem(t, h, "over", compressMinBytes+1)
	sizedItem(t, h, "at", compressMinBytes)
	cases := []struct{ accept, want string }{
		{"x-gzip", ""}, // facts 21.4
		{"br, identity, deflate, gzip", "deflate"},                   // facts 21.4
		{"br, gzip;q=0, deflate; q = 0.5 , identity;q=0", "deflate"}, // facts 21.4
		{"*, deflate", "deflate"},                                    // facts 21.4
		{"*, gzip;q=0.5", "deflate"},                                 // facts 21.4
		{"deflate;q=0.5, gzip;q=0.2", "deflate"},                     // facts 21.4
		{"deflate;q=0.5,gzip;q=0.", "deflate"},                       // facts 21.4
		{"gzip;nq=0;q=1", ""},                                        // facts 21.4
		{"gzip;q=0, gzip;q=1, gzip;q=0", "gzip"},                     // facts 21.4
		{"identity", ""},                                             // facts 21.4
		{"", ""},                                                     // facts 21.4
		{"br", ""},                                                   // facts 21.4
		{"zstd", ""},                                                 // facts 21.4
		{"compress", ""},                                             // facts 21.4
		{"gzip, deflate", "gzip"},                                    // facts 21.4
		{"GZIP, identity", "gzip"},                                   // facts 21.4
		{"dog, gzip ,, cat", "gzip"},                                 // facts 21.4
		{"gzip;q=0.8, deflate;q=0.5", "gzip"},                        // facts 21.4
		{"*", "gzip"},                                                // facts 21.4
		{"*, deflate;q=0.5", "gzip"},                                 // facts 21.4
		{"*, identity", "gzip"},                                      // facts 21.4
		{"gzip ;q=0", ""},                                            // facts 21.4
		{"identity;q=0", ""},                                         // facts 21.4
		{"*;q=0", ""},                                                // facts 21.4
		{"*;q=0.5,identity", "gzip"},                                 // facts 21.4
		{"gzip;q=0.5,identity;q=0.8", "gzip"},                        // facts 21.4
		{"br;q=0.8,identity;q=0.5,*;q=0", ""},                        // facts 21.4
		{`"gzip"`, ""},                                               // facts 21.4
		{"gzip br", ""},                                              // facts 21.4
		{"gzip:q=1", ""},                                             // facts 21.4
		{"deflate;q=0.5, gzip;q=31", "gzip"},                         // facts 21.4
		{"gzip;q=31,deflate;q=51", "gzip"},                           // facts 21.4
		{"deflate;q=0.5, gzip;q=1;q=0.2", "gzip"},                    // facts 21.4
		{"deflate;q=0.5,gzip;q=0.x", "gzip"},                         // facts 21.4
		{"deflate;q=0.5,gzip;q=0. x", "gzip"},                        // facts 21.4
		{"deflate;q=-0.5,gzip;q=0.2", "gzip"},                        // facts 21.4
		{"gzip;q= 0;q=1", ""},                                        // facts 21.4
		{"gzip;q =0;q=1", "gzip"},                                    // facts 21.4
		{"gzip; q=0;q=1", ""},                                        // facts 21.4
		{"br,identity;q=0.5,gzip;q=0.0001", "gzip"},                  // facts 21.4
	}
	for path, addr := range httpPaths(t, h) {
		for _, c := range cases {
			r := roundTrip(t, addr, apiRequest("GetItem", getF("over"), "Accept-Encoding: "+c.accept))
			checkReply(t, fmt.Sprintf("%s %q", path, c.accept), r, c.want)
		}
		for _, accept := range []string{"gzip", "deflate", "*"} { // facts 21
			r := roundTrip(t, addr, apiRequest("GetItem", getF("at"), "Accept-Encoding: "+accept))
			checkReply(t, fmt.Sprintf("%s %q at 4096 bytes", path, accept), r, "")
		}
	}
}

// TestFactsFirstAcceptEncodingLineOnly: with several Accept-Encoding
// lines, only the first counts (facts 21.5).
func TestFactsFirstAcceptEncodingLineOnly(t *testing.T) {
	h := factsHandler(t)
	sizedItem(t, h, "over", compressMinBytes+1)
	cases := []struct {
		lines []string
		want  string
	}{
		{[]string{"Accept-Encoding: identity", "Accept-Encoding: gzip"}, ""},       // facts 21.5
		{[]string{"Accept-Encoding: gzip", "Accept-Encoding: identity"}, "gzip"},   // facts 21.5
		{[]string{"Accept-Encoding: br", "Accept-Encoding: deflate"}, ""},          // facts 21.5
		{[]string{"Accept-Encoding: deflate", "Accept-Encoding: gzip"}, "deflate"}, // facts 21.5
	}
	for path, addr := range httpPaths(t, h) {
		for _, c := range cases {
			r := roundTrip(t, addr, apiRequest("GetItem", getF("over"), c.lines...))
			checkReply(t, fmt.Sprintf("%s %q", path, c.lines), r, c.want)
		}
	}
}

// corsHeaders are every CORS response header.
var corsHeaders = []string{"Access-Control-Allow-Origin", "Access-Control-Allow-Credentials", "Access-Control-Expose-Headers",
	"Access-Control-Max-Age", "Access-Control-Allow-Methods", "Access-Control-Allow-Headers"}

// TestFactsNoCORSWithoutOrigin: a request without an Origin, a preflight
// too, gets no CORS header.
func TestFactsNoCORSWithoutOrigin(t *testing.T) {
	h := factsHandler(t)
	reqs := map[string]string{
		"OPTIONS": rawRequest("OPTIONS", "/", "", "Access-Control-Request-Method: POST"), // facts 22.1
		"GET":     rawRequest("GET", "/", ""),                                            // facts 22.1
		"POST":    apiRequest("ListTables", "{}"),                                        // facts 22.1
	}
	for path, addr := range httpPaths(t, h) {
		for name, req := range reqs {
			r := roundTrip(t, addr, req)
			for _, k := range corsHeaders {
				if r.status != 200 || r.header.Get(k) != "" {
					t.Errorf("%s %s: %d %s: %q", path, name, r.status, k, r.header.Get(k))
				}
			}
		}
	}
}

// TestFactsHealthOnlyAtRoot: GET / is the health check; GET of any other
// path is a 4xx.
func TestFactsHealthOnlyAtRoot(t *testing.T) {
	h := factsHandler(t)
	for path, addr := range httpPaths(t, h) {
		if r := roundTrip(t, addr, rawRequest("GET", "/", "")); r.status != 200 || string(r.body) != "healthy: sortkey.test " {
			t.Errorf("%s GET /: %d %q", path, r.status, r.body) // facts 22.2
		}
		for _, p := range []string{"/abc", "/-", "/index.htm"} { // facts 22.2
			if r := roundTrip(t, addr, rawRequest("GET", p, "")); r.status != 404 || string(r.body) != notFoundPage {
				t.Errorf("%s GET %s: %d %q", path, p, r.status, r.body)
			}
		}
	}
}

// TestFactsServerHeader: every answer carries a Server header.
func TestFactsServerHeader(t *testing.T) {
	h := factsHandler(t)
	putF(t, h, `{"p":{"S":"a"}}`)
	reqs := map[string]string{
		"GetItem":               apiRequest("GetItem", getF("a")),                       // facts 22.3
		"DescribeTable missing": apiRequest("DescribeTable", `{"TableName":"Missing"}`), // facts 22.3
		"GET /":                 rawRequest("GET", "/", ""),                             // facts 22.3
		"GET /abc":              rawRequest("GET", "/abc", ""),                          // facts 22.3
	}
	for path, addr := range httpPaths(t, h) {
		for name, req := range reqs {
			if r := roundTrip(t, addr, req); r.header.Get("Server") != "sortkey" {
				t.Errorf("%s %s: %d Server %q", path, name, r.status, r.header.Get("Server"))
			}
		}
	}
}

// badSignature is a Guard that refuses every signature, as a request
// whose signed parts were changed is refused.
type badSignature struct{}

func (badSignature) Authenticate(*http.Request, []byte) (Caller, error) {
	return nil, apierr.New(apierr.InvalidSignature, "The request signature we calculated does not match the signature you provided.")
}

// TestFactsHeadOver16KB: headers totalling over 16 KB, or a request line
// over 16 KB, are a 400, before any signature is checked, and nothing is
// written; short extra headers change nothing.
func TestFactsHeadOver16KB(t *testing.T) {
	big := strings.Repeat("h", 8192)
	put := func(p string) string { return `{"TableName":"Facts","Item":{"p":{"S":"` + p + `"}}}` }
	cases := []struct {
		name, p, req string
		want         int
	}{
		{"22.4 two 8 KiB headers", "big", apiRequest("PutItem", put("big"), "X-Extra-One: "+big, "X-Extra-Two: "+big), 400}, // facts 22.4
		{"22.4 short headers", "short", apiRequest("PutItem", put("short"), "X-Extra-One: a", "X-Extra-Two: b"), 200},       // facts 22.4
		{"22.5 long path", "long", rawRequest("POST", "/"+strings.Repeat("x", 17000), put("long"),
			"Content-Type: "+contentType, "X-Amz-Target: "+targetPrefix+"PutItem"), 400}, // facts 22.5
	}
	for _, guarded := range []bool{false, true} {
		h := factsHandler(t)
		for path, addr := range httpPaths(t, h) {
			for _, c := range cases {
				r := roundTrip(t, addr, c.req)
				written := do(h, "GetItem", []byte(getF(c.p))).Body.String() != `{}`
				switch {
				case c.want == 400 && (r.status != 400 || bytes.Contains(r.body, []byte("InvalidSignature")) || written):
					t.Errorf("guarded %v, %s %s: %d %q, written %v", guarded, path, c.name, r.status, r.body, written)
				case c.want == 200 && !guarded && (r.status != 200 || !written):
					t.Errorf("%s %s: %d %q, written %v", path, c.name, r.status, r.body, written)
				}
				do(h, "DeleteItem", []byte(getF(c.p)))
			}
		}
		h.guard = badSignature{}
	}
}

// TestFactsTagResourceEmptyBody: TagResource and UntagResource answer 200
// with no body at all.
func TestFactsTagResourceEmptyBody(t *testing.T) {
	h := newTestHandler(t)
	rec := do(h, "CreateTable", []byte(factsTable))
	var out struct{ TableDescription struct{ TableArn string } }
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil || out.TableDescription.TableArn == "" {
		t.Fatalf("CreateTable: %s", rec.Body)
	}
	arn := out.TableDescription.TableArn
	reqs := map[string]string{
		"TagResource":   `{"ResourceArn":"` + arn + `","Tags":[{"Key":"k","Value":"v"}]}`, // facts 22.6
		"UntagResource": `{"ResourceArn":"` + arn + `","TagKeys":["k"]}`,                  // facts 22.6
	}
	for path, addr := range httpPaths(t, h) {
		for _, op := range []string{"TagResource", "UntagResource"} {
			r := roundTrip(t, addr, apiRequest(op, reqs[op]))
			if r.status != 200 || len(r.body) != 0 || r.header.Get("Content-Length") != "0" {
				t.Errorf("%s %s: %d %q %v", path, op, r.status, r.body, r.header)
			}
		}
	}
}

// TestFactsMalformedJSONHasNoMessage: malformed JSON is a
// SerializationException with no message member.
func TestFactsMalformedJSONHasNoMessage(t *testing.T) {
	h := factsHandler(t)
	for path, addr := range httpPaths(t, h) {
		r := roundTrip(t, addr, apiRequest("PutItem", `{broken json`)) // facts 22.7
		if r.status != 400 || string(r.body) != `{"__type":"com.amazon.coral.service#SerializationException"}` {
			t.Errorf("%s: %d %s", path, r.status, r.body)
		}
	}
}

// TestFactsBodyMustBeObject: a body that is JSON null or a list is an
// error; {} succeeds.
func TestFactsBodyMustBeObject(t *testing.T) {
	h := factsHandler(t)
	cases := []struct {
		body string
		want int
	}{
		{"null", 400}, // facts 22.8
		{"[]", 400},   // facts 22.8
		{"{}", 200},   // facts 22.8
	}
	for path, addr := range httpPaths(t, h) {
		for _, c := range cases {
			r := roundTrip(t, addr, apiRequest("ListTables", c.body))
			if r.status != c.want || c.want == 400 && !bytes.Contains(r.body, []byte("#SerializationException")) {
				t.Errorf("%s %s: %d %s", path, c.body, r.status, r.body)
			}
		}
	}
}
