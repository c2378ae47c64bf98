package main

import (
	"context"
	"time"
)

// The sample tenants; the first has the design's own example UUID.
const (
	Rabinovich UserID = "550e8400-e29b-41d4-a716-446655440000"
	Okafor     UserID = "7c9e6679-7425-40de-944b-e07fc1f90ae7"
)

// The sample catalogue, one of each, priced in cents.
var (
	Beans   = CartLine{Product: MustKey("I#01JZ0ZP2K8M3Q4R5S6T7V8W9X0"), Name: "Espresso beans 1 kg", Qty: 1, UnitPrice: 2450}
	Dripper = CartLine{Product: MustKey("I#01JZ0ZP2K8M3Q4R5S6T7V8W9X1"), Name: "Ceramic dripper", Qty: 1, UnitPrice: 3200}
	Filters = CartLine{Product: MustKey("I#01JZ0ZP2K8M3Q4R5S6T7V8W9X2"), Name: "Paper filters x100", Qty: 1, UnitPrice: 650}
	Grinder = CartLine{Product: MustKey("I#01JZ0ZP2K8M3Q4R5S6T7V8W9X3"), Name: "Burr grinder", Qty: 1, UnitPrice: 12900}
	Kettle  = CartLine{Product: MustKey("I#01JZ0ZP2K8M3Q4R5S6T7V8W9X4"), Name: "Gooseneck kettle", Qty: 1, UnitPrice: 5400}
)

func times(l CartLine, n int) CartLine {
	l.Qty = n
	return l
}

var sampleProfiles = map[UserID]Profile{
	Rabinovich: {Handle: "rabinovich", Name: "Lev Rabinovich", Email: "lev@rabinovich.example",
		Phones:    []string{"+33 6 12 34 56 78"},
		Addresses: []Address{{Label: "home", Street: "12 Rue des Martyrs", City: "Paris", Postcode: "75009", Country: "FR"}}},
	Okafor: {Handle: "okafor", Name: "Adaeze Okafor", Email: "adaeze@okafor.example",
		Phones: []string{"+44 7700 900123", "+44 161 496 0000"},
		Addresses: []Address{{Label: "home", Street: "4 Canal Street", City: "Manchester", Postcode: "M1 3HE", Country: "GB"},
			{Label: "work", Street: "1 Piccadilly Gardens", City: "Manchester", Postcode: "M1 1RG", Country: "GB"}}},
}

// sampleOrders are the carts checked out, in this order, a day apart.
var sampleOrders = []struct {
	user  UserID
	lines []CartLine
}{
	{Rabinovich, []CartLine{times(Beans, 2), Filters}},
	{Okafor, []CartLine{Kettle, times(Beans, 3)}},
	{Rabinovich, []CartLine{Grinder}},
	{Rabinovich, []CartLine{Dripper, times(Filters, 2), Kettle}},
}

// Sample is what LoadSample wrote, oldest first, as tests expect to read
// it back.
type Sample struct {
	Orders  map[UserID][]Order
	Rewards map[UserID][]Reward
	Cart    Cart // Rabinovich's cart, left open
}

// LoadSample writes two users with a welcome bonus each, four orders a
// day apart, each through a cart as a shopper makes it, moves the first
// two on, and leaves one cart open. pause(d) is where d passes: tests
// move their clock, main passes nil and lets real time run. When the
// users exist already it returns ErrUserExists and writes nothing.
func LoadSample(ctx context.Context, s *Store, pause func(time.Duration)) (*Sample, error) {
	if pause == nil {
		pause = func(time.Duration) {}
	}
	smp := &Sample{Orders: map[UserID][]Order{}, Rewards: map[UserID][]Reward{}}
	for _, u := range []UserID{Rabinovich, Okafor} {
		if err := smp.signUp(ctx, s, u); err != nil {
			return nil, err
		}
	}
	for _, o := range sampleOrders {
		pause(24 * time.Hour)
		if err := smp.order(ctx, s, o.user, o.lines); err != nil {
			return nil, err
		}
	}
	if err := smp.progress(ctx, s); err != nil {
		return nil, err
	}
	pause(2 * time.Hour)
	var err error
	smp.Cart, err = shop(ctx, s.As(Rabinovich), []CartLine{Beans})
	return smp, err
}

func (smp *Sample) signUp(ctx context.Context, s *Store, u UserID) error {
	if err := s.CreateUser(ctx, u, sampleProfiles[u]); err != nil {
		return err
	}
	r, err := s.GrantBonus(ctx, u, 100, "Welcome bonus")
	smp.Rewards[u] = append(smp.Rewards[u], r)
	return err
}

func (smp *Sample) order(ctx context.Context, s *Store, u UserID, lines []CartLine) error {
	cart, err := shop(ctx, s.As(u), lines)
	if err != nil {
		return err
	}
	o, r, err := s.PlaceOrder(ctx, u, cart.Key)
	smp.Orders[u] = append(smp.Orders[u], o)
	smp.Rewards[u] = append(smp.Rewards[u], r)
	return err
}

// progress delivers Rabinovich's first order and ships the second.
func (smp *Sample) progress(ctx context.Context, s *Store) error {
	orders := smp.Orders[Rabinovich]
	for i, status := range []string{StatusDelivered, StatusShipped} {
		if err := s.SetOrderStatus(ctx, orders[i].Key, status); err != nil {
			return err
		}
		orders[i].Status = status
	}
	return nil
}

// shop opens a cart and adds the lines to it, as the shopper's app does.
func shop(ctx context.Context, s *Session, lines []CartLine) (Cart, error) {
	cart, err := s.OpenCart(ctx)
	for _, l := range lines {
		if err != nil {
			break
		}
		cart, err = s.AddToCart(ctx, cart.Key, l)
	}
	return cart, err
}
