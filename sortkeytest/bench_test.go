package sortkeytest

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// benchGetItem measures a GetItem through the SDK, the unit of a test
// suite's cost, over the in-process transport or the TCP listener.
func benchGetItem(b *testing.B, network bool) {
	srv := New(b)
	cfg := srv.AWSConfig()
	if network {
		cfg = srv.NetworkAWSConfig()
	}
	c := dynamodb.NewFromConfig(cfg)
	ctx := context.Background()
	key := oneItem(b, c)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: key}); err != nil {
			b.Fatal(err)
		}
	}
}

// oneItem creates table tbl holding one item, and returns its key.
func oneItem(b *testing.B, c *dynamodb.Client) map[string]types.AttributeValue {
	ctx := context.Background()
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("tbl"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: "S"}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}}})
	if err != nil {
		b.Fatal(err)
	}
	key := map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "k"}}
	if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: key}); err != nil {
		b.Fatal(err)
	}
	return key
}

func BenchmarkSDKGetItemInProcess(b *testing.B) { benchGetItem(b, false) }
func BenchmarkSDKGetItemNetwork(b *testing.B)   { benchGetItem(b, true) }

// BenchmarkTransportGetItem is the in-process transport and the server
// without the SDK: a prebuilt GetItem request handed to the transport and
// its answer read, as a client with its own request encoding would.
func BenchmarkTransportGetItem(b *testing.B) {
	srv := New(b)
	ctx := context.Background()
	oneItem(b, srv.Client())
	rt := srv.AWSConfig().HTTPClient.(*http.Client).Transport
	body := []byte(`{"TableName":"tbl","Key":{"pk":{"S":"k"}}}`)
	b.ReportAllocs()
	for b.Loop() {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810.GetItem")
		resp, err := rt.RoundTrip(req)
		if err != nil {
			b.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !bytes.Contains(got, []byte(`"k"`)) {
			b.Fatalf("%d %s", resp.StatusCode, got)
		}
	}
}
