package conformance_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// wireTap sits between the SDK and the server: it can rewrite or gzip a
// request body, and records the Content-Encoding of every response.
type wireTap struct {
	inner     aws.HTTPClient
	rewrite   func([]byte) []byte
	gzip      bool
	encodings []string
}

func (w *wireTap) Do(req *http.Request) (*http.Response, error) {
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, err
	}
	if w.rewrite != nil {
		body = w.rewrite(body)
	}
	if w.gzip {
		var zipped bytes.Buffer
		zw := gzip.NewWriter(&zipped)
		_, _ = zw.Write(body)
		_ = zw.Close()
		body = zipped.Bytes()
		req.Header.Set("Content-Encoding", "gzip")
	}
	req.Body, req.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	resp, err := w.inner.Do(req)
	if err == nil {
		w.encodings = append(w.encodings, resp.Header.Get("Content-Encoding"))
	}
	return resp, err
}

// tapped is a client for srv whose requests go through a new wireTap.
func tapped(srv *sortkeytest.Server, gzipResponses bool) (*dynamodb.Client, *wireTap) {
	cfg := srv.AWSConfig()
	tap := &wireTap{inner: cfg.HTTPClient}
	c := dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) {
		o.HTTPClient = tap
		o.EnableAcceptEncodingGzip = gzipResponses
	})
	return c, tap
}

// TestSDKGzipResponses: an SDK client that takes gzip gets large responses
// compressed, and its checks pass: X-Amz-Crc32 is over the compressed
// bytes, and the decompressed items are whole.
func TestSDKGzipResponses(t *testing.T) {
	srv := sortkeytest.New(t)
	createPKSK(t, srv.Client(), "gzt")
	c, tap := tapped(srv, true)
	ctx := context.Background()
	big := strings.Repeat("compressible ", 1<<12)
	for _, sk := range []string{"1", "2", "3"} {
		item := map[string]types.AttributeValue{"PK": s("p"), "SK": s(sk), "v": s(big)}
		if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("gzt"), Item: item}); err != nil {
			t.Fatal(err)
		}
	}
	got, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("gzt"), Key: map[string]types.AttributeValue{"PK": s("p"), "SK": s("1")}})
	if err != nil || got.Item["v"].(*types.AttributeValueMemberS).Value != big {
		t.Fatalf("GetItem: %v", err)
	}
	q, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("gzt"), KeyConditionExpression: aws.String("PK = :p"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":p": s("p")}})
	if err != nil || q.Count != 3 || q.Items[2]["v"].(*types.AttributeValueMemberS).Value != big {
		t.Fatalf("Query: %v", err)
	}
	if want := []string{"", "", "", "gzip", "gzip"}; strings.Join(tap.encodings, ",") != strings.Join(want, ",") {
		t.Fatalf("response encodings %q, want %q (small PutItem answers plain)", tap.encodings, want)
	}
}

// TestSDKGzipRequestBody: requests the SDK sends gzip-compressed, with
// Content-Encoding gzip, are served as the plain ones.
func TestSDKGzipRequestBody(t *testing.T) {
	srv := sortkeytest.New(t)
	createPKSK(t, srv.Client(), "gzt")
	c, tap := tapped(srv, false)
	tap.gzip = true
	ctx := context.Background()
	item := map[string]types.AttributeValue{"PK": s("p"), "SK": s("s"), "v": s("zipped")}
	if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("gzt"), Item: item}); err != nil {
		t.Fatal(err)
	}
	got, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("gzt"), Key: map[string]types.AttributeValue{"PK": s("p"), "SK": s("s")}})
	if err != nil || got.Item["v"].(*types.AttributeValueMemberS).Value != "zipped" {
		t.Fatalf("GetItem: %v %v", got, err)
	}
}

// TestSDKReadsSerializationExceptionMessage: a number sent where DynamoDB
// expects a string ({"N": 5}, as clients that do not quote numbers send
// it) is a SerializationException whose text the SDK reads from DynamoDB's
// capitalised Message key.
func TestSDKReadsSerializationExceptionMessage(t *testing.T) {
	srv := sortkeytest.New(t)
	createPKSK(t, srv.Client(), "ser")
	c, tap := tapped(srv, false)
	tap.rewrite = func(b []byte) []byte { return bytes.Replace(b, []byte(`{"N":"5"}`), []byte(`{"N":5}`), 1) }
	item := map[string]types.AttributeValue{"PK": s("p"), "SK": s("s"), "n": &types.AttributeValueMemberN{Value: "5"}}
	_, err := c.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String("ser"), Item: item})
	var apiErr smithy.APIError
	if !errors.As(err, &apiErr) || apiErr.ErrorCode() != "SerializationException" || apiErr.ErrorMessage() != "NUMBER_VALUE cannot be converted to String" {
		t.Fatalf("got %v", err)
	}
}
