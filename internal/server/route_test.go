package server

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// send is one raw request to h: method, Content-Type (none if empty),
// target (a bare name is a DynamoDB operation; none if empty) and body.
func send(h http.Handler, method, ctype, target, body string, hdr ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, "/", strings.NewReader(body))
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if target != "" && !strings.Contains(target, ".") {
		target = targetPrefix + target
	}
	if target != "" {
		req.Header.Set("X-Amz-Target", target)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Add(hdr[i], hdr[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// errorOf decodes an error body into its keys.
func errorOf(t *testing.T, rec *httptest.ResponseRecorder) map[string]string {
	t.Helper()
	var m map[string]string
	if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
		t.Fatalf("%d %q is not a JSON error: %v", rec.Code, rec.Body, err)
	}
	return m
}

// TestSerializationExceptionShape: DynamoDB's framework writes a
// SerializationException under coral's namespace with a capitalised
// "Message" key, and the text names the JSON value found.
func TestSerializationExceptionShape(t *testing.T) {
	rec := send(newTestHandler(t), "POST", contentType, "PutItem", `{"TableName":"t","Item":{"n":{"N":5}}}`)
	got := errorOf(t, rec)
	want := map[string]string{"__type": "com.amazon.coral.service#SerializationException", "Message": "NUMBER_VALUE cannot be converted to String"}
	if rec.Code != 400 || len(got) != 2 || got["__type"] != want["__type"] || got["Message"] != want["Message"] {
		t.Fatalf("%d %v, want 400 %v", rec.Code, got, want)
	}
}

// TestValidationExceptionKeepsLowercaseMessage: the errors DynamoDB itself
// raises keep the lowercase "message" key.
func TestValidationExceptionKeepsLowercaseMessage(t *testing.T) {
	got := errorOf(t, send(newTestHandler(t), "POST", contentType, "DescribeTable", `{}`))
	if _, ok := got["message"]; !ok || len(got) != 2 {
		t.Fatalf("validation error body %v", got)
	}
}

// TestUnknownAttributeValueKindIsEmptyValue: an AttributeValue holding
// only a member DynamoDB does not know ({"X": "a"}) has no data type set,
// and DynamoDB says so, with the prefix PutItem puts on value errors.
func TestUnknownAttributeValueKindIsEmptyValue(t *testing.T) {
	h := newTestHandler(t)
	do(h, "CreateTable", []byte(`{"TableName":"TBL","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"}`))
	rec := send(h, "POST", contentType, "PutItem", `{"TableName":"TBL","Item":{"pk":{"S":"a"},"x":{"X":"a"}}}`)
	got := errorOf(t, rec)
	if rec.Code != 400 || got["__type"] != "com.amazon.coral.validate#ValidationException" ||
		got["message"] != "1 validation error detected: Supplied AttributeValue is empty, must contain exactly one of the supported datatypes" {
		t.Fatalf("%d %v", rec.Code, got)
	}
}

// TestNonPostRequestIsNotFound: a method other than POST, GET (health)
// and OPTIONS (CORS) reaches no API, and gets DynamoDB's 404 page.
func TestNonPostRequestIsNotFound(t *testing.T) {
	h := newTestHandler(t)
	for _, m := range []string{"PUT", "DELETE", "PATCH"} {
		rec := send(h, m, contentType, "ListTables", `{}`)
		if rec.Code != 404 || rec.Body.String() != notFoundPage || rec.Header().Get("Content-Type") != "text/html" {
			t.Errorf("%s: %d %q %q", m, rec.Code, rec.Header().Get("Content-Type"), rec.Body)
		}
		if rec.Header().Get("x-amzn-RequestId") == "" {
			t.Errorf("%s: no request id", m)
		}
	}
}

// TestWrongContentTypeIsNotFound: DynamoDB answers a POST that is not in
// JSON 1.0's media types (x-amz-json-1.1, a form, none at all) with its
// 404 page, before it looks at the target.
func TestWrongContentTypeIsNotFound(t *testing.T) {
	h := newTestHandler(t)
	for _, ct := range []string{"application/x-amz-json-1.1", "application/x-www-form-urlencoded", "text/plain", ""} {
		for _, target := range []string{"ListTables", "NoSuchOperation"} {
			rec := send(h, "POST", ct, target, `{}`)
			if rec.Code != 404 || rec.Body.String() != notFoundPage {
				t.Errorf("%q %s: %d %q", ct, target, rec.Code, rec.Body)
			}
		}
	}
}

// TestResponseContentTypeEchoesRequest: both of JSON 1.0's media types
// are taken, parameters and case aside, and the response is labelled with
// the one the request used.
func TestResponseContentTypeEchoesRequest(t *testing.T) {
	h := newTestHandler(t)
	cases := map[string]string{
		"application/x-amz-json-1.0": "application/x-amz-json-1.0", "application/json": "application/json",
		"application/json; charset=utf-8": "application/json", "Application/X-Amz-Json-1.0": "application/x-amz-json-1.0"}
	for sent, want := range cases {
		for _, target := range []string{"ListTables", "NoSuchOperation"} {
			rec := send(h, "POST", sent, target, `{}`)
			if got := rec.Header().Get("Content-Type"); got != want || rec.Code == 404 {
				t.Errorf("%q %s: %d Content-Type %q, want %q", sent, target, rec.Code, got, want)
			}
		}
	}
}

// TestMissingOrUnknownTargetIsUnknownOperation: a JSON POST whose
// X-Amz-Target is missing, of another service or names no operation gets
// coral's UnknownOperationException, with no message.
func TestMissingOrUnknownTargetIsUnknownOperation(t *testing.T) {
	h := newTestHandler(t)
	for _, target := range []string{"", "NoSuchOperation", "DynamoDB_20111205.ListTables", "Kinesis_20131202.ListStreams",
		"DynamoDB_20111205.CreateBackup", "DynamoDB_20120810.NoSuchOperation", "DynamoDBStreams_20120810.CreateBackup"} {
		rec := send(h, "POST", contentType, target, `{}`)
		if rec.Code != 400 || rec.Body.String() != `{"__type":"com.amazon.coral.service#UnknownOperationException"}` {
			t.Errorf("target %q: %d %s", target, rec.Code, rec.Body)
		}
	}
}

// An operation DynamoDB has and sortkey does not serve is refused with a
// message saying so, and the server logs it at WARN once, however often
// the application calls it.
func TestUnsupportedOperationSaysSoAndWarnsOnce(t *testing.T) {
	var logs bytes.Buffer
	defer slog.SetDefault(slog.Default())
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, nil)))
	h := newTestHandler(t)
	for range 3 {
		rec := send(h, "POST", contentType, "CreateGlobalTable", `{}`)
		want := `{"__type":"com.amazon.coral.service#UnknownOperationException","message":"sortkey does not support the DynamoDB operation CreateGlobalTable"}`
		if rec.Code != 400 || rec.Body.String() != want {
			t.Fatalf("CreateGlobalTable: %d %s", rec.Code, rec.Body)
		}
	}
	if n := strings.Count(logs.String(), "level=WARN msg=\"unsupported DynamoDB operation called\" op=CreateGlobalTable"); n != 1 {
		t.Fatalf("logged %d warnings, want 1:\n%s", n, logs.String())
	}
}

// TestHealthCheckOnlyAtRoot: DynamoDB answers GET / with its health line
// (a query aside), and GET on any other path with a 4xx: here the 404
// page (facts 22.2).
func TestHealthCheckOnlyAtRoot(t *testing.T) {
	h := newTestHandler(t)
	for url, want := range map[string]int{"http://db.local/": 200, "http://db.local/?x=1": 200, "http://db.local/ping": 404} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, url, nil))
		if rec.Code != want || want == 200 && rec.Body.String() != "healthy: db.local " || want == 404 && rec.Body.String() != notFoundPage {
			t.Errorf("GET %s: %d %q", url, rec.Code, rec.Body)
		}
	}
}

// TestCORSPreflight: a browser's OPTIONS preflight is allowed any origin,
// the method and headers it asks for, for two days, with no body.
func TestCORSPreflight(t *testing.T) {
	asked := "content-type,x-amz-target,x-amz-date,authorization,amz-sdk-invocation-id,amz-sdk-request"
	rec := send(newTestHandler(t), "OPTIONS", "", "", "", "Origin", "http://app.local:3000",
		"Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", asked)
	want := map[string]string{"Access-Control-Allow-Origin": "*", "Access-Control-Allow-Methods": "POST",
		"Access-Control-Allow-Headers": asked, "Access-Control-Max-Age": "172800",
		"Access-Control-Expose-Headers": "x-amzn-RequestId,x-amzn-ErrorType,x-amzn-ErrorMessage,Date", "Content-Length": "0"}
	if rec.Code != 200 || rec.Body.Len() != 0 {
		t.Fatalf("preflight: %d %q", rec.Code, rec.Body)
	}
	for k, v := range want {
		if got := rec.Header().Get(k); got != v {
			t.Errorf("%s: %q, want %q", k, got, v)
		}
	}
}

// TestCORSHeadersOnResponses: every answer to a request with an Origin,
// an error too, lets the page read it; other clients get no CORS headers.
func TestCORSHeadersOnResponses(t *testing.T) {
	h := newTestHandler(t)
	for _, target := range []string{"ListTables", "DescribeTable", "NoSuchOperation"} {
		rec := send(h, "POST", contentType, target, `{}`, "Origin", "http://app.local")
		if rec.Header().Get("Access-Control-Allow-Origin") != "*" ||
			rec.Header().Get("Access-Control-Expose-Headers") != "x-amzn-RequestId,x-amzn-ErrorType,x-amzn-ErrorMessage,Date" {
			t.Errorf("%s with Origin: headers %v", target, rec.Header())
		}
		rec = send(h, "POST", contentType, target, `{}`)
		if rec.Header().Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("%s without Origin: headers %v", target, rec.Header())
		}
	}
}

// TestCORSRequestIsServed: the POST a browser sends after its preflight,
// with an Origin and plain JSON, is served as any other.
func TestCORSRequestIsServed(t *testing.T) {
	rec := send(newTestHandler(t), "POST", "application/json", "ListTables", `{}`, "Origin", "http://app.local")
	if rec.Code != 200 || !bytes.Equal(rec.Body.Bytes(), []byte(`{"TableNames":[]}`)) {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
}
