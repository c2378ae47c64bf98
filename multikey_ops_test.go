package sortkey_test

import (
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// TestMultiKeyGSIWriteCapacity: a write is charged to a multi-attribute
// GSI only when the item has every key attribute of it, as for any GSI.
func TestMultiKeyGSIWriteCapacity(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createOrders(t, c, true)
	charged := func(it map[string]types.AttributeValue) *types.Capacity {
		out, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("orders"), Item: it,
			ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
		if err != nil {
			t.Fatal(err)
		}
		if c, ok := out.ConsumedCapacity.GlobalSecondaryIndexes["byPlace"]; ok {
			return &c
		}
		return nil
	}
	if got := charged(order("o1", s("acme"), n("1"), n("2025"), bin(1), s("b"))); got == nil || aws.ToFloat64(got.CapacityUnits) != 1 {
		t.Fatalf("indexed item: byPlace charged %+v, want 1 unit", got)
	}
	if got := charged(order("o5", s("acme"), n("1"), n("2025"), nil, s("a"))); got != nil {
		t.Fatalf("item without tag: byPlace charged %+v, want nothing", got)
	}
	out, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("orders"), IndexName: aws.String("byPlace"),
		KeyConditionExpression: aws.String("tenant = :t AND area = :r"), ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
		ExpressionAttributeValues: map[string]types.AttributeValue{":t": s("acme"), ":r": n("1")}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := out.ConsumedCapacity.GlobalSecondaryIndexes["byPlace"]; out.Count != 1 || !ok {
		t.Fatalf("query: count %d, capacity %+v; want 1 item read through byPlace", out.Count, out.ConsumedCapacity)
	}
}

// TestMultiKeyGSIEntryExpiresWithItem: Time to Live deletes the item's
// multi-attribute index entry with it.
func TestMultiKeyGSIEntryExpiresWithItem(t *testing.T) {
	clock := newClock()
	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{InMemory: true, Now: clock.Now, TTLInterval: -1})
	c := srv.Client()
	createOrders(t, c, true)
	if _, err := c.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("orders"),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{Enabled: aws.Bool(true), AttributeName: aws.String("ttl")}}); err != nil {
		t.Fatal(err)
	}
	for id, ttl := range map[string]int64{"gone": -10, "kept": 100} {
		it := order(id, s("acme"), n("1"), n("2025"), bin(1), s(id))
		it["ttl"] = n(fmt.Sprint(clock.Now().Unix() + ttl))
		if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("orders"), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := srv.DB.SweepExpired(); err != nil || n != 1 {
		t.Fatalf("sweep: %d items, %v; want 1", n, err)
	}
	if got := placeIDs(t, c, "", nil); fmt.Sprint(got) != "[kept]" {
		t.Fatalf("index after expiry: %v, want [kept]", got)
	}
}

// TestPartiQLRefusesMultiKeyGSI: a statement on a multi-attribute GSI is
// refused with DynamoDB's text, while the table itself still answers.
func TestPartiQLRefusesMultiKeyGSI(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createOrders(t, c, true)
	loadOrders(t, c)
	_, err := c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{
		Statement: aws.String(`SELECT * FROM "orders"."byPlace" WHERE tenant = 'acme' AND area = 1`)})
	wantAPIError(t, err, "ValidationException", "PartiQL statements cannot be executed on tables with multi-attribute HASH keys or multi-attribute RANGE keys.")
	out, err := c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT * FROM "orders" WHERE id = 'o1'`)})
	if err != nil || len(out.Items) != 1 {
		t.Fatalf("the table's own statement: %v, %d items", err, len(out.Items))
	}
}
