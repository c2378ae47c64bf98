package main

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// sampleStart is when the sample shop's timeline begins; each write of
// the sample happens one minute after the one before.
var sampleStart = time.Date(2024, 6, 27, 7, 0, 0, 0, time.UTC)

// sampleStore is a Store whose clock and ids are fixed: the sample is the
// same items on every run, so loading it twice changes nothing.
func sampleStore(db *dynamodb.Client, table string) *Store {
	s := NewStore(db, table)
	next := sampleStart
	s.now = func() time.Time {
		t := next
		next = next.Add(time.Minute)
		return t
	}
	s.entropy = rand.NewChaCha8([32]byte{'s', 'h', 'o', 'p'})
	return s
}

// Sample is the sample shop as loaded, its entities by name (orders by
// a label), for the demo's printout and the tests' expectations.
type Sample struct {
	Users      map[string]User
	Categories map[string]Category
	Brands     map[string]Brand
	Products   map[string]Product
	Orders     map[string]Order
	// Delivered is when the first order was delivered.
	Delivered time.Time
}

type sampleUser struct{ name, email string }

// The users, in sign-up order: two are QA accounts, and one signed up
// with capitals in her email.
var sampleUsers = []sampleUser{
	{"Ana Lima", "ana.lima@example.com"},
	{"QA Two", "test02@gmail.com"},
	{"Ben Okafor", "ben@okafor.dev"},
	{"QA One", "test01@gmail.com"},
	{"Chloe Martin", "Chloe.Martin@Example.com"},
}

var (
	sampleCategories = []string{"Phones", "Headphones", "Laptops", "Cameras", "Laptop Accessories"}
	sampleBrands     = []string{"Sony", "Apple", "Samsung", "Sennheiser"}
)

type sampleProduct struct {
	name, brand, category string
	priceCents            int64
	stock                 int
}

// The products, in the order they were listed in the shop.
var sampleProducts = []sampleProduct{
	{"Galaxy S24", "Samsung", "Phones", 79999, 40},
	{"WH-1000XM5", "Sony", "Headphones", 39999, 25},
	{"MacBook Air 13", "Apple", "Laptops", 109900, 15},
	{"iPhone 15", "Apple", "Phones", 79900, 50},
	{"Momentum 4", "Sennheiser", "Headphones", 34999, 12},
	{"Alpha 7 IV", "Sony", "Cameras", 249999, 5},
	{"AirPods Pro", "Apple", "Headphones", 24900, 60},
	{"Xperia 1 V", "Sony", "Phones", 119999, 8},
	{"Magic Keyboard", "Apple", "Laptop Accessories", 9900, 30},
	{"WF-1000XM5", "Sony", "Headphones", 29999, 20},
	{"iPhone 15 Pro", "Apple", "Phones", 99900, 35},
}

type sampleOrder struct {
	label, user string
	lines       map[string]int // product name: quantity
}

var sampleOrders = []sampleOrder{
	{"ana-1", "Ana Lima", map[string]int{"iPhone 15": 1, "AirPods Pro": 1}},
	{"ben-1", "Ben Okafor", map[string]int{"WH-1000XM5": 1}},
	{"ana-2", "Ana Lima", map[string]int{"Magic Keyboard": 2}},
	{"chloe-1", "Chloe Martin", map[string]int{"Alpha 7 IV": 1}},
	{"ben-2", "Ben Okafor", map[string]int{"Galaxy S24": 1}},
}

type statusChange struct {
	order  string
	status OrderStatus
}

// The orders' lives after they were placed, in time order.
var sampleStatusChanges = []statusChange{
	{"ana-1", StatusShipped}, {"ben-1", StatusShipped}, {"chloe-1", StatusShipped},
	{"ana-1", StatusDelivered}, {"ben-2", StatusCancelled}, {"chloe-1", StatusDelivered},
}

// LoadSample writes the sample shop through s. Entities already there
// from an earlier run (ErrExists, as s makes the same ids) are kept.
func LoadSample(ctx context.Context, s *Store) (*Sample, error) {
	sm := &Sample{Users: map[string]User{}, Categories: map[string]Category{}, Brands: map[string]Brand{},
		Products: map[string]Product{}, Orders: map[string]Order{}}
	for _, load := range []func(context.Context, *Store) error{sm.loadUsers, sm.loadCatalog, sm.loadProducts, sm.loadOrders, sm.changeStatuses} {
		if err := load(ctx, s); err != nil {
			return nil, err
		}
	}
	return sm, nil
}

func (sm *Sample) loadUsers(ctx context.Context, s *Store) error {
	for _, u := range sampleUsers {
		user, err := s.CreateUser(ctx, u.name, u.email, "argon2id$sample")
		if err = kept(err); err != nil {
			return err
		}
		sm.Users[u.name] = user
	}
	return nil
}

func (sm *Sample) loadCatalog(ctx context.Context, s *Store) error {
	for _, name := range sampleCategories {
		c, err := s.CreateCategory(ctx, name)
		if err = kept(err); err != nil {
			return err
		}
		sm.Categories[name] = c
	}
	for _, name := range sampleBrands {
		b, err := s.CreateBrand(ctx, name)
		if err = kept(err); err != nil {
			return err
		}
		sm.Brands[name] = b
	}
	return nil
}

// loadProducts loads the products in bulk (LoadProducts), those not
// there yet: a put replaces, so loading a product again would give back
// the stock the sample's orders took.
func (sm *Sample) loadProducts(ctx context.Context, s *Store) error {
	there, err := s.ListProducts(ctx, Ascending)
	if err != nil {
		return err
	}
	have := idSet(there, Product.id)
	var missing []Product
	for _, p := range sampleProducts {
		prod, err := s.newProduct(p.name, sm.Brands[p.brand].ID, sm.Categories[p.category].ID, p.priceCents, p.stock)
		if err != nil {
			return err
		}
		sm.Products[p.name] = prod
		if !have[prod.ID] {
			missing = append(missing, prod)
		}
	}
	return s.LoadProducts(ctx, missing)
}

func (sm *Sample) loadOrders(ctx context.Context, s *Store) error {
	for _, o := range sampleOrders {
		order, err := s.PlaceOrder(ctx, sm.Users[o.user].ID, sm.orderItems(o))
		if err = kept(err); err != nil {
			return err
		}
		sm.Orders[o.label] = order
		sm.takeStock(order)
	}
	return nil
}

// orderItems are an order's lines in product listing order, at the
// products' prices.
func (sm *Sample) orderItems(o sampleOrder) []OrderItem {
	var items []OrderItem
	for _, p := range sampleProducts {
		if q, ok := o.lines[p.name]; ok {
			items = append(items, OrderItem{ProductID: sm.Products[p.name].ID, Quantity: q, PriceCents: p.priceCents})
		}
	}
	return items
}

// takeStock keeps the sample's products as PlaceOrder left them.
func (sm *Sample) takeStock(o Order) {
	for name, p := range sm.Products {
		for _, it := range o.Items {
			if it.ProductID == p.ID {
				p.Stock -= it.Quantity
				p.UpdatedAt = o.CreatedAt
				sm.Products[name] = p
			}
		}
	}
}

func (sm *Sample) changeStatuses(ctx context.Context, s *Store) error {
	for _, c := range sampleStatusChanges {
		o := sm.Orders[c.order]
		updated, err := s.UpdateOrderStatus(ctx, o.UserID, o.ID, c.status)
		if err != nil {
			return err
		}
		sm.Orders[c.order] = updated
		if c.status == StatusDelivered && sm.Delivered.IsZero() {
			sm.Delivered = updated.UpdatedAt
		}
	}
	return nil
}

// kept treats an entity that is already there as loaded.
func kept(err error) error {
	if errors.Is(err, ErrExists) {
		return nil
	}
	return err
}
