package main

import "time"

// Every item carries pk (its shard) and sk (its system key). Entities a
// user can name also carry id, their business id, and tp, their type
// letter: with both they are projected into the sparse IdLookupIndex.
// Parts of an entity (an order's items) carry neither.

// Profile is the one item of a user's profile shard, keyed U#<uuid> in
// both pk and sk.
type Profile struct {
	PK        string    `dynamodbav:"pk"`
	SK        string    `dynamodbav:"sk"`
	Handle    string    `dynamodbav:"id"` // the login name users see
	Type      string    `dynamodbav:"tp"`
	Name      string    `dynamodbav:"name"`
	Email     string    `dynamodbav:"email"`
	Phones    []string  `dynamodbav:"phones"`
	Addresses []Address `dynamodbav:"addresses"`
}

// Address is a delivery address, kept in the profile as a map.
type Address struct {
	Label    string `dynamodbav:"label"`
	Street   string `dynamodbav:"street"`
	City     string `dynamodbav:"city"`
	Postcode string `dynamodbav:"postcode"`
	Country  string `dynamodbav:"country"`
}

// Order is an order's metadata item in the user's #O shard. Its items
// follow it in the same partition, sorted right after it.
type Order struct {
	PK     string      `dynamodbav:"pk"`
	Key    Key         `dynamodbav:"sk"`
	Number string      `dynamodbav:"id"` // the order number users see
	Type   string      `dynamodbav:"tp"`
	Placed time.Time   `dynamodbav:"placed"`
	Status string      `dynamodbav:"status"`
	Total  int64       `dynamodbav:"total"` // cents
	Items  []OrderItem `dynamodbav:"-"`
}

// OrderItem is one line of an order, sk O#<ULID>#001 and up.
type OrderItem struct {
	PK        string `dynamodbav:"pk"`
	SK        string `dynamodbav:"sk"`
	Product   Key    `dynamodbav:"product"`
	Name      string `dynamodbav:"name"`
	Qty       int    `dynamodbav:"qty"`
	UnitPrice int64  `dynamodbav:"unitPrice"` // cents
}

// Cart is a shopping cart in the user's #C shard. Its ttl is pushed back
// on every change; an abandoned cart expires and DynamoDB deletes it.
type Cart struct {
	PK      string     `dynamodbav:"pk"`
	Key     Key        `dynamodbav:"sk"`
	Type    string     `dynamodbav:"tp"`
	Lines   []CartLine `dynamodbav:"lines"`
	Rev     int        `dynamodbav:"rev"` // counts changes, so checkout sees a concurrent one
	Expires time.Time  `dynamodbav:"ttl,unixtime"`
}

// CartLine is a product in a cart, priced when it was added.
type CartLine struct {
	Product   Key    `dynamodbav:"product"`
	Name      string `dynamodbav:"name"`
	Qty       int    `dynamodbav:"qty"`
	UnitPrice int64  `dynamodbav:"unitPrice"` // cents
}

// Reward is a bonus transaction in the user's #R shard.
type Reward struct {
	PK      string    `dynamodbav:"pk"`
	Key     Key       `dynamodbav:"sk"`
	Type    string    `dynamodbav:"tp"`
	Points  int       `dynamodbav:"points"`
	Reason  string    `dynamodbav:"reason"`
	Granted time.Time `dynamodbav:"granted"`
}

// total is what the lines cost, in cents.
func total(lines []CartLine) int64 {
	var t int64
	for _, l := range lines {
		t += int64(l.Qty) * l.UnitPrice
	}
	return t
}
