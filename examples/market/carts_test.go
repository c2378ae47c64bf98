package main

import (
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestCartExpires moves the clock that both the server and the store
// use: every change pushes the cart's ttl back; once it passes, the cart
// is gone for the application at once and from the table at the next
// sweep.
func TestCartExpires(t *testing.T) {
	f := newFixture(t)
	s := f.store.As(Okafor)
	start := f.clock.Now()
	cart, err := shop(ctx, s, []CartLine{Grinder})
	if err != nil {
		t.Fatal(err)
	}
	wantEqual(t, "cart", cart, Cart{PK: "U#" + string(Okafor) + "#C", Key: cart.Key, Type: "C",
		Lines: []CartLine{Grinder}, Rev: 1, Expires: start.Add(24 * time.Hour)})
	wantTTL(t, f, cart, start.Add(24*time.Hour).Unix())

	f.clock.Advance(23 * time.Hour)
	if cart, err = s.AddToCart(ctx, cart.Key, Filters); err != nil {
		t.Fatal(err)
	}
	wantTTL(t, f, cart, start.Add(47*time.Hour).Unix())
	f.clock.Advance(24 * time.Hour) // past the first ttl, up to the second
	sweep(t, f, 1)                  // the sample's open cart, opened with this one
	if _, err := s.Cart(ctx, cart.Key); err != nil {
		t.Fatalf("a cart whose ttl is now: %v", err)
	}

	f.clock.Advance(time.Millisecond)
	wantTTL(t, f, cart, start.Add(47*time.Hour).Unix()) // expired, not yet deleted...
	if _, err := s.Cart(ctx, cart.Key); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Cart of an expired cart: %v", err) // ...and already gone for the shopper
	}
	if _, err := s.AddToCart(ctx, cart.Key, Beans); !errors.Is(err, ErrNotFound) {
		t.Fatalf("AddToCart on an expired cart: %v", err)
	}
	if _, _, err := f.store.PlaceOrder(ctx, Okafor, cart.Key); !errors.Is(err, ErrNotFound) {
		t.Fatalf("checkout of an expired cart: %v", err)
	}
	sweep(t, f, 1)
	wantTTL(t, f, cart, 0)
	if got, err := s.LastOrders(ctx, 5); err != nil || len(got) != 1 {
		t.Fatalf("orders after the sweep: %d (%v)", len(got), err)
	}
}

func sweep(t *testing.T, f *fixture, want int) {
	t.Helper()
	n, err := f.srv.DB.SweepExpired()
	if err != nil || n != want {
		t.Fatalf("sweep deleted %d items (%v), want %d", n, err, want)
	}
}

// wantTTL checks the stored item's ttl, a Number of epoch seconds as
// DynamoDB requires; 0 means the item must be gone.
func wantTTL(t *testing.T, f *fixture, c Cart, want int64) {
	t.Helper()
	out, err := f.back.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(MarketTable), Key: key(c.PK, c.Key.String())})
	if err != nil {
		t.Fatal(err)
	}
	if want == 0 {
		if out.Item != nil {
			t.Fatalf("cart %s is still stored", c.Key)
		}
		return
	}
	ttl, ok := out.Item["ttl"].(*types.AttributeValueMemberN)
	if !ok || ttl.Value != num(want).(*types.AttributeValueMemberN).Value {
		t.Fatalf("stored ttl %#v, want %d", out.Item["ttl"], want)
	}
}

// TestAnotherUsersCart: a session builds keys in its own user's shard
// only, so another user's cart key names nothing it can reach.
func TestAnotherUsersCart(t *testing.T) {
	f := newFixture(t)
	theirs := f.sample.Cart.Key
	if _, err := f.store.As(Okafor).Cart(ctx, theirs); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Okafor reading Rabinovich's cart: %v", err)
	}
	if _, err := f.store.As(Okafor).AddToCart(ctx, theirs, Grinder); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Okafor adding to Rabinovich's cart: %v", err)
	}
	got, err := f.store.As(Rabinovich).Cart(ctx, theirs)
	if err != nil {
		t.Fatal(err)
	}
	wantEqual(t, "Rabinovich's cart", got, f.sample.Cart)
}

// TestUsersWriteOnlyProfileAndCarts is the design's access split: a user
// reads every shard of their own and writes only the profile and carts.
func TestUsersWriteOnlyProfileAndCarts(t *testing.T) {
	s := NewStore(nil, nil, time.Now).As(Okafor)
	for shard, writable := range map[Shard]bool{ProfileShard: true, CartShard: true, OrderShard: false, RewardShard: false} {
		if pk, err := s.pk(shard, false); err != nil || pk != Okafor.PK(shard) {
			t.Fatalf("read %q: %s, %v", shard, pk, err)
		}
		if _, err := s.pk(shard, true); (err == nil) != writable {
			t.Fatalf("write %q: %v", shard, err)
		}
	}
}
