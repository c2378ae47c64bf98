package conformance_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// The texts DynamoDB throttles with (see internal/throttle).
const (
	msgTableThrottled = "The level of configured provisioned throughput for the table was exceeded. " +
		"Consider increasing your provisioning level with the UpdateTable API."
	msgIndexThrottled = "The level of configured provisioned throughput for one or more global secondary indexes of the table was exceeded. " +
		"Consider increasing your provisioning level for the under-provisioned global secondary indexes with the UpdateTable API"
)

// enforced is a server enforcing capacity (or not) on a clock the test
// moves, and a client over real HTTP that never retries, so that every
// throttle reaches the test.
func enforced(t *testing.T, enforce bool) (*dynamodb.Client, *testClock) {
	t.Helper()
	clock := newClock()
	srv := sortkeytest.NewWithOptions(t, &sortkey.Options{Now: clock.Now, EnforceCapacity: enforce, TTLInterval: -1})
	c := dynamodb.NewFromConfig(srv.NetworkAWSConfig(), func(o *dynamodb.Options) { o.Retryer = aws.NopRetryer{} })
	return c, clock
}

// provisionedTable creates table name with a string key pk at rcu/wcu,
// and a GSI on gk at gsiWCU write units when gsiWCU > 0.
func provisionedTable(t *testing.T, c *dynamodb.Client, name string, rcu, wcu, gsiWCU int64) {
	t.Helper()
	in := &dynamodb.CreateTableInput{
		TableName:             aws.String(name),
		AttributeDefinitions:  []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:             []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(rcu), WriteCapacityUnits: aws.Int64(wcu)},
	}
	if gsiWCU > 0 {
		in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String("gk"), AttributeType: types.ScalarAttributeTypeS})
		in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{{
			IndexName:             aws.String("byGK"),
			KeySchema:             []types.KeySchemaElement{{AttributeName: aws.String("gk"), KeyType: types.KeyTypeHash}},
			Projection:            &types.Projection{ProjectionType: types.ProjectionTypeAll},
			ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(gsiWCU)},
		}}
	}
	if _, err := c.CreateTable(context.Background(), in); err != nil {
		t.Fatal(err)
	}
}

// kbItem is an item of just under 1 KB: one write unit.
func kbItem(key string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		"pk":  &types.AttributeValueMemberS{Value: key},
		"pad": &types.AttributeValueMemberS{Value: strings.Repeat("x", 1000-len(key))},
	}
}

func putKB(c *dynamodb.Client, table, key string) error {
	_, err := c.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: kbItem(key)})
	return err
}

// putUntilThrottled writes 1 KB items under fresh keys until one is
// throttled, and returns how many were written and the refusal.
func putUntilThrottled(t *testing.T, c *dynamodb.Client, table string, next *int, limit int) (int, error) {
	t.Helper()
	for n := 0; n <= limit; n++ {
		*next++
		if err := putKB(c, table, fmt.Sprintf("item-%05d", *next)); err != nil {
			return n, err
		}
	}
	t.Fatalf("more than %d writes to %s passed", limit, table)
	return 0, nil
}

func TestCapacityThrottlesWritesPastProvisioned(t *testing.T) {
	c, clock := enforced(t, true)
	provisionedTable(t, c, "orders", 5, 5, 0)
	next := 0
	n, err := putUntilThrottled(t, c, "orders", &next, 100)
	if n != 5 {
		t.Fatalf("a new 5 WCU table took %d writes, want 5", n)
	}
	wantAPIError(t, err, "ProvisionedThroughputExceededException", msgTableThrottled)
	var pte *types.ProvisionedThroughputExceededException
	if !errors.As(err, &pte) {
		t.Fatalf("the SDK did not see a ProvisionedThroughputExceededException: %T", err)
	}
	wantThrottlingReason(t, pte.ThrottlingReasons, "TableWriteProvisionedThroughputExceeded", "arn:aws:dynamodb:us-east-1:000000000000:table/orders")
	out, err := c.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String("orders"),
		Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: fmt.Sprintf("item-%05d", next)}}})
	if err != nil || out.Item != nil {
		t.Fatalf("the throttled write left %v (err %v)", out.Item, err)
	}

	clock.Advance(time.Second)
	if n, _ := putUntilThrottled(t, c, "orders", &next, 100); n != 5 {
		t.Fatalf("one second later %d writes passed, want 5", n)
	}
}

func TestCapacityBurstHoldsFiveMinutes(t *testing.T) {
	c, clock := enforced(t, true)
	provisionedTable(t, c, "orders", 5, 5, 0)
	next := 0
	putUntilThrottled(t, c, "orders", &next, 100)
	clock.Advance(time.Hour)
	if n, _ := putUntilThrottled(t, c, "orders", &next, 5000); n != 300*5 {
		t.Fatalf("after an idle hour %d writes passed, want 300 s of 5 WCU", n)
	}
}

func TestCapacityGSIThrottlesTableWrites(t *testing.T) {
	c, _ := enforced(t, true)
	provisionedTable(t, c, "users", 100, 100, 1)
	ctx := context.Background()
	item := func(k string) map[string]types.AttributeValue {
		return map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: k}, "gk": &types.AttributeValueMemberS{Value: "g-" + k}}
	}
	if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("users"), Item: item("a")}); err != nil {
		t.Fatal(err)
	}
	_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("users"), Item: item("b")})
	wantAPIError(t, err, "ProvisionedThroughputExceededException", msgIndexThrottled)
	var pte *types.ProvisionedThroughputExceededException
	if errors.As(err, &pte) {
		wantThrottlingReason(t, pte.ThrottlingReasons, "IndexWriteProvisionedThroughputExceeded", "arn:aws:dynamodb:us-east-1:000000000000:table/users/index/byGK")
	}
}

// wantThrottlingReason checks an error's one ThrottlingReason.
func wantThrottlingReason(t *testing.T, got []types.ThrottlingReason, reason, resource string) {
	t.Helper()
	if len(got) != 1 || aws.ToString(got[0].Reason) != reason || aws.ToString(got[0].Resource) != resource {
		var s []string
		for _, r := range got {
			s = append(s, aws.ToString(r.Reason)+" "+aws.ToString(r.Resource))
		}
		t.Fatalf("ThrottlingReasons %v, want [%s %s]", s, reason, resource)
	}
}

func TestCapacityHotKeyMeetsThePartitionCeiling(t *testing.T) {
	c, clock := enforced(t, true)
	provisionedTable(t, c, "orders", 40000, 40000, 0)
	writes := 0
	var err error
	for ; writes <= 1000; writes++ {
		if err = putKB(c, "orders", "hot"); err != nil {
			break
		}
	}
	if writes != 1000 {
		t.Fatalf("%d 1 KB writes to one key in a second, want the partition's 1,000", writes)
	}
	var pte *types.ProvisionedThroughputExceededException
	if !errors.As(err, &pte) {
		t.Fatalf("want ProvisionedThroughputExceededException, got %v", err)
	}
	wantThrottlingReason(t, pte.ThrottlingReasons, "TableWriteKeyRangeThroughputExceeded", "arn:aws:dynamodb:us-east-1:000000000000:table/orders")
	if err := putKB(c, "orders", "cold"); err != nil {
		t.Fatalf("another key throttled with the hot one: %v", err)
	}
	clock.Advance(time.Second)
	if err := putKB(c, "orders", "hot"); err != nil {
		t.Fatalf("the hot key a second later: %v", err)
	}
}

func TestCapacityThrottlesReads(t *testing.T) {
	c, clock := enforced(t, true)
	provisionedTable(t, c, "orders", 2, 5, 0)
	ctx := context.Background()
	if err := putKB(c, "orders", "a"); err != nil {
		t.Fatal(err)
	}
	get := func(consistent bool) error {
		_, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("orders"), ConsistentRead: aws.Bool(consistent),
			Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "a"}}})
		return err
	}
	// 2 RCU: two strongly consistent reads, or four eventually consistent.
	for i, consistent := range []bool{true, true} {
		if err := get(consistent); err != nil {
			t.Fatalf("read %d: %v", i, err)
		}
	}
	wantAPIError(t, get(true), "ProvisionedThroughputExceededException", msgTableThrottled)
	clock.Advance(time.Second)
	for i := range 4 {
		if err := get(false); err != nil {
			t.Fatalf("eventually consistent read %d: %v", i, err)
		}
	}
	_, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("orders"), KeyConditionExpression: aws.String("pk = :k"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":k": &types.AttributeValueMemberS{Value: "a"}}})
	wantAPIError(t, err, "ProvisionedThroughputExceededException", msgTableThrottled)
}

// batchOf is a BatchWriteItem's put requests for keys from..to-1.
func batchOf(from, to int) []types.WriteRequest {
	var reqs []types.WriteRequest
	for i := from; i < to; i++ {
		reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: kbItem(fmt.Sprintf("item-%05d", i))}})
	}
	return reqs
}

func TestCapacityBatchWriteReturnsUnprocessedItems(t *testing.T) {
	c, clock := enforced(t, true)
	provisionedTable(t, c, "orders", 100, 5, 0)
	ctx := context.Background()
	pending := map[string][]types.WriteRequest{"orders": batchOf(0, 25)}
	written, rounds := 0, 0
	for len(pending) > 0 {
		out, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: pending})
		if err != nil {
			t.Fatalf("round %d: %v", rounds, err)
		}
		sent, left := len(pending["orders"]), len(out.UnprocessedItems["orders"])
		if sent-left != 5 && left != 0 {
			t.Fatalf("round %d wrote %d of %d, want the table's 5 WCU", rounds, sent-left, sent)
		}
		written += sent - left
		pending = out.UnprocessedItems
		rounds++
		clock.Advance(time.Second)
	}
	if written != 25 || rounds != 5 {
		t.Fatalf("%d items written in %d rounds, want 25 in 5", written, rounds)
	}
	scan, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("orders")})
	if err != nil || scan.Count != 25 {
		t.Fatalf("scan: %d items (err %v), want 25", scan.Count, err)
	}
}

func TestCapacityBatchWhollyThrottledFails(t *testing.T) {
	c, _ := enforced(t, true)
	provisionedTable(t, c, "orders", 100, 5, 0)
	ctx := context.Background()
	if _, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"orders": batchOf(0, 5)}}); err != nil {
		t.Fatal(err)
	}
	_, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"orders": batchOf(5, 10)}})
	wantAPIError(t, err, "ProvisionedThroughputExceededException", msgTableThrottled)
}

func TestCapacityBatchGetReturnsUnprocessedKeys(t *testing.T) {
	c, clock := enforced(t, true)
	provisionedTable(t, c, "orders", 2, 100, 0)
	ctx := context.Background()
	var keys []map[string]types.AttributeValue
	for i := range 6 {
		k := fmt.Sprintf("item-%05d", i)
		if err := putKB(c, "orders", k); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: k}})
	}
	pending := map[string]types.KeysAndAttributes{"orders": {Keys: keys, ConsistentRead: aws.Bool(true)}}
	got := 0
	for round := 0; len(pending) > 0; round++ {
		out, err := c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: pending})
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if n := len(out.Responses["orders"]); n != 2 {
			t.Fatalf("round %d read %d items, want the table's 2 RCU", round, n)
		}
		got += len(out.Responses["orders"])
		pending = out.UnprocessedKeys
		clock.Advance(time.Second)
	}
	if got != 6 {
		t.Fatalf("read %d items, want 6", got)
	}
}

func TestCapacityTransactionCancelledWhole(t *testing.T) {
	c, _ := enforced(t, true)
	provisionedTable(t, c, "orders", 100, 100, 0)
	provisionedTable(t, c, "audit", 100, 1, 0)
	ctx := context.Background()
	if err := putKB(c, "audit", "first"); err != nil {
		t.Fatal(err)
	}
	_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String("orders"), Item: kbItem("o1")}},
		{Put: &types.Put{TableName: aws.String("audit"), Item: kbItem("a1")}},
	}})
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) {
		t.Fatalf("want TransactionCanceledException, got %v", err)
	}
	codes := []string{aws.ToString(tce.CancellationReasons[0].Code), aws.ToString(tce.CancellationReasons[1].Code)}
	if codes[0] != "None" || codes[1] != "ProvisionedThroughputExceeded" {
		t.Fatalf("cancellation reasons %v", codes)
	}
	out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("orders"),
		Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "o1"}}})
	if err != nil || out.Item != nil {
		t.Fatalf("the cancelled transaction wrote %v (err %v)", out.Item, err)
	}
}

func TestCapacityOnDemandMaximum(t *testing.T) {
	c, clock := enforced(t, true)
	_, err := c.CreateTable(context.Background(), &dynamodb.CreateTableInput{
		TableName:            aws.String("events"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
		OnDemandThroughput:   &types.OnDemandThroughput{MaxWriteRequestUnits: aws.Int64(3)},
	})
	if err != nil {
		t.Fatal(err)
	}
	next := 0
	n, err := putUntilThrottled(t, c, "events", &next, 100)
	if n != 3 {
		t.Fatalf("%d writes passed a maximum of 3", n)
	}
	var te *types.ThrottlingException
	if !errors.As(err, &te) {
		t.Fatalf("want ThrottlingException, got %v", err)
	}
	wantThrottlingReason(t, te.ThrottlingReasons, "TableWriteMaxOnDemandThroughputExceeded", "arn:aws:dynamodb:us-east-1:000000000000:table/events")
	clock.Advance(time.Minute) // an on-demand maximum keeps no burst
	if n, _ := putUntilThrottled(t, c, "events", &next, 100); n != 3 {
		t.Fatalf("after a minute %d writes passed, want 3", n)
	}
}

func TestCapacityOnDemandWithoutMaximumNeverThrottlesTheTable(t *testing.T) {
	c, _ := enforced(t, true)
	_, err := c.CreateTable(context.Background(), &dynamodb.CreateTableInput{
		TableName:            aws.String("events"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		if err := putKB(c, "events", fmt.Sprintf("item-%05d", i)); err != nil {
			t.Fatalf("write %d: %v", i, err)
		}
	}
}

func TestCapacityNotEnforcedWithoutTheOption(t *testing.T) {
	c, _ := enforced(t, false)
	provisionedTable(t, c, "orders", 1, 1, 0)
	for i := range 50 {
		if err := putKB(c, "orders", fmt.Sprintf("item-%05d", i)); err != nil {
			t.Fatalf("write %d: %v", i, err)
		}
	}
}

func TestCapacityGSIReadsChargeTheIndex(t *testing.T) {
	c, clock := enforced(t, true)
	provisionedTable(t, c, "users", 100, 100, 5) // the index reads at 1 RCU
	ctx := context.Background()
	if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("users"), Item: map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: "a"}, "gk": &types.AttributeValueMemberS{Value: "g"}}}); err != nil {
		t.Fatal(err)
	}
	query := func() error {
		_, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("users"), IndexName: aws.String("byGK"),
			KeyConditionExpression:    aws.String("gk = :g"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":g": &types.AttributeValueMemberS{Value: "g"}}})
		return err
	}
	// A GSI read is eventually consistent: 0.5 of the index's 1 RCU each.
	for i := range 2 {
		if err := query(); err != nil {
			t.Fatalf("query %d: %v", i, err)
		}
	}
	err := query()
	wantAPIError(t, err, "ProvisionedThroughputExceededException", msgIndexThrottled)
	var pte *types.ProvisionedThroughputExceededException
	if errors.As(err, &pte) {
		wantThrottlingReason(t, pte.ThrottlingReasons, "IndexReadProvisionedThroughputExceeded", "arn:aws:dynamodb:us-east-1:000000000000:table/users/index/byGK")
	}
	if _, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("users"),
		Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "a"}}}); err != nil {
		t.Fatalf("the table's reads were throttled with its index's: %v", err)
	}
	clock.Advance(time.Second)
	if err := query(); err != nil {
		t.Fatalf("a second later: %v", err)
	}
}

func TestCapacityFollowsUpdateTable(t *testing.T) {
	c, clock := enforced(t, true)
	provisionedTable(t, c, "orders", 5, 1, 0)
	next := 0
	putUntilThrottled(t, c, "orders", &next, 10)
	if _, err := c.UpdateTable(context.Background(), &dynamodb.UpdateTableInput{TableName: aws.String("orders"),
		ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(5), WriteCapacityUnits: aws.Int64(10)}}); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Second)
	if n, _ := putUntilThrottled(t, c, "orders", &next, 100); n != 10 {
		t.Fatalf("a second after raising to 10 WCU, %d writes passed", n)
	}
}
