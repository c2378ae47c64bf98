package globalcart

import (
	"errors"
	"testing"
	"time"
)

// In one region the condition holds: a cart is checked out once.
func TestCheckoutTwiceInOneRegionIsRefused(t *testing.T) {
	w := newWorld(t)
	w.checkout(east, "ordered")
	if _, err := w.cart(east).Checkout(ctx, "c1", "abandoned"); !errors.Is(err, ErrCheckedOut) {
		t.Fatalf("second checkout in us-east-1: %v, want ErrCheckedOut", err)
	}
	w.replicate()
	if _, err := w.cart(west).Checkout(ctx, "c1", "abandoned"); !errors.Is(err, ErrCheckedOut) {
		t.Fatalf("checkout in us-west-2 after replication: %v, want ErrCheckedOut", err)
	}
}

// The shopper orders in us-east-1 while, 10 ms later, a sweep in us-west-2
// marks the same cart abandoned. Each region's condition sees no status,
// so both writes are acknowledged. Confirmed too early, each still looks
// stored. After the lag us-east-1's Confirm finds it was overwritten, and
// by what, so the app can act (place the order again, or tell the
// shopper); us-west-2's confirms.
func TestConfirmDetectsALostCheckout(t *testing.T) {
	w := newWorld(t)
	ordered := w.checkout(east, "ordered")
	w.Advance(10 * time.Millisecond)
	abandoned := w.checkout(west, "abandoned")
	if _, ok, err := w.cart(east).Confirm(ctx, "c1", ordered); err != nil || !ok {
		t.Fatalf("before the lag: survived %v, %v; want true, the loss not yet known", ok, err)
	}
	w.replicate()
	stored, ok, err := w.cart(east).Confirm(ctx, "c1", ordered)
	if err != nil || ok || stored != abandoned {
		t.Fatalf("us-east-1 after the lag: survived %v, stored %+v, %v; want false and us-west-2's write %+v", ok, stored, err, abandoned)
	}
	if _, ok, err := w.cart(west).Confirm(ctx, "c1", abandoned); err != nil || !ok {
		t.Fatalf("us-west-2 after the lag: survived %v, %v; want true", ok, err)
	}
	w.wantOvertaken(1)
}

// Without a conflict the write survives in its region and is what the
// other region reads.
func TestConfirmAfterAnUncontestedCheckout(t *testing.T) {
	w := newWorld(t)
	ordered := w.checkout(east, "ordered")
	w.replicate()
	for _, r := range []string{east, west} {
		stored, ok, err := w.cart(r).Confirm(ctx, "c1", ordered)
		if err != nil || !ok || stored != ordered {
			t.Fatalf("%s: survived %v, stored %+v, %v; want us-east-1's write", r, ok, stored, err)
		}
	}
}
