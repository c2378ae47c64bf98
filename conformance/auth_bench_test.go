package conformance_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"

	"github.com/sortkeydb/sortkey"
)

// benchAuthFile lets the admin set the table up and alice, tagged t1, read
// her partition: the LeadingKeys policy the access-control cost is
// measured with.
const benchAuthFile = `{"account": "123456789012", "principals": [
 {"arn": "arn:aws:iam::123456789012:user/admin", "accessKeyId": "AKIDADMIN", "secretAccessKey": "admin-secret",
  "policies": [{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "dynamodb:*", "Resource": "*"}]}]},
 {"arn": "arn:aws:iam::123456789012:user/alice", "accessKeyId": "AKIDALICE", "secretAccessKey": "alice-secret",
  "tags": {"tenant": "t1"}, "policies": [` + tenantPolicy + `]}]}`

// BenchmarkGetItemAuth measures a signed GetItem through the handler, in
// process, with access control off and on: the difference is what SigV4
// verification, describing the request and evaluating the policy cost.
// Requests are signed once, before the timer: the server's cost only.
func BenchmarkGetItemAuth(b *testing.B) {
	for _, on := range []bool{false, true} {
		b.Run(fmt.Sprintf("on=%v", on), func(b *testing.B) {
			h := benchAuthHandler(b, on)
			reqs := signedGets(b, 256)
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for i := 0; pb.Next(); i++ {
					r := reqs[i%len(reqs)]
					rec := httptest.NewRecorder()
					h.ServeHTTP(rec, r.clone())
					if rec.Code != 200 {
						b.Fatal(rec.Body)
					}
				}
			})
		})
	}
}

func benchAuthHandler(b *testing.B, on bool) http.Handler {
	opts := &sortkey.Options{InMemory: true, Account: "123456789012", TTLInterval: -1}
	if on {
		opts.Auth = []byte(benchAuthFile)
	}
	db, err := sortkey.Open("", opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	h := db.Handler()
	send := func(op, body string) {
		r := signed(b, admin, op, body)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r.clone())
		if rec.Code != 200 {
			b.Fatal(rec.Body)
		}
	}
	send("CreateTable", `{"TableName":"Shared","BillingMode":"PAY_PER_REQUEST","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
	  "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}]}`)
	for i := range 256 {
		send("PutItem", fmt.Sprintf(`{"TableName":"Shared","Item":{"pk":{"S":"t1"},"sk":{"S":"%d"},"name":{"S":"Ada Lovelace"},"email":{"S":"ada@example.com"}}}`, i))
	}
	return h
}

func signedGets(b *testing.B, n int) []rawSigned {
	out := make([]rawSigned, n)
	for i := range out {
		out[i] = signed(b, alice, "GetItem", fmt.Sprintf(`{"TableName":"Shared","Key":{"pk":{"S":"t1"},"sk":{"S":"%d"}}}`, i))
	}
	return out
}

// rawSigned is a request signed as alice, replayable: the server checks no
// nonce, so one signature serves many sends within its 15 minutes.
type rawSigned struct {
	header http.Header
	body   []byte
}

func (r rawSigned) clone() *http.Request {
	req := httptest.NewRequest(http.MethodPost, "http://localhost/", bytes.NewReader(r.body))
	req.Header = r.header.Clone()
	return req
}

var (
	admin = aws.Credentials{AccessKeyID: "AKIDADMIN", SecretAccessKey: "admin-secret"}
	alice = aws.Credentials{AccessKeyID: "AKIDALICE", SecretAccessKey: "alice-secret"}
)

func signed(b *testing.B, creds aws.Credentials, op, body string) rawSigned {
	req, _ := http.NewRequest(http.MethodPost, "http://localhost/", nil)
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+op)
	sum := sha256.Sum256([]byte(body))
	if err := v4.NewSigner().SignHTTP(context.Background(), creds, req, hex.EncodeToString(sum[:]), "dynamodb", "us-east-1", time.Now()); err != nil {
		b.Fatal(err)
	}
	return rawSigned{header: req.Header, body: []byte(body)}
}
