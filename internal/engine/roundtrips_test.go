package engine

import (
	"fmt"
	"testing"

	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/storage"
)

// On the PostgreSQL store each request costs a known number of round
// trips to the database (docs/STORES.md lists them): a read is one
// statement, a write reads what it replaces and commits in one pipeline.
// A change that adds a round trip to a hot path fails here.
func TestRoundTripsPerRequest(t *testing.T) {
	if !storage.UnderTestStore() {
		t.Skip("round trips are the PostgreSQL store's: set " + storage.TestStoreEnv + " (.ci/run does)")
	}
	e := open(t, "")
	defer e.Close()
	must[protocol.CreateTableOutput](t)(call(t, e.CreateTable, `{"TableName":"trips","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}]}`))
	for i := range 10 {
		must[protocol.PutItemOutput](t)(call(t, e.PutItem, fmt.Sprintf(`{"TableName":"trips","Item":{"pk":{"S":"p"},"sk":{"N":"%d"}}}`, i)))
	}
	trips := func(op func()) int64 {
		before := e.Health().Postgres.RoundTrips
		op()
		return e.Health().Postgres.RoundTrips - before
	}
	for _, c := range []struct {
		name string
		want int64
		op   func()
	}{
		{"GetItem", 1, func() {
			must[protocol.GetItemOutput](t)(call(t, e.GetItem, `{"TableName":"trips","Key":{"pk":{"S":"p"},"sk":{"N":"1"}}}`))
		}},
		{"PutItem", 2, func() {
			must[protocol.PutItemOutput](t)(call(t, e.PutItem, `{"TableName":"trips","Item":{"pk":{"S":"p"},"sk":{"N":"1"},"a":{"S":"x"}}}`))
		}},
		{"UpdateItem", 2, func() {
			must[protocol.UpdateItemOutput](t)(call(t, e.UpdateItem, `{"TableName":"trips","Key":{"pk":{"S":"p"},"sk":{"N":"2"}},
				"UpdateExpression":"ADD n :one","ExpressionAttributeValues":{":one":{"N":"1"}}}`))
		}},
		{"Query", 1, func() {
			out := must[protocol.ReadOutput](t)(call(t, e.Query, `{"TableName":"trips","KeyConditionExpression":"pk = :p",
				"ExpressionAttributeValues":{":p":{"S":"p"}}}`))
			if out.Count != 10 {
				t.Fatalf("Query returned %d items, want 10", out.Count)
			}
		}},
		{"TransactWriteItems", 5, func() {
			must[protocol.TransactWriteItemsOutput](t)(call(t, e.TransactWriteItems, `{"TransactItems":[
				{"Put":{"TableName":"trips","Item":{"pk":{"S":"t"},"sk":{"N":"1"}}}},
				{"Put":{"TableName":"trips","Item":{"pk":{"S":"t"},"sk":{"N":"2"}}}},
				{"Update":{"TableName":"trips","Key":{"pk":{"S":"t"},"sk":{"N":"3"}},"UpdateExpression":"SET a = :a","ExpressionAttributeValues":{":a":{"S":"x"}}}},
				{"Delete":{"TableName":"trips","Key":{"pk":{"S":"p"},"sk":{"N":"9"}}}}]}`))
		}},
	} {
		if got := trips(c.op); got != c.want {
			t.Errorf("%s: %d round trips, want %d", c.name, got, c.want)
		}
	}
}
