package sigv4

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go"

	"github.com/sortkeydb/sortkey/internal/apierr"
)

// verifyingServer answers ListTables for requests that verify and writes
// the wire error DynamoDB would for those that do not.
func verifyingServer(t *testing.T, v *Verifier) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		if _, err := v.Verify(r, body); err != nil {
			e := apierr.Wrap(err)
			w.WriteHeader(e.Status())
			json.NewEncoder(w).Encode(map[string]string{"__type": e.Type(), e.MessageKey(): e.Message})
			return
		}
		io.WriteString(w, `{"TableNames":[]}`)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func sdkClient(url string, creds aws.Credentials) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region:           "us-east-1",
		BaseEndpoint:     aws.String(url),
		Credentials:      credentials.StaticCredentialsProvider{Value: creds},
		RetryMaxAttempts: 1,
	})
}

// TestSDKOverHTTP: the DynamoDB client's own requests, sent over real HTTP,
// verify at the server, and a wrong secret surfaces in the SDK as
// DynamoDB's InvalidSignatureException.
func TestSDKOverHTTP(t *testing.T) {
	v := testVerifier()
	v.Now = nil // the SDK signs with the real clock
	srv := verifyingServer(t, v)
	ctx := context.Background()
	for _, creds := range []aws.Credentials{
		{AccessKeyID: permID, SecretAccessKey: permSecret},
		{AccessKeyID: tempID, SecretAccessKey: tempSecret, SessionToken: tempToken},
	} {
		if _, err := sdkClient(srv.URL, creds).ListTables(ctx, &dynamodb.ListTablesInput{}); err != nil {
			t.Errorf("%s: %v", creds.AccessKeyID, err)
		}
	}
	_, err := sdkClient(srv.URL, aws.Credentials{AccessKeyID: permID, SecretAccessKey: "wrong"}).ListTables(ctx, &dynamodb.ListTablesInput{})
	var api smithy.APIError
	if !errors.As(err, &api) || api.ErrorCode() != "InvalidSignatureException" || api.ErrorMessage() != mismatchText {
		t.Errorf("wrong secret: %v", err)
	}
}
