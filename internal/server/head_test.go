package server

import (
	"net/http"
	"strings"
	"testing"
)

// sdkRequest is a request with the headers an AWS SDK's signed PutItem
// carries.
func sdkRequest() *http.Request {
	r, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1:8000/", strings.NewReader("{}"))
	r.RequestURI = "/"
	for k, v := range map[string]string{
		"Content-Type": contentType, "X-Amz-Target": targetPrefix + "PutItem", "User-Agent": strings.Repeat("u", 120),
		"Amz-Sdk-Invocation-Id": strings.Repeat("i", 36), "Amz-Sdk-Request": "attempt=1; max=3", "Accept-Encoding": "identity",
		"X-Amz-Date": "20261129T033000Z", "Content-Length": "250",
		"Authorization": "AWS4-HMAC-SHA256 Credential=" + strings.Repeat("a", 60) + ", SignedHeaders=" + strings.Repeat("s", 90) + ", Signature=" + strings.Repeat("0", 64),
	} {
		r.Header.Set(k, v)
	}
	return r
}

// BenchmarkHeadTooLarge is the cost the 16 KB check adds to every API
// call: a sum over an SDK request's header lines.
func BenchmarkHeadTooLarge(b *testing.B) {
	r := sdkRequest()
	for b.Loop() {
		if headTooLarge(r) {
			b.Fatal("an SDK request is too large")
		}
	}
}
