package sortkeytest_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// A test on a virtual clock moves time instead of waiting for it.
func ExampleServer_Advance() {
	var t *testing.T // your test's *testing.T
	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{Clock: sortkey.NewVirtualClock(time.Time{})})
	// ... put an item whose ttl is an hour away ...
	srv.Advance(61 * time.Minute) // when it returns, the item is deleted
}

func TestAdvanceExpiresThroughTheSDK(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{Clock: sortkey.NewVirtualClock(start)})
	c := dynamodb.NewFromConfig(srv.NetworkAWSConfig())
	_, err := c.CreateTable(context.Background(), &dynamodb.CreateTableInput{TableName: aws.String("tbl"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: "S"}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}}})
	if err == nil {
		_, err = c.UpdateTimeToLive(context.Background(), &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("tbl"),
			TimeToLiveSpecification: &types.TimeToLiveSpecification{Enabled: aws.Bool(true), AttributeName: aws.String("exp")}})
	}
	if err == nil {
		_, err = c.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: "k"}, "exp": &types.AttributeValueMemberN{Value: fmt.Sprint(start.Add(time.Hour).Unix())}}})
	}
	if err != nil {
		t.Fatal(err)
	}
	if now := srv.Advance(61 * time.Minute); !now.Equal(srv.Now()) || !now.Equal(start.Add(61*time.Minute)) {
		t.Fatalf("Advance returned %v, Now %v", now, srv.Now())
	}
	out, err := c.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String("tbl"),
		Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "k"}}})
	if err != nil || out.Item != nil {
		t.Fatalf("after Advance past its ttl the item is %v (%v)", out.Item, err)
	}
	if got := srv.SetTime(start.Add(48 * time.Hour)); !got.Equal(start.Add(48 * time.Hour)) {
		t.Fatalf("SetTime returned %v", got)
	}
}
