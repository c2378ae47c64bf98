package sortkeytest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/internal/storage"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// TestNetworkClientWithoutRetriesReadsLargeAnswers sends batches of 25 KiB
// that are answered with 20 KiB of unprocessed items, over TCP with
// retries off, as a capacity test does. With the SDK's default HTTP
// client about one in a hundred failed here with "use of closed network
// connection": the server answers before net/http has finished with the
// request body, which the SDK then closes (see NetworkAWSConfig).
func TestNetworkClientWithoutRetriesReadsLargeAnswers(t *testing.T) {
	if storage.UnderTestStore() {
		// The race is the HTTP client's, whatever the store; 300 fresh
		// servers (which lose it more often than one reused) would be 300
		// PostgreSQL schemas, a minute and as many connections.
		t.Skip("the store plays no part: runs on the in-memory Pebble store only")
	}
	ctx := context.Background()
	for i := range 300 {
		srv := sortkeytest.NewWithOptions(t, &sortkey.Options{EnforceCapacity: true})
		c := dynamodb.NewFromConfig(srv.NetworkAWSConfig(), func(o *dynamodb.Options) { o.Retryer = aws.NopRetryer{} })
		if _, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
			TableName:             aws.String("big"),
			AttributeDefinitions:  []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
			KeySchema:             []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
			ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(5)},
		}); err != nil {
			t.Fatal(err)
		}
		var batch []types.WriteRequest
		for k := range 25 {
			batch = append(batch, types.WriteRequest{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{
				"pk":  &types.AttributeValueMemberS{Value: fmt.Sprint(k)},
				"pad": &types.AttributeValueMemberS{Value: strings.Repeat("x", 1000)},
			}}})
		}
		out, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"big": batch}})
		if err != nil {
			t.Fatalf("batch %d: %v", i, err)
		}
		if len(out.UnprocessedItems["big"]) == 0 {
			t.Fatalf("batch %d: 25 writes within 5 units per second", i)
		}
	}
}
