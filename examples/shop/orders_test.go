package main

import (
	"errors"
	"testing"
	"time"
)

func TestGetUserOrderByID(t *testing.T) {
	sh := newShop(t)
	ana, order := sh.sample.Users["Ana Lima"], sh.sample.Orders["ana-1"]
	got, err := sh.GetUserOrderByID(ctx, ana.ID, order.ID)
	same(t, []Order{got}, err, order)
	sh.served(t, getItem())
	if got.Status != StatusDelivered || got.TotalCents != 79900+24900 || len(got.Items) != 2 {
		t.Fatalf("Ana's first order reads back as %+v", got)
	}
	if _, err := sh.GetUserOrderByID(ctx, sh.sample.Users["Ben Okafor"].ID, order.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Ana's order under Ben: %v, want ErrNotFound", err)
	}
}

func TestListUserOrders(t *testing.T) {
	sh := newShop(t)
	ben := sh.sample.Users["Ben Okafor"].ID
	got, err := sh.ListUserOrders(ctx, ben, Descending)
	same(t, got, err, sh.orders("ben-2", "ben-1")...)
	sh.served(t, queryOn("", "PK = :pk AND begins_with(SK, :prefix)"))
	got, err = sh.ListUserOrders(ctx, ben, Ascending)
	same(t, got, err, sh.orders("ben-1", "ben-2")...)
	got, err = sh.ListUserOrders(ctx, sh.sample.Users["QA One"].ID, Ascending)
	same(t, got, err)
}

// TestListOrdersByStatus reads each status's orders on GSI1 from a time
// on, inclusive (GSI1SK >= AT#<since>), by their last change.
func TestListOrdersByStatus(t *testing.T) {
	sh := newShop(t)
	first := sh.sample.Delivered
	got, err := sh.ListOrdersByStatus(ctx, StatusDelivered, first, Ascending)
	same(t, got, err, sh.orders("ana-1", "chloe-1")...)
	sh.served(t, queryOn("GSI1", "GSI1PK = :pk AND GSI1SK >= :since"))
	got, err = sh.ListOrdersByStatus(ctx, StatusDelivered, first.Add(time.Second), Descending)
	same(t, got, err, sh.orders("chloe-1")...)
	for status, want := range map[OrderStatus][]string{StatusPending: {"ana-2"}, StatusShipped: {"ben-1"}, StatusCancelled: {"ben-2"}} {
		got, err = sh.ListOrdersByStatus(ctx, status, sampleStart, Ascending)
		same(t, got, err, sh.orders(want...)...)
	}
}

// TestUpdateOrderStatusMovesOrderInGSI1 ships Ana's pending order: it
// leaves the PENDING partition of GSI1 and joins the end of SHIPPED.
func TestUpdateOrderStatusMovesOrderInGSI1(t *testing.T) {
	sh := newShop(t)
	pending := sh.sample.Orders["ana-2"]
	shipped, err := sh.UpdateOrderStatus(ctx, pending.UserID, pending.ID, StatusShipped)
	if err != nil {
		t.Fatal(err)
	}
	if shipped.Status != StatusShipped || !shipped.UpdatedAt.After(sh.sample.Delivered) ||
		!shipped.CreatedAt.Equal(pending.CreatedAt) || shipped.TotalCents != 19800 {
		t.Fatalf("shipped order %+v", shipped)
	}
	got, err := sh.ListOrdersByStatus(ctx, StatusPending, sampleStart, Ascending)
	same(t, got, err)
	got, err = sh.ListOrdersByStatus(ctx, StatusShipped, sampleStart, Ascending)
	same(t, got, err, sh.sample.Orders["ben-1"], shipped)
	if _, err := sh.UpdateOrderStatus(ctx, pending.UserID, sh.sample.Orders["ben-1"].ID, StatusDelivered); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Ben's order under Ana: %v, want ErrNotFound", err)
	}
}

// TestPlaceOrderTakesStock places an order and finds it, PENDING, with
// its products' stock reduced by its quantities.
func TestPlaceOrderTakesStock(t *testing.T) {
	sh := newShop(t)
	qa, buds, mac := sh.sample.Users["QA One"].ID, sh.sample.Products["AirPods Pro"], sh.sample.Products["MacBook Air 13"]
	o, err := sh.PlaceOrder(ctx, qa, []OrderItem{{ProductID: buds.ID, Quantity: 3, PriceCents: 24900}, {ProductID: mac.ID, Quantity: 1, PriceCents: 109900}})
	if err != nil {
		t.Fatal(err)
	}
	if o.TotalCents != 3*24900+109900 || o.Status != StatusPending {
		t.Fatalf("order %+v", o)
	}
	got, err := sh.ListUserOrders(ctx, qa, Ascending)
	same(t, got, err, o)
	stock(t, sh, buds.ID, 59-3)
	stock(t, sh, mac.ID, 15-1)
}

// TestPlaceOrderRefusedWritesNothing: an order that cannot be served in
// full changes nothing, and says why.
func TestPlaceOrderRefusedWritesNothing(t *testing.T) {
	sh := newShop(t)
	qa, alpha, xperia := sh.sample.Users["QA One"].ID, sh.sample.Products["Alpha 7 IV"], sh.sample.Products["Xperia 1 V"]
	lines := []OrderItem{{ProductID: xperia.ID, Quantity: 1, PriceCents: 119999}, {ProductID: alpha.ID, Quantity: 5, PriceCents: 249999}}
	if _, err := sh.PlaceOrder(ctx, qa, lines); !errors.Is(err, ErrOutOfStock) {
		t.Fatalf("5 cameras of 4: %v, want ErrOutOfStock", err)
	}
	if _, err := sh.PlaceOrder(ctx, qa, []OrderItem{{ProductID: qa, Quantity: 1, PriceCents: 100}}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("an unknown product: %v, want ErrNotFound", err)
	}
	if _, err := sh.PlaceOrder(ctx, alpha.ID, lines[:1]); !errors.Is(err, ErrNotFound) {
		t.Fatalf("an unknown user: %v, want ErrNotFound", err)
	}
	got, err := sh.ListUserOrders(ctx, qa, Ascending)
	same(t, got, err)
	stock(t, sh, xperia.ID, 8)
	stock(t, sh, alpha.ID, 4)
}

func stock(t *testing.T, sh *shop, productID string, want int) {
	t.Helper()
	p, err := sh.GetProductByID(ctx, productID)
	if err != nil || p.Stock != want {
		t.Fatalf("%s: stock %d (%v), want %d", p.Name, p.Stock, err, want)
	}
}
