package console_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// scriptValue is an item value that must show as text, never run.
const scriptValue = "<script>alert(1)</script>"

// newServer is a sortkey with the console on and a Market-like table
// loaded through the SDK: users with their orders in one item collection,
// a sparse GSI1 over orders only, and a GSI on two partition attributes.
func newServer(t testing.TB) (*sortkeytest.Server, *dynamodb.Client) {
	t.Helper()
	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{Console: true})
	c := dynamodb.NewFromConfig(srv.AWSConfig())
	createMarket(t, c)
	putMarket(t, c)
	return srv, c
}

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func n(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }

func key(name string, kt types.KeyType) types.KeySchemaElement {
	return types.KeySchemaElement{AttributeName: aws.String(name), KeyType: kt}
}

func createMarket(t testing.TB, c *dynamodb.Client) {
	t.Helper()
	defs := []types.AttributeDefinition{}
	for _, a := range []string{"PK", "SK", "GSI1PK", "GSI1SK", "tenant", "region"} {
		defs = append(defs, types.AttributeDefinition{AttributeName: aws.String(a), AttributeType: types.ScalarAttributeTypeS})
	}
	all := &types.Projection{ProjectionType: types.ProjectionTypeAll}
	_, err := c.CreateTable(context.Background(), &dynamodb.CreateTableInput{
		TableName: aws.String("Market"), BillingMode: types.BillingModePayPerRequest, AttributeDefinitions: defs,
		KeySchema: []types.KeySchemaElement{key("PK", types.KeyTypeHash), key("SK", types.KeyTypeRange)},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			{IndexName: aws.String("GSI1"), Projection: all,
				KeySchema: []types.KeySchemaElement{key("GSI1PK", types.KeyTypeHash), key("GSI1SK", types.KeyTypeRange)}},
			{IndexName: aws.String("ByPlace"), Projection: all,
				KeySchema: []types.KeySchemaElement{key("tenant", types.KeyTypeHash), key("region", types.KeyTypeHash)}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
}

// marketItems are three users, each with a profile and orders; orders
// carry GSI1 keys (status then date), profiles do not.
func marketItems() []map[string]types.AttributeValue {
	var items []map[string]types.AttributeValue
	for u := 1; u <= 3; u++ {
		pk := fmt.Sprintf("USER#u%d", u)
		items = append(items, map[string]types.AttributeValue{"PK": s(pk), "SK": s("PROFILE"),
			"name": s(fmt.Sprintf("User %d", u)), "tenant": s("acme"), "region": s(fmt.Sprintf("eu-%d", u%2)),
			"tags": &types.AttributeValueMemberSS{Value: []string{"gold", "vip"}}})
		for o := 1; o <= 2; o++ {
			items = append(items, map[string]types.AttributeValue{"PK": s(pk), "SK": s(fmt.Sprintf("ORDER#2024-0%d", o)),
				"GSI1PK": s(fmt.Sprintf("STATUS#%s", []string{"", "OPEN", "SHIPPED"}[o])), "GSI1SK": s(fmt.Sprintf("2024-0%d#u%d", o, u)),
				"total": n(fmt.Sprintf("%d.50", u*10+o)),
				"lines": &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberM{
					Value: map[string]types.AttributeValue{"sku": s("SKU-1"), "qty": n("2")}}}}})
		}
	}
	items[0]["note"] = s(scriptValue)
	return items
}

func putMarket(t testing.TB, c *dynamodb.Client) {
	t.Helper()
	for _, it := range marketItems() {
		if _, err := c.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String("Market"), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
}

// loadItems writes count items into table Big, 25 per BatchWriteItem,
// ten items in each partition.
func loadItems(t testing.TB, c *dynamodb.Client, count int) {
	t.Helper()
	ctx := context.Background()
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: aws.String("Big"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("SK"), AttributeType: types.ScalarAttributeTypeN}},
		KeySchema: []types.KeySchemaElement{key("PK", types.KeyTypeHash), key("SK", types.KeyTypeRange)},
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < count; i += 25 {
		var reqs []types.WriteRequest
		for j := i; j < i+25 && j < count; j++ {
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{
				"PK": s(fmt.Sprintf("P%05d", j/10)), "SK": n(fmt.Sprint(j % 10)), "v": s("value")}}})
		}
		out, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"Big": reqs}})
		if err != nil || len(out.UnprocessedItems) > 0 {
			t.Fatalf("BatchWriteItem: %v, %d unprocessed", err, len(out.UnprocessedItems))
		}
	}
}
