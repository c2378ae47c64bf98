package regions_test

import (
	"errors"
	"strconv"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

const east2 = "us-east-2"

// strongTable makes "orders" of us-east-1 a global table with
// multi-region strong consistency over us-east-1, us-east-2, us-west-2.
func (w *world) strongTable() *types.TableDescription {
	w.t.Helper()
	out, err := w.strong(east, east2, west)
	if err != nil {
		w.t.Fatal(err)
	}
	return out.TableDescription
}

func (w *world) strong(from string, to ...string) (*dynamodb.UpdateTableOutput, error) {
	var ups []types.ReplicationGroupUpdate
	for _, r := range to {
		ups = append(ups, types.ReplicationGroupUpdate{Create: &types.CreateReplicationGroupMemberAction{RegionName: aws.String(r)}})
	}
	return w.db(from).UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("orders"),
		ReplicaUpdates: ups, MultiRegionConsistency: types.MultiRegionConsistencyStrong})
}

func TestStrongWriteIsReadEverywhereAtOnce(t *testing.T) {
	w := newWorld(t)
	w.table(east)
	d := w.strongTable()
	if d.MultiRegionConsistency != types.MultiRegionConsistencyStrong || len(d.Replicas) != 2 {
		t.Fatalf("the response: %+v", d)
	}
	w.put(west, "o1", map[string]string{"state": "paid"})
	// No clock move, no flush: acknowledged means in every replica.
	for _, r := range []string{east, east2, west} {
		if v := w.get(r, "o1", "state"); v != "paid" {
			t.Fatalf("%s read %q right after the write was acknowledged", r, v)
		}
	}
	if st, _ := w.DB.ReplicationStats(); st.Backlog != 0 {
		t.Fatalf("a strongly consistent write left %d changes to send later", st.Backlog)
	}
}

// TestStrongIncrementRace: writers in two regions increment one counter
// at once. Each increment either succeeds everywhere or fails with
// ReplicatedWriteConflictException, so the count is exact in every
// region.
func TestStrongIncrementRace(t *testing.T) {
	w := newWorld(t)
	w.table(east)
	w.strongTable()
	w.put(east, "counter", nil)
	var mu sync.Mutex
	ok, conflicts := 0, 0
	var wg sync.WaitGroup
	for i := range 8 {
		region := []string{east, west}[i%2]
		wg.Go(func() {
			for range 40 {
				err := w.increment(region)
				var rc *types.ReplicatedWriteConflictException
				mu.Lock()
				switch {
				case err == nil:
					ok++
				case errors.As(err, &rc):
					conflicts++
				default:
					t.Errorf("%s: %v", region, err)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	t.Logf("%d increments, %d conflicts", ok, conflicts)
	if conflicts == 0 {
		t.Fatal("320 concurrent increments from two regions met no ReplicatedWriteConflictException")
	}
	for _, r := range []string{east, east2, west} {
		if n := w.getN(r, "counter"); n != ok {
			t.Fatalf("%s counts %d, want the %d increments that succeeded (%d conflicts)", r, n, ok, conflicts)
		}
	}
}

func (w *world) increment(region string) error {
	// No SDK retries: a conflict is the answer under test.
	_, err := w.ClientIn(region, func(o *dynamodb.Options) { o.RetryMaxAttempts = 1 }).UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName: aws.String("orders"), Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "counter"}},
		UpdateExpression:          aws.String("ADD n :one"),
		ConditionExpression:       aws.String("attribute_exists(pk)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}}})
	return err
}

func (w *world) getN(region, pk string) int {
	w.t.Helper()
	out, err := w.db(region).GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("orders"), ConsistentRead: aws.Bool(true),
		Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: pk}}})
	if err != nil {
		w.t.Fatal(err)
	}
	v, _ := out.Item["n"].(*types.AttributeValueMemberN)
	if v == nil {
		return 0
	}
	n, _ := strconv.Atoi(v.Value)
	return n
}

func TestStrongRules(t *testing.T) {
	w := newWorld(t)
	w.table(east)
	w.put(east, "x", nil)
	wantRefused(t, "not empty", "Table orders must be empty to become a global table with multi-Region strong consistency")(w.strong(east, east2, west))
	del := func() {
		if _, err := w.db(east).DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("orders"),
			Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "x"}}}); err != nil {
			t.Fatal(err)
		}
	}
	del()
	wantRefused(t, "two", "A global table with multi-Region strong consistency has exactly three replicas")(w.strong(east, west))
	wantRefused(t, "sets", "The replicas of a global table with multi-Region strong consistency must be in one region set")(w.strong(east, west, eu))
	w.strongTable()
	wantRefused(t, "more", "Replicas cannot be added to global table orders: it has multi-Region strong consistency")(w.strong(east, "ca-central-1"))
	_, err := w.db(west).TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{{
		Put: &types.Put{TableName: aws.String("orders"), Item: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "t"}}}}}})
	wantRefused(t, "transaction", "Transactions are not supported on table orders")(nil, err)
	_, err = w.db(east2).UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("orders"),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{Enabled: aws.Bool(true), AttributeName: aws.String("exp")}})
	wantRefused(t, "ttl", "Time to Live is not supported on table orders")(nil, err)
}

func wantRefused(t *testing.T, name, want string) func(any, error) {
	return func(_ any, err error) {
		t.Helper()
		if !containsMessage(err, want) {
			t.Fatalf("%s: %v, want ValidationException %q", name, err, want)
		}
	}
}
