package conformance_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

// holdOne is a rule that keeps the first TransactWriteItems in flight,
// holding its items, until the test releases it.
const holdOne = `{"rules": [{"operation": "TransactWriteItems", "hold": "5m", "count": 1}]}`

func txPut(table string, item avMap) types.TransactWriteItem {
	return types.TransactWriteItem{Put: &types.Put{TableName: aws.String(table), Item: item}}
}

// heldTransaction starts in, a transaction the hold rule keeps in flight,
// and returns once it holds its items; wait returns its answer after the
// test releases it.
func heldTransaction(t *testing.T, srv *sortkeytest.Server, c *dynamodb.Client, in *dynamodb.TransactWriteItemsInput) (wait func() error) {
	t.Helper()
	srv.SetFaults(t, holdOne)
	done := make(chan error, 1)
	go func() {
		_, err := c.TransactWriteItems(ctx, in)
		done <- err
	}()
	srv.AwaitHeld(t, 1)
	return func() error {
		if n := srv.ReleaseHeld(); n != 1 {
			t.Errorf("released %d transactions, want 1", n)
		}
		return <-done
	}
}

func cancelCodes(t *testing.T, err error) []string {
	t.Helper()
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) {
		t.Fatalf("want TransactionCanceledException, got %v", err)
	}
	var codes []string
	for _, r := range tce.CancellationReasons {
		codes = append(codes, aws.ToString(r.Code))
		if aws.ToString(r.Code) == "TransactionConflict" && aws.ToString(r.Message) != "Transaction is ongoing for the item" {
			t.Errorf("conflict reason message %q", aws.ToString(r.Message))
		}
	}
	if want := "Transaction cancelled, please refer cancellation reasons for specific reasons [" + strings.Join(codes, ", ") + "]"; tce.ErrorMessage() != want {
		t.Errorf("message %q, want %q", tce.ErrorMessage(), want)
	}
	return codes
}

func TestConflictTransactionCancelsTheOtherAndChangesNothing(t *testing.T) {
	srv, c := faultServer(t, &sortkey.Options{})
	createSimple(t, c, "Txs")
	wait := heldTransaction(t, srv, c, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		txPut("Txs", avMap{"pk": s("a"), "by": s("first")}), txPut("Txs", avMap{"pk": s("b"), "by": s("first")})}})
	_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		txPut("Txs", avMap{"pk": s("c"), "by": s("second")}),
		{ConditionCheck: &types.ConditionCheck{TableName: aws.String("Txs"), Key: pk("b"), ConditionExpression: aws.String("attribute_not_exists(pk)")}}}})
	if got := cancelCodes(t, err); !slices.Equal(got, []string{"None", "TransactionConflict"}) {
		t.Errorf("reasons %v, want [None TransactionConflict]", got)
	}
	if it := getConsistent(t, c, "Txs", "c"); it != nil {
		t.Errorf("the cancelled transaction wrote c: %v", it)
	}
	if err := wait(); err != nil {
		t.Fatalf("the held transaction: %v", err)
	}
	for _, k := range []string{"a", "b"} {
		if it := getConsistent(t, c, "Txs", k); it["by"] == nil || it["by"].(*types.AttributeValueMemberS).Value != "first" {
			t.Errorf("%s after the held transaction: %v", k, it)
		}
	}
}

func TestConflictSingleWritesAreRefusedWhileATransactionHoldsTheItem(t *testing.T) {
	srv, c := faultServer(t, &sortkey.Options{})
	createSimple(t, c, "Txs")
	if err := put(c, "Txs", avMap{"pk": s("a"), "v": s("before")}); err != nil {
		t.Fatal(err)
	}
	wait := heldTransaction(t, srv, c, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		txPut("Txs", avMap{"pk": s("a"), "v": s("tx")})}})
	want := wireError{"TransactionConflictException", "Transaction is ongoing for the item", 400}
	_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Txs"), Item: avMap{"pk": s("a"), "v": s("put")}})
	if got := wireErr(t, err); got != want {
		t.Errorf("PutItem: %+v, want %+v", got, want)
	}
	_, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("Txs"), Key: pk("a"),
		UpdateExpression: aws.String("SET v = :v"), ExpressionAttributeValues: avMap{":v": s("update")}})
	if got := wireErr(t, err); got != want {
		t.Errorf("UpdateItem: %+v, want %+v", got, want)
	}
	_, err = c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("Txs"), Key: pk("a")})
	if got := wireErr(t, err); got != want {
		t.Errorf("DeleteItem: %+v, want %+v", got, want)
	}
	if it := getConsistent(t, c, "Txs", "a"); it["v"].(*types.AttributeValueMemberS).Value != "before" {
		t.Errorf("GetItem while held: %v, want the item before the transaction", it)
	}
	if err := wait(); err != nil {
		t.Fatalf("the held transaction: %v", err)
	}
	if it := getConsistent(t, c, "Txs", "a"); it["v"].(*types.AttributeValueMemberS).Value != "tx" {
		t.Errorf("after: %v, want the transaction's item and no refused write", it)
	}
	if err := put(c, "Txs", avMap{"pk": s("a"), "v": s("later")}); err != nil {
		t.Errorf("PutItem once the transaction is done: %v", err)
	}
}

func TestConflictBatchWriteLeavesHeldItemsUnprocessed(t *testing.T) {
	srv, c := faultServer(t, &sortkey.Options{})
	createSimple(t, c, "Txs")
	wait := heldTransaction(t, srv, c, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		txPut("Txs", avMap{"pk": s("a"), "v": s("tx")})}})
	out, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"Txs": {
		{PutRequest: &types.PutRequest{Item: avMap{"pk": s("a"), "v": s("batch")}}},
		{PutRequest: &types.PutRequest{Item: avMap{"pk": s("z"), "v": s("batch")}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	left := out.UnprocessedItems["Txs"]
	if len(left) != 1 || left[0].PutRequest == nil || left[0].PutRequest.Item["pk"].(*types.AttributeValueMemberS).Value != "a" {
		t.Errorf("unprocessed %v, want the put of a", out.UnprocessedItems)
	}
	if getConsistent(t, c, "Txs", "z") == nil {
		t.Error("z, which no transaction holds, was not written")
	}
	if err := wait(); err != nil {
		t.Fatal(err)
	}
	if it := getConsistent(t, c, "Txs", "a"); it["v"].(*types.AttributeValueMemberS).Value != "tx" {
		t.Errorf("a: %v, want the transaction's", it)
	}
}

func TestConflictTransactGetIsCancelledByAHeldItem(t *testing.T) {
	srv, c := faultServer(t, &sortkey.Options{})
	createSimple(t, c, "Txs")
	wait := heldTransaction(t, srv, c, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		txPut("Txs", avMap{"pk": s("a")})}})
	get := func(k string) types.TransactGetItem {
		return types.TransactGetItem{Get: &types.Get{TableName: aws.String("Txs"), Key: pk(k)}}
	}
	_, err := c.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{get("z"), get("a")}})
	if got := cancelCodes(t, err); !slices.Equal(got, []string{"None", "TransactionConflict"}) {
		t.Errorf("reasons %v, want [None TransactionConflict]", got)
	}
	if err := wait(); err != nil {
		t.Fatal(err)
	}
	out, err := c.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{get("z"), get("a")}})
	if err != nil || out.Responses[1].Item == nil {
		t.Errorf("TransactGetItems once the transaction is done: %v %v", out, err)
	}
}

func TestConflictRepeatedTokenInFlightIsInProgress(t *testing.T) {
	srv, c := faultServer(t, &sortkey.Options{})
	createSimple(t, c, "Txs")
	in := &dynamodb.TransactWriteItemsInput{ClientRequestToken: aws.String("tok-1"),
		TransactItems: []types.TransactWriteItem{{Update: &types.Update{TableName: aws.String("Txs"), Key: pk("n"),
			UpdateExpression: aws.String("ADD c :one"), ExpressionAttributeValues: avMap{":one": n("1")}}}}}
	wait := heldTransaction(t, srv, c, in)
	_, err := c.TransactWriteItems(ctx, in)
	want := wireError{"TransactionInProgressException", "Transaction with the given request token is already in progress.", 400}
	if got := wireErr(t, err); got != want {
		t.Errorf("the repeat in flight: %+v, want %+v", got, want)
	}
	if err := wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.TransactWriteItems(ctx, in); err != nil {
		t.Errorf("the repeat once the first is done: %v", err)
	}
	if it := getConsistent(t, c, "Txs", "n"); it["c"].(*types.AttributeValueMemberN).Value != "1" {
		t.Errorf("counter %v, want 1: applied once", it["c"])
	}
}

func TestConflictHoldIsReleasedBySettingRulesAndShownByTheAdminAPI(t *testing.T) {
	srv, c := faultServer(t, &sortkey.Options{Admin: true})
	createSimple(t, c, "Txs")
	srv.SetFaults(t, holdOne)
	done := make(chan error, 1)
	go func() {
		_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{txPut("Txs", pk("a"))}})
		done <- err
	}()
	srv.AwaitHeld(t, 1)
	if _, body := adminCall(t, srv.URL, "GET", ""); !strings.Contains(body, `"holding": 1`) || !strings.Contains(body, `"hold": "5m"`) {
		t.Errorf("GET while held: %s", body)
	}
	if code, _ := adminCall(t, srv.URL, "DELETE", ""); code != 204 {
		t.Errorf("DELETE: %d", code)
	}
	if err := <-done; err != nil {
		t.Fatalf("the transaction released by DELETE: %v", err)
	}
	if getConsistent(t, c, "Txs", "a") == nil {
		t.Error("the released transaction did not write")
	}
}

// TestUncontendedTransactionsNeverConflict runs transactions and plain
// writes on one item one after another: nothing is held between them.
func TestUncontendedTransactionsNeverConflict(t *testing.T) {
	c := sortkeytest.New(t).Client(oneAttempt)
	createSimple(t, c, "Txs")
	for i := range 3 {
		// A fresh input each time: the SDK fills in a ClientRequestToken,
		// and the same one again would be answered as a repeat.
		_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{{Put: &types.Put{
			TableName: aws.String("Txs"), Item: pk("a"), ConditionExpression: aws.String("attribute_not_exists(pk)")}}}})
		if i == 0 && err != nil {
			t.Fatal(err)
		}
		if i > 0 && !slices.Equal(cancelCodes(t, err), []string{"ConditionalCheckFailed"}) {
			t.Fatalf("transaction %d: %v, want its condition to fail", i, err)
		}
		if err := putPK(c, "Txs", "a"); err != nil {
			t.Fatalf("PutItem after transaction %d: %v", i, err)
		}
	}
}

func TestConflictPartiQLTransactionHoldsAndStatementsAreRefused(t *testing.T) {
	srv, c := faultServer(t, &sortkey.Options{})
	createSimple(t, c, "Txs")
	srv.SetFaults(t, `{"rules": [{"operation": "ExecuteTransaction", "hold": "5m", "count": 1}]}`)
	done := make(chan error, 1)
	go func() {
		_, err := c.ExecuteTransaction(ctx, &dynamodb.ExecuteTransactionInput{TransactStatements: []types.ParameterizedStatement{
			{Statement: aws.String(`INSERT INTO "Txs" VALUE {'pk': 'a', 'v': 'tx'}`)}}})
		done <- err
	}()
	srv.AwaitHeld(t, 1)
	_, err := c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`UPDATE "Txs" SET v = 'stmt' WHERE pk = 'a'`)})
	if got, want := wireErr(t, err), (wireError{"TransactionConflictException", "Transaction is ongoing for the item", 400}); got != want {
		t.Errorf("UPDATE of a held item: %+v, want %+v", got, want)
	}
	srv.ReleaseHeld()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if it := getConsistent(t, c, "Txs", "a"); it["v"].(*types.AttributeValueMemberS).Value != "tx" {
		t.Errorf("a: %v, want the transaction's", it)
	}
}
