package conformance_test

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/sortkeydb/sortkey/sortkeytest"
)

// testClock is a clock a test moves by hand.
type testClock struct{ ns atomic.Int64 }

func (c *testClock) Now() time.Time          { return time.Unix(0, c.ns.Load()) }
func (c *testClock) Advance(d time.Duration) { c.ns.Add(int64(d)) }
func newClock() *testClock {
	c := &testClock{}
	c.ns.Store(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano())
	return c
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
