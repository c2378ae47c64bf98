package sortkey_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/sortkeytest"
)

func getPK(t *testing.T, c *dynamodb.Client, table, key string) map[string]types.AttributeValue {
	t.Helper()
	out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: pk(key), ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	return out.Item
}

func TestTransactWriteAllActions(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "one")
	createSimple(t, c, "two")
	for _, k := range []string{"upd", "del", "chk"} {
		if err := put(c, "one", map[string]types.AttributeValue{"pk": s(k), "n": n("1")}); err != nil {
			t.Fatal(err)
		}
	}
	_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String("two"), Item: map[string]types.AttributeValue{"pk": s("new"), "v": s("x")}, ConditionExpression: aws.String("attribute_not_exists(pk)")}},
		{Update: &types.Update{TableName: aws.String("one"), Key: pk("upd"), UpdateExpression: aws.String("ADD n :one"), ExpressionAttributeValues: map[string]types.AttributeValue{":one": n("1")}}},
		{Delete: &types.Delete{TableName: aws.String("one"), Key: pk("del")}},
		{ConditionCheck: &types.ConditionCheck{TableName: aws.String("one"), Key: pk("chk"), ConditionExpression: aws.String("n = :one"), ExpressionAttributeValues: map[string]types.AttributeValue{":one": n("1")}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if getPK(t, c, "two", "new") == nil || getPK(t, c, "one", "del") != nil || getPK(t, c, "one", "upd")["n"].(*types.AttributeValueMemberN).Value != "2" {
		t.Fatal("the transaction's writes are not all visible")
	}
	got, err := c.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{
		{Get: &types.Get{TableName: aws.String("one"), Key: pk("upd"), ProjectionExpression: aws.String("n")}},
		{Get: &types.Get{TableName: aws.String("one"), Key: pk("del")}},
		{Get: &types.Get{TableName: aws.String("two"), Key: pk("new")}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	r := got.Responses
	if len(r) != 3 || len(r[0].Item) != 1 || r[1].Item != nil || str(r[2].Item["v"]) != "x" {
		t.Fatalf("TransactGetItems responses %v", r)
	}
}

func TestTransactionCancellation(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "acct")
	if err := put(c, "acct", map[string]types.AttributeValue{"pk": s("a"), "bal": n("5"), "name": s("str")}); err != nil {
		t.Fatal(err)
	}
	_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String("acct"), Item: map[string]types.AttributeValue{"pk": s("b"), "bal": n("1")}}},
		{Update: &types.Update{TableName: aws.String("acct"), Key: pk("a"), UpdateExpression: aws.String("SET bal = bal - :amt"),
			ConditionExpression: aws.String("bal >= :amt"), ExpressionAttributeValues: map[string]types.AttributeValue{":amt": n("10")},
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}},
	}})
	var tc *types.TransactionCanceledException
	if !errors.As(err, &tc) {
		t.Fatalf("want TransactionCanceledException, got %v", err)
	}
	if tc.ErrorMessage() != "Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed]" {
		t.Fatalf("message %q", tc.ErrorMessage())
	}
	rs := tc.CancellationReasons
	if len(rs) != 2 || *rs[0].Code != "None" || *rs[1].Code != "ConditionalCheckFailed" || str(rs[1].Item["name"]) != "str" {
		t.Fatalf("reasons %+v", rs)
	}
	if getPK(t, c, "acct", "b") != nil {
		t.Fatal("a cancelled transaction wrote its first action")
	}
	_, err = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Update: &types.Update{TableName: aws.String("acct"), Key: pk("a"), UpdateExpression: aws.String("SET #n = #n + :one"),
			ExpressionAttributeNames: map[string]string{"#n": "name"}, ExpressionAttributeValues: map[string]types.AttributeValue{":one": n("1")}}},
	}})
	if !errors.As(err, &tc) || *tc.CancellationReasons[0].Code != "ValidationError" {
		t.Fatalf("arithmetic on a string: want a ValidationError reason, got %v", err)
	}
}

func TestTransactionRefusals(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "acct")
	_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String("acct"), Item: pk("a")}},
		{ConditionCheck: &types.ConditionCheck{TableName: aws.String("acct"), Key: pk("a"), ConditionExpression: aws.String("attribute_exists(pk)")}},
	}})
	wantAPIError(t, err, "ValidationException", "Transaction request cannot include multiple operations on one item")
	_, err = c.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{
		{Get: &types.Get{TableName: aws.String("acct"), Key: pk("a")}}, {Get: &types.Get{TableName: aws.String("acct"), Key: pk("a")}}}})
	wantAPIError(t, err, "ValidationException", "Transaction request cannot include multiple operations on one item")
	var many []types.TransactWriteItem
	for i := range 101 {
		many = append(many, types.TransactWriteItem{Put: &types.Put{TableName: aws.String("acct"), Item: pk(fmt.Sprint(i))}})
	}
	_, err = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: many})
	wantAPIErrorPrefix(t, err, "ValidationException", "1 validation error detected: Value '[TransactWriteItem, ")
	_, err = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String("nope"), Item: pk("a")}}}})
	wantAPIError(t, err, "ResourceNotFoundException", "Requested resource not found")
	if out, _ := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("acct")}); out.Count != 0 {
		t.Fatalf("refused transactions wrote %d items", out.Count)
	}
}

// testClock is a clock a test moves by hand.
type testClock struct{ ns atomic.Int64 }

func (c *testClock) Now() time.Time          { return time.Unix(0, c.ns.Load()) }
func (c *testClock) Advance(d time.Duration) { c.ns.Add(int64(d)) }
func newClock() *testClock {
	c := &testClock{}
	c.ns.Store(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano())
	return c
}

func TestClientRequestTokenIdempotency(t *testing.T) {
	clock := newClock()
	c := sortkeytest.NewWithOptions(t, &sortkey.Options{InMemory: true, Now: clock.Now}).Client()
	createSimple(t, c, "ctr")
	inc := func(token, by string) error {
		_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{ClientRequestToken: aws.String(token), TransactItems: []types.TransactWriteItem{
			{Update: &types.Update{TableName: aws.String("ctr"), Key: pk("c"), UpdateExpression: aws.String("ADD n :by"), ExpressionAttributeValues: map[string]types.AttributeValue{":by": n(by)}}}}})
		return err
	}
	count := func() string { return getPK(t, c, "ctr", "c")["n"].(*types.AttributeValueMemberN).Value }
	for range 3 {
		if err := inc("tok-1", "1"); err != nil {
			t.Fatal(err)
		}
	}
	if count() != "1" {
		t.Fatalf("three sends of one token applied %s times", count())
	}
	var mismatch *types.IdempotentParameterMismatchException
	if err := inc("tok-1", "2"); !errors.As(err, &mismatch) {
		t.Fatalf("same token, different request: %v", err)
	}
	clock.Advance(11 * time.Minute)
	if err := inc("tok-1", "2"); err != nil || count() != "3" {
		t.Fatalf("after 10 minutes the token is new again: %v, count %s", err, count())
	}
}

// TestBankTransfers moves money between 50 accounts from 8 writers while 4
// readers take snapshots of every account: each snapshot must sum to the
// starting total, and no balance may go negative.
func TestBankTransfers(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "bank")
	const accounts, start = 50, 100
	for i := range accounts {
		if err := put(c, "bank", map[string]types.AttributeValue{"pk": s(fmt.Sprintf("acct%02d", i)), "bal": n(fmt.Sprint(start))}); err != nil {
			t.Fatal(err)
		}
	}
	var done atomic.Bool
	var moved, cancelled, snapshots atomic.Int64
	var writers, readers sync.WaitGroup
	for w := range 8 {
		writers.Go(func() { transferLoop(t, c, w, accounts, &moved, &cancelled) })
	}
	for range 4 {
		readers.Go(func() {
			for !done.Load() {
				checkSnapshot(t, c, accounts, accounts*start)
				snapshots.Add(1)
			}
		})
	}
	writers.Wait()
	done.Store(true)
	readers.Wait()
	checkSnapshot(t, c, accounts, accounts*start)
	t.Logf("%d transfers, %d cancelled for lack of funds, %d snapshots", moved.Load(), cancelled.Load(), snapshots.Load())
	if cancelled.Load() == 0 {
		t.Fatal("no transfer was ever refused; the test never exercised the balance condition")
	}
}

func transferLoop(t *testing.T, c *dynamodb.Client, w, accounts int, moved, cancelled *atomic.Int64) {
	for i := range 60 {
		from, to := (w*7+i*3)%accounts, (w*11+i*5+1)%accounts
		if from == to {
			continue
		}
		amt := n(fmt.Sprint(10 + (w*i)%90))
		_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			{Update: &types.Update{TableName: aws.String("bank"), Key: pk(fmt.Sprintf("acct%02d", from)), UpdateExpression: aws.String("SET bal = bal - :a"),
				ConditionExpression: aws.String("bal >= :a"), ExpressionAttributeValues: map[string]types.AttributeValue{":a": amt}}},
			{Update: &types.Update{TableName: aws.String("bank"), Key: pk(fmt.Sprintf("acct%02d", to)), UpdateExpression: aws.String("SET bal = bal + :a"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":a": amt}}},
		}})
		var tc *types.TransactionCanceledException
		switch {
		case err == nil:
			moved.Add(1)
		case conflicted(err):
			// another transfer held one of the accounts: DynamoDB's answer too
		case errors.As(err, &tc):
			cancelled.Add(1)
		default:
			t.Error(err)
			return
		}
	}
}

// conflicted reports whether err is a transaction cancelled only because
// another one held some of its items.
func conflicted(err error) bool {
	var tc *types.TransactionCanceledException
	if !errors.As(err, &tc) {
		return false
	}
	for _, r := range tc.CancellationReasons {
		if c := aws.ToString(r.Code); c != "None" && c != "TransactionConflict" {
			return false
		}
	}
	return true
}

func checkSnapshot(t *testing.T, c *dynamodb.Client, accounts, total int) {
	var gets []types.TransactGetItem
	for i := range accounts {
		gets = append(gets, types.TransactGetItem{Get: &types.Get{TableName: aws.String("bank"), Key: pk(fmt.Sprintf("acct%02d", i))}})
	}
	out, err := c.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: gets})
	if conflicted(err) {
		return // a transfer in flight held an account: no snapshot this time
	}
	if err != nil {
		t.Error(err)
		return
	}
	sum := 0
	for _, r := range out.Responses {
		var b int
		fmt.Sscan(r.Item["bal"].(*types.AttributeValueMemberN).Value, &b)
		if b < 0 {
			t.Errorf("negative balance %d", b)
		}
		sum += b
	}
	if sum != total {
		t.Errorf("snapshot sums to %d, want %d", sum, total)
	}
}

// TestUniqueNameRace is seed 004's uniqueness pattern: an entity and a
// name record written together, the name record guarded by
// attribute_not_exists. 16 clients race for one name; exactly one wins,
// whether the others find the name taken or the winner still in flight.
func TestUniqueNameRace(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createPKSK(t, c, "menus")
	var wins atomic.Int64
	var wg sync.WaitGroup
	for w := range 16 {
		wg.Go(func() {
			id := fmt.Sprintf("ING#%02d", w)
			_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
				{Put: &types.Put{TableName: aws.String("menus"), Item: map[string]types.AttributeValue{"PK": s(id), "SK": s(id), "Name": s("basil")}}},
				{Put: &types.Put{TableName: aws.String("menus"), Item: map[string]types.AttributeValue{"PK": s("NAME#basil"), "SK": s("NAME#basil"), "Owner": s(id)},
					ConditionExpression: aws.String("attribute_not_exists(PK)")}},
			}})
			var tc *types.TransactionCanceledException
			switch {
			case err == nil:
				wins.Add(1)
			case errors.As(err, &tc) && len(tc.CancellationReasons) == 2 && *tc.CancellationReasons[0].Code == "None" &&
				(*tc.CancellationReasons[1].Code == "ConditionalCheckFailed" || *tc.CancellationReasons[1].Code == "TransactionConflict"):
				// lost the race, to a winner done or still in flight
			default:
				t.Errorf("loser %d: %v", w, err)
			}
		})
	}
	wg.Wait()
	out, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("menus")})
	if err != nil {
		t.Fatal(err)
	}
	if wins.Load() != 1 || out.Count != 2 {
		t.Fatalf("%d winners and %d items; want 1 winner, its entity and the name record", wins.Load(), out.Count)
	}
}

// TestTransactWritePerActionValidationCancels: an action whose key or item
// does not fit its table cancels the transaction, with one ValidationError
// reason for the first such action and None without a message for every
// other, even one whose condition would fail; TransactGetItems alike. A
// missing ExpressionAttributeNames entry stays the request's own error
// (facts 34.2, 34.3, 10; rule 15).
func TestTransactWritePerActionValidationCancels(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "acct")
	tbl := aws.String("acct")
	num := func(v string) map[string]types.AttributeValue { return map[string]types.AttributeValue{"pk": n(v)} }
	for _, tc := range []struct {
		name  string
		items []types.TransactWriteItem
		codes []string
	}{
		{"34.2", []types.TransactWriteItem{{Put: &types.Put{TableName: tbl, Item: num("7")}}, {Put: &types.Put{TableName: tbl, Item: num("8")}},
			{Put: &types.Put{TableName: tbl, Item: pk("new"), ConditionExpression: aws.String("attribute_exists(pk)")}}},
			[]string{"ValidationError", "None", "None"}},
		{"34.3", []types.TransactWriteItem{{Put: &types.Put{TableName: tbl, Item: num("7")}}}, []string{"ValidationError"}},
		{"second action", []types.TransactWriteItem{{Delete: &types.Delete{TableName: tbl, Key: pk("a")}},
			{Update: &types.Update{TableName: tbl, Key: num("1"), UpdateExpression: aws.String("SET x = :one"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":one": n("1")}}},
			{ConditionCheck: &types.ConditionCheck{TableName: tbl, Key: map[string]types.AttributeValue{}, ConditionExpression: aws.String("attribute_exists(pk)")}}},
			[]string{"None", "ValidationError", "None"}},
	} {
		_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: tc.items})
		wantCancellation(t, tc.name, err, tc.codes)
	}
	_, err := c.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{
		{Get: &types.Get{TableName: tbl, Key: num("1")}}, {Get: &types.Get{TableName: tbl, Key: map[string]types.AttributeValue{}}}}})
	wantCancellation(t, "TransactGetItems", err, []string{"ValidationError", "None"})
	_, err = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: tbl, Item: num("7")}},
		{Put: &types.Put{TableName: tbl, Item: pk("b"), ConditionExpression: aws.String("attribute_exists(#x)")}}}})
	wantAPIErrorPrefix(t, err, "ValidationException", "")
	if out, _ := c.Scan(ctx, &dynamodb.ScanInput{TableName: tbl}); out.Count != 0 {
		t.Fatalf("cancelled transactions wrote %d items", out.Count)
	}
}

// wantCancellation checks a TransactionCanceledException's reason codes,
// that only a ValidationError carries a message, and the summary message.
func wantCancellation(t *testing.T, name string, err error, codes []string) {
	t.Helper()
	var tc *types.TransactionCanceledException
	if !errors.As(err, &tc) || len(tc.CancellationReasons) != len(codes) {
		t.Fatalf("%s: want cancellation %v, got %v", name, codes, err)
	}
	if want := "Transaction cancelled, please refer cancellation reasons for specific reasons [" + strings.Join(codes, ", ") + "]"; tc.ErrorMessage() != want {
		t.Errorf("%s: message %q, want %q", name, tc.ErrorMessage(), want)
	}
	for i, r := range tc.CancellationReasons {
		if aws.ToString(r.Code) != codes[i] || (r.Message != nil) != (codes[i] == "ValidationError") {
			t.Errorf("%s: reason %d is %s %q, want %s (a message only for ValidationError)", name, i, aws.ToString(r.Code), aws.ToString(r.Message), codes[i])
		}
	}
}

// TestTransactionSizeLimit: items over 4 MB in all are refused before any
// is read (facts 34.1).
func TestTransactionSizeLimit(t *testing.T) {
	c := sortkeytest.New(t).Client()
	createSimple(t, c, "acct")
	pad := s(strings.Repeat("x", 100_000))
	var items []types.TransactWriteItem
	for i := range 50 {
		items = append(items, types.TransactWriteItem{Put: &types.Put{TableName: aws.String("acct"),
			Item: map[string]types.AttributeValue{"pk": s(fmt.Sprint(i)), "pad": pad}}})
	}
	_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: items})
	wantAPIError(t, err, "ValidationException", "Transaction request size cannot exceed 4 MB")
}
