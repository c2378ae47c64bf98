package main

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey/examples/internal/capacity"
)

// metered is sh's store on a client that reports what each request
// consumes.
func (sh *shop) metered() (*Store, *capacity.Meter) {
	s := *sh.Store
	db, meter := capacity.Metered(sh.db)
	s.db = db
	return &s, meter
}

// TestListOrdersByStatusPartiQL: the SELECT on "shop"."GSI1" reads the
// orders ListOrdersByStatus reads, in both directions, at the same cost.
func TestListOrdersByStatusPartiQL(t *testing.T) {
	sh := newShop(t)
	s, meter := sh.metered()
	for _, dir := range []Direction{Ascending, Descending} {
		for _, status := range []OrderStatus{StatusDelivered, StatusPending, StatusShipped, StatusCancelled} {
			native, err := s.ListOrdersByStatus(ctx, status, sampleStart, dir)
			if err != nil {
				t.Fatal(err)
			}
			nativeRCU := meter.Take()
			got, err := s.ListOrdersByStatusPartiQL(ctx, status, sampleStart, dir)
			same(t, got, err, native...)
			capacity.Same(t, "ListOrdersByStatus "+string(status), nativeRCU, meter.Take())
		}
	}
	got, err := s.ListOrdersByStatusPartiQL(ctx, StatusDelivered, sh.sample.Delivered.Add(time.Second), Descending)
	same(t, got, err, sh.orders("chloe-1")...)
}

// TestUpdateOrderStatusPartiQL ships Ana's pending order on two copies of
// the shop, one with each form: the same order comes back, the same item
// is stored (GSI1 keys included), at the same cost.
func TestUpdateOrderStatusPartiQL(t *testing.T) {
	native, partiql := newShop(t), newShop(t)
	ns, nmeter := native.metered()
	ps, pmeter := partiql.metered()
	pending := native.sample.Orders["ana-2"]
	want, err := ns.UpdateOrderStatus(ctx, pending.UserID, pending.ID, StatusShipped)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ps.UpdateOrderStatusPartiQL(ctx, pending.UserID, pending.ID, StatusShipped)
	same(t, []Order{got}, err, want)
	capacity.Same(t, "UpdateOrderStatus", nmeter.Take(), pmeter.Take())
	nlist, err := ns.ListOrdersByStatus(ctx, StatusShipped, sampleStart, Ascending)
	if err != nil {
		t.Fatal(err)
	}
	plist, err := ps.ListOrdersByStatus(ctx, StatusShipped, sampleStart, Ascending)
	same(t, plist, err, nlist...)
	if !reflect.DeepEqual(plist[len(plist)-1], want) {
		t.Fatalf("the shipped order is not last in GSI1's SHIPPED partition: %s", labels(plist))
	}
	if _, err := ps.UpdateOrderStatusPartiQL(ctx, pending.UserID, partiql.sample.Orders["ben-1"].ID, StatusDelivered); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Ben's order under Ana: %v, want ErrNotFound", err)
	}
	if _, err := ps.GetUserOrderByID(ctx, pending.UserID, partiql.sample.Orders["ben-1"].ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a refused PartiQL update created an order: %v", err)
	}
}
