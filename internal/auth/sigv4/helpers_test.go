package sigv4

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"

	"github.com/sortkeydb/sortkey/internal/apierr"
)

// The clock every table test runs at, and the keys it knows.
var signTime = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

const (
	permID     = "AKIDPERMANENT"
	permSecret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
	tempID     = "ASIATEMPORARY"
	tempSecret = "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY"
	tempToken  = "IQoJb3JpZ2luX2VjEXAMPLETOKEN+/="
	endpoint   = "http://dynamodb.us-east-1.amazonaws.com/"
	getItem    = `{"TableName":"T","Key":{"pk":{"S":"a"}}}`
)

func testVerifier() *Verifier {
	return &Verifier{
		Region:  "us-east-1",
		Service: "dynamodb",
		Lookup:  lookupTestKeys,
		Now:     func() time.Time { return signTime },
	}
}

func lookupTestKeys(id string) (Key, bool) {
	switch id {
	case permID:
		return Key{Secret: permSecret}, true
	case tempID:
		return Key{Secret: tempSecret, SessionToken: tempToken}, true
	}
	return Key{}, false
}

// signing says how the reference signer signs a request.
type signing struct {
	creds   aws.Credentials
	region  string
	service string
	when    time.Time
}

func defaultSigning() signing {
	return signing{aws.Credentials{AccessKeyID: permID, SecretAccessKey: permSecret}, "us-east-1", "dynamodb", signTime}
}

// newRequest is a DynamoDB GetItem request as an SDK would build it.
func newRequest(t testing.TB, url string, body []byte) *http.Request {
	t.Helper()
	r, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	r.Header.Set("Content-Type", "application/x-amz-json-1.0")
	r.Header.Set("X-Amz-Target", "DynamoDB_20120810.GetItem")
	return r
}

// sign signs r with the AWS SDK for Go v2's signer, the reference.
func sign(t testing.TB, r *http.Request, body []byte, s signing) {
	t.Helper()
	err := v4.NewSigner().SignHTTP(context.Background(), s.creds, r, sha256Hex(body), s.service, s.region, s.when)
	if err != nil {
		t.Fatal(err)
	}
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// wantError checks err is the *apierr.Error a DynamoDB client would see.
func wantError(t *testing.T, err error, code apierr.Code, message string) {
	t.Helper()
	var e *apierr.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v (%T), want *apierr.Error %s", err, err, code)
	}
	if e.Code != code || e.Message != message {
		t.Errorf("got %s %q\nwant %s %q", e.Code, e.Message, code, message)
	}
}
