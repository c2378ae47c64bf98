package sortkeytest

import (
	"context"
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
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: key}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSDKGetItemInProcess(b *testing.B) { benchGetItem(b, false) }
func BenchmarkSDKGetItemNetwork(b *testing.B)   { benchGetItem(b, true) }
