package sigv4

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

// TestAcceptsReferenceSigner: whatever the SDK's signer produces, Verify
// accepts and attributes to the signing key.
func TestAcceptsReferenceSigner(t *testing.T) {
	temp := defaultSigning()
	temp.creds = aws.Credentials{AccessKeyID: tempID, SecretAccessKey: tempSecret, SessionToken: tempToken}
	gz := gzipped(t, getItem)
	cases := []struct {
		name    string
		url     string
		body    []byte
		signing signing
		prepare func(r *http.Request)
	}{
		{"plain", endpoint, []byte(getItem), defaultSigning(), nil},
		{"session token", endpoint, []byte(getItem), temp, nil},
		{"empty body", endpoint, nil, defaultSigning(), nil},
		{"gzip body", endpoint, gz, defaultSigning(), func(r *http.Request) { r.Header.Set("Content-Encoding", "gzip") }},
		{"extra signed headers", endpoint, []byte(getItem), defaultSigning(), func(r *http.Request) {
			r.Header.Set("X-Amz-Meta-Team", "storage")
			r.Header.Set("Accept-Encoding", "identity")
		}},
		{"runs of spaces", endpoint, []byte(getItem), defaultSigning(), func(r *http.Request) {
			r.Header.Set("X-Note", "  a   b    c  ")
		}},
		{"multiple values", endpoint, []byte(getItem), defaultSigning(), func(r *http.Request) {
			r.Header.Add("X-Multi", "one")
			r.Header.Add("X-Multi", " two   three ")
		}},
		{"query string", endpoint + "?b=2&a=x%20y&a=1&c=%7E~", []byte(getItem), defaultSigning(), nil},
		{"port in host", "http://localhost:8000/", []byte(getItem), defaultSigning(), nil},
		{"payload hash header", endpoint, []byte(getItem), defaultSigning(), func(r *http.Request) {
			r.Header.Set("X-Amz-Content-Sha256", sha256Hex([]byte(getItem)))
		}},
		{"edge of clock window", endpoint, []byte(getItem), signingAt(signTime.Add(-15 * time.Minute)), nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRequest(t, c.url, c.body)
			if c.prepare != nil {
				c.prepare(r)
			}
			sign(t, r, c.body, c.signing)
			id, err := testVerifier().Verify(r, c.body)
			if err != nil {
				t.Fatalf("Verify: %v\nAuthorization: %s", err, r.Header.Get("Authorization"))
			}
			if id != c.signing.creds.AccessKeyID {
				t.Errorf("access key = %q, want %q", id, c.signing.creds.AccessKeyID)
			}
		})
	}
}

func signingAt(when time.Time) signing {
	s := defaultSigning()
	s.when = when
	return s
}

func gzipped(t *testing.T, s string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if _, err := w.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestAWSDocumentationExample verifies the worked example of AWS's SigV4
// documentation (IAM ListUsers, 2015-08-30), signature published there.
func TestAWSDocumentationExample(t *testing.T) {
	r, err := http.NewRequest(http.MethodGet, "https://iam.amazonaws.com/?Action=ListUsers&Version=2010-05-08", nil)
	if err != nil {
		t.Fatal(err)
	}
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
	r.Header.Set("X-Amz-Date", "20150830T123600Z")
	r.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, "+
		"SignedHeaders=content-type;host;x-amz-date, Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7")
	v := &Verifier{
		Region:  "us-east-1",
		Service: "iam",
		Lookup: func(id string) (Key, bool) {
			return Key{Secret: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"}, id == "AKIDEXAMPLE"
		},
		Now: func() time.Time { return time.Date(2015, 8, 30, 12, 40, 0, 0, time.UTC) },
	}
	if id, err := v.Verify(r, nil); err != nil || id != "AKIDEXAMPLE" {
		t.Fatalf("Verify = %q, %v", id, err)
	}
}

// TestDateHeaderFallback: without X-Amz-Date the HTTP Date header dates the
// request, in ISO 8601 basic form in the string to sign. The SDK always sets
// X-Amz-Date, so this test signs by hand, spelling out the canonical request.
func TestDateHeaderFallback(t *testing.T) {
	r := newRequest(t, endpoint, []byte(getItem))
	r.Header.Set("Date", "Wed, 25 Nov 2026 12:00:00 GMT")
	canonical := "POST\n/\n\n" +
		"date:Wed, 25 Nov 2026 12:00:00 GMT\nhost:dynamodb.us-east-1.amazonaws.com\nx-amz-target:DynamoDB_20120810.GetItem\n\n" +
		"date;host;x-amz-target\n" + sha256Hex([]byte(getItem))
	scope := "20261125/us-east-1/dynamodb/aws4_request"
	toSign := "AWS4-HMAC-SHA256\n20261125T120000Z\n" + scope + "\n" + sha256Hex([]byte(canonical))
	key := []byte("AWS4" + permSecret)
	for _, part := range strings.Split(scope, "/") {
		key = hmacOf(key, part)
	}
	r.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential="+permID+"/"+scope+
		", SignedHeaders=date;host;x-amz-target, Signature="+hex.EncodeToString(hmacOf(key, toSign)))
	if _, err := testVerifier().Verify(r, []byte(getItem)); err != nil {
		t.Fatal(err)
	}
}

func hmacOf(key []byte, data string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(data))
	return h.Sum(nil)
}

// TestPresigned: a request presigned by the SDK verifies; one past its
// X-Amz-Expires does not.
func TestPresigned(t *testing.T) {
	body := []byte(getItem)
	// X-Amz-Expires is part of what is signed, so it is in the URL before signing.
	r := newRequest(t, endpoint+"?X-Amz-Expires=300", body)
	u, _, err := v4.NewSigner().PresignHTTP(context.Background(), defaultSigning().creds, r, sha256Hex(body), "dynamodb", "us-east-1", signTime)
	if err != nil {
		t.Fatal(err)
	}
	p := newRequest(t, u, body)
	if id, err := testVerifier().Verify(p, body); err != nil || id != permID {
		t.Fatalf("Verify = %q, %v", id, err)
	}
	v := testVerifier()
	v.Now = func() time.Time { return signTime.Add(6 * time.Minute) }
	_, err = v.Verify(p, body)
	wantError(t, err, "InvalidSignatureException",
		"Signature expired: 20261125T120000Z is now earlier than 20261125T120100Z (20261125T120600Z - 300 sec.)")
}
