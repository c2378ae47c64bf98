package main

import (
	"errors"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestGetLastNOrders(t *testing.T) {
	f := newFixture(t)
	s := f.store.As(Rabinovich)
	placed := f.sample.Orders[Rabinovich]
	for _, tc := range []struct {
		n    int
		want []Order
	}{
		{1, headers(placed[2])},
		{2, headers(placed[2], placed[1])},
		{10, headers(placed[2], placed[1], placed[0])},
	} {
		var got []Order
		var err error
		calls := f.calls(func() { got, err = s.LastOrders(ctx, tc.n) })
		if err != nil {
			t.Fatal(err)
		}
		wantCalls(t, calls, queryShard)
		wantEqual(t, "last orders", got, tc.want)
	}
}

func TestLastOrdersAreEachUsersOwn(t *testing.T) {
	f := newFixture(t)
	got, err := f.store.As(Okafor).LastOrders(ctx, 5)
	if err != nil {
		t.Fatal(err)
	}
	wantEqual(t, "Okafor's orders", got, headers(f.sample.Orders[Okafor]...))
}

// TestLastOrdersReadsOnPastItems gives each order more items than a page
// holds: the filter leaves pages with no order at all, and LastOrders
// must page on until it has n of them.
func TestLastOrdersReadsOnPastItems(t *testing.T) {
	f := newFixture(t)
	const user = Bulk
	if err := f.store.CreateUser(ctx, user, Profile{Handle: "bulk"}); err != nil {
		t.Fatal(err)
	}
	var placed []Order
	for range 3 {
		f.clock.Advance(time.Hour)
		placed = append(placed, placeOrder(t, f, user, slices.Repeat([]CartLine{Filters}, 10)))
	}
	var got []Order
	var err error
	calls := f.calls(func() { got, err = f.store.As(user).LastOrders(ctx, 2) })
	if err != nil {
		t.Fatal(err)
	}
	wantEqual(t, "last 2 of 3 large orders", got, headers(placed[2], placed[1]))
	// Pages of 8 rows, newest first: the first holds 8 of the newest
	// order's 10 items, the second its last 2, its header and 5 items of
	// the next order, and the third reaches that order's header.
	wantCalls(t, calls, queryShard, queryShard, queryShard)
}

func placeOrder(t *testing.T, f *fixture, user UserID, lines []CartLine) Order {
	t.Helper()
	cart, err := shop(ctx, f.store.As(user), lines)
	if err != nil {
		t.Fatal(err)
	}
	o, _, err := f.store.PlaceOrder(ctx, user, cart.Key)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestGetOrderWithItemsByID(t *testing.T) {
	f := newFixture(t)
	s := f.store.As(Rabinovich)
	for _, want := range f.sample.Orders[Rabinovich] {
		var got Order
		var err error
		calls := f.calls(func() { got, err = s.Order(ctx, want.Number) })
		if err != nil {
			t.Fatal(err)
		}
		wantCalls(t, calls, queryID, queryOrder)
		wantEqual(t, "order "+want.Number, got, want)
	}
	first := f.sample.Orders[Rabinovich][0]
	var lines []string
	for _, it := range first.Items {
		lines = append(lines, it.SK+" "+it.Name)
	}
	wantEqual(t, "items, in order, in the order's partition", lines, []string{
		first.Key.String() + "#001 Espresso beans 1 kg", first.Key.String() + "#002 Paper filters x100"})
}

// TestOrderOfAnotherUserIsNotFound: a user who knows another user's
// order number learns nothing, and no item of the other user is read.
func TestOrderOfAnotherUserIsNotFound(t *testing.T) {
	f := newFixture(t)
	theirs := f.sample.Orders[Rabinovich][0].Number
	var err error
	calls := f.calls(func() { _, err = f.store.As(Okafor).Order(ctx, theirs) })
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("Okafor reading Rabinovich's order: %v", err)
	}
	wantCalls(t, calls, queryID)
	if _, err := f.store.As(Okafor).Order(ctx, "0000-0000-0000"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown number: %v", err)
	}
}

// TestSameOrderNumberForTwoUsers: the id index does not enforce
// uniqueness, so two users' orders could share a number; each user must
// still get their own.
func TestSameOrderNumberForTwoUsers(t *testing.T) {
	f := newFixture(t)
	mine := f.sample.Orders[Rabinovich][1]
	theirs := f.sample.Orders[Okafor][0]
	_, err := f.back.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(MarketTable),
		Key: key(theirs.PK, theirs.Key.String()), UpdateExpression: aws.String("SET id = :id"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":id": str(mine.Number)}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.store.As(Okafor).Order(ctx, mine.Number)
	if err != nil || got.Key != theirs.Key {
		t.Fatalf("Okafor got %s (%v), want his own %s", got.Key, err, theirs.Key)
	}
	got, err = f.store.As(Rabinovich).Order(ctx, mine.Number)
	if err != nil || got.Key != mine.Key {
		t.Fatalf("Rabinovich got %s (%v), want his own %s", got.Key, err, mine.Key)
	}
}

func TestSetOrderStatusBySystemKey(t *testing.T) {
	f := newFixture(t)
	o := f.sample.Orders[Okafor][0]
	calls := f.calls(func() {
		if err := f.store.SetOrderStatus(ctx, o.Key, StatusShipped); err != nil {
			t.Fatal(err)
		}
	})
	wantCalls(t, calls, queryByKey, updateItem)
	got, err := f.store.As(Okafor).Order(ctx, o.Number)
	if err != nil {
		t.Fatal(err)
	}
	o.Status = StatusShipped
	wantEqual(t, "shipped order", got, o)
	unknown := f.store.ids.key(OrderKind)
	if err := f.store.SetOrderStatus(ctx, unknown, StatusShipped); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown order: %v", err)
	}
	if err := f.store.SetOrderStatus(ctx, f.sample.Cart.Key, StatusShipped); err == nil {
		t.Fatal("a cart key was taken for an order's")
	}
}

func TestPlaceOrder(t *testing.T) {
	f := newFixture(t)
	s := f.store.As(Rabinovich)
	cart, err := s.AddToCart(ctx, f.sample.Cart.Key, times(Kettle, 2))
	if err != nil {
		t.Fatal(err)
	}
	var order Order
	var reward Reward
	calls := f.calls(func() { order, reward, err = f.store.PlaceOrder(ctx, Rabinovich, cart.Key) })
	if err != nil {
		t.Fatal(err)
	}
	wantCalls(t, calls, getItem, transaction)
	pk := "U#" + string(Rabinovich) + "#O"
	want := Order{PK: pk, Key: order.Key, Number: order.Number, Type: "O", Placed: f.clock.Now(),
		Status: StatusPlaced, Total: 2450 + 2*5400, Items: []OrderItem{
			{PK: pk, SK: order.Key.String() + "#001", Product: Beans.Product, Name: Beans.Name, Qty: 1, UnitPrice: 2450},
			{PK: pk, SK: order.Key.String() + "#002", Product: Kettle.Product, Name: Kettle.Name, Qty: 2, UnitPrice: 5400}}}
	wantEqual(t, "placed order", order, want)
	if got, err := s.Order(ctx, order.Number); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("read back: %+v (%v)", got, err)
	}
	wantEqual(t, "reward", reward, Reward{PK: "U#" + string(Rabinovich) + "#R", Key: reward.Key, Type: "R",
		Points: 132, Reason: "Order " + order.Number, Granted: f.clock.Now()})
	if _, err := s.Cart(ctx, cart.Key); !errors.Is(err, ErrNotFound) {
		t.Fatalf("the cart outlived its checkout: %v", err)
	}
	if _, _, err := f.store.PlaceOrder(ctx, Rabinovich, cart.Key); !errors.Is(err, ErrNotFound) {
		t.Fatalf("second checkout of one cart: %v", err)
	}
}

// TestCheckoutOfAChangedCart: a line added after checkout read the cart
// cancels the whole transaction; nothing of the order is written.
func TestCheckoutOfAChangedCart(t *testing.T) {
	f := newFixture(t)
	s := f.store.As(Rabinovich)
	read, err := s.Cart(ctx, f.sample.Cart.Key)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddToCart(ctx, read.Key, Grinder); err != nil {
		t.Fatal(err)
	}
	o := f.store.newOrder(Rabinovich, read)
	r := f.store.newReward(Rabinovich, 24, "Order "+o.Number)
	if err := f.store.commit(ctx, o, r, read); !errors.Is(err, ErrCartChanged) {
		t.Fatalf("checkout of a stale cart: %v", err)
	}
	if _, err := s.Order(ctx, o.Number); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a cancelled checkout left its order: %v", err)
	}
	if got, _ := s.Bonuses(ctx); len(got) != 4 {
		t.Fatalf("a cancelled checkout left its reward: %d rewards", len(got))
	}
}

func TestCheckoutOfAnEmptyCart(t *testing.T) {
	f := newFixture(t)
	cart, err := f.store.As(Okafor).OpenCart(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.store.PlaceOrder(ctx, Okafor, cart.Key); !errors.Is(err, ErrEmptyCart) {
		t.Fatalf("empty cart: %v", err)
	}
}
