package sigv4

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/sortkeydb/sortkey/internal/apierr"
)

// FuzzParseAuthorization: the parser never panics, and what it accepts has
// the supported algorithm and every parameter taken from the header itself.
func FuzzParseAuthorization(f *testing.F) {
	f.Add("AWS4-HMAC-SHA256 Credential=AKID/20261125/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=abc", true)
	f.Add("AWS4-HMAC-SHA256 Credential= AKID/x", true)
	f.Add("", false)
	f.Add(",,,  =,=", true)
	f.Fuzz(func(t *testing.T, header string, hasDate bool) {
		a, err := parseAuthorization(header, hasDate)
		if err != nil {
			if err.Code != apierr.IncompleteSignature {
				t.Fatalf("code %s", err.Code)
			}
			return
		}
		if !hasDate || a.algorithm != algorithm {
			t.Fatalf("accepted %q (hasDate %v)", header, hasDate)
		}
		for _, v := range []string{a.credential, a.signedHeaders, a.signature} {
			if !strings.Contains(header, "="+v) {
				t.Fatalf("value %q not in %q", v, header)
			}
		}
		if s, err := parseScope(a.credential); err == nil && strings.Join([]string{s.accessKeyID, s.date, s.region, s.service, s.terminator}, "/") != a.credential {
			t.Fatalf("scope %+v from %q", s, a.credential)
		}
	})
}

// FuzzVerify: arbitrary headers, query and body never panic, and every
// failure is an *apierr.Error.
func FuzzVerify(f *testing.F) {
	f.Add("AWS4-HMAC-SHA256 Credential="+permID+"/20261125/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date;x-amz-target, Signature=00",
		"20261125T120000Z", "", "DynamoDB_20120810.GetItem", "", "a=b", []byte(getItem))
	f.Add("AWS4-HMAC-SHA256 Credential=/////, SignedHeaders=;;;, Signature=", "20261125T1200", "Wed, 25 Nov 2026 12:00:00 GMT", "", tempToken, "X-Amz-Algorithm=x", []byte{})
	f.Fuzz(func(t *testing.T, auth, amzDate, date, target, token, query string, body []byte) {
		r, err := http.NewRequest(http.MethodPost, endpoint, nil)
		if err != nil {
			t.Fatal(err)
		}
		r.URL.RawQuery = query
		for name, v := range map[string]string{"Authorization": auth, "X-Amz-Date": amzDate, "Date": date, "X-Amz-Target": target, "X-Amz-Security-Token": token} {
			if v != "" {
				r.Header.Set(name, v)
			}
		}
		_, err = testVerifier().Verify(r, body)
		var e *apierr.Error
		if err != nil && !errors.As(err, &e) {
			t.Fatalf("%T %v", err, err)
		}
	})
}
