package main

import (
	"fmt"
	"strings"
	"time"
)

// User is a shop customer. PasswordHash is whatever the caller's
// authentication layer produced; this layer never sees a password.
type User struct {
	ID           string    `dynamodbav:"id"`
	Name         string    `dynamodbav:"name"`
	Email        string    `dynamodbav:"email"`
	PasswordHash string    `dynamodbav:"password_hash"`
	CreatedAt    time.Time `dynamodbav:"created_at"`
	UpdatedAt    time.Time `dynamodbav:"updated_at"`
}

// Category groups products, e.g. "Headphones".
type Category struct {
	ID        string    `dynamodbav:"id"`
	Name      string    `dynamodbav:"name"`
	CreatedAt time.Time `dynamodbav:"created_at"`
	UpdatedAt time.Time `dynamodbav:"updated_at"`
}

// Brand makes products, e.g. "Sony".
type Brand struct {
	ID        string    `dynamodbav:"id"`
	Name      string    `dynamodbav:"name"`
	CreatedAt time.Time `dynamodbav:"created_at"`
	UpdatedAt time.Time `dynamodbav:"updated_at"`
}

// Product belongs to one category and one brand. Prices are whole cents:
// the design's float would round.
type Product struct {
	ID         string    `dynamodbav:"id"`
	Name       string    `dynamodbav:"name"`
	PriceCents int64     `dynamodbav:"price_cents"`
	Stock      int       `dynamodbav:"stock"`
	CategoryID string    `dynamodbav:"category_id"`
	BrandID    string    `dynamodbav:"brand_id"`
	CreatedAt  time.Time `dynamodbav:"created_at"`
	UpdatedAt  time.Time `dynamodbav:"updated_at"`
}

// OrderStatus is where an order is in its life; it is the partition an
// order sits in on GSI1.
type OrderStatus string

// The statuses an order moves through.
const (
	StatusPending   OrderStatus = "PENDING"
	StatusShipped   OrderStatus = "SHIPPED"
	StatusDelivered OrderStatus = "DELIVERED"
	StatusCancelled OrderStatus = "CANCELLED"
)

// Order is one user's purchase. Its lines live inside it: no access
// pattern reads a line on its own, and the order is written and read whole.
type Order struct {
	ID         string      `dynamodbav:"id"`
	UserID     string      `dynamodbav:"user_id"`
	Status     OrderStatus `dynamodbav:"status"`
	TotalCents int64       `dynamodbav:"total_price_cents"`
	Items      []OrderItem `dynamodbav:"items"`
	CreatedAt  time.Time   `dynamodbav:"created_at"`
	UpdatedAt  time.Time   `dynamodbav:"updated_at"`
}

// OrderItem is one line of an order, at the price the customer was shown.
type OrderItem struct {
	ProductID  string `dynamodbav:"product_id"`
	Quantity   int    `dynamodbav:"quantity"`
	PriceCents int64  `dynamodbav:"price_cents"`
}

// Keys are the key attributes an item carries, by the design's tables.
// Index keys an entity does not have stay absent, so the item is not in
// that index (DynamoDB also refuses an empty string as an index key).
type Keys struct {
	PK     string `dynamodbav:"PK"`
	SK     string `dynamodbav:"SK"`
	SKU    string `dynamodbav:"SKU,omitempty"`
	GSI1PK string `dynamodbav:"GSI1PK,omitempty"`
	GSI1SK string `dynamodbav:"GSI1SK,omitempty"`
	GSI2PK string `dynamodbav:"GSI2PK,omitempty"`
	GSI2SK string `dynamodbav:"GSI2SK,omitempty"`
}

// Partition keys of the fixed entity groups.
const (
	pkUsers      = "USER"
	pkCategories = "CAT"
	pkBrands     = "BRAND"
	pkProducts   = "PROD"
)

func userSK(id string) string     { return "USER#" + id }
func categorySK(id string) string { return "CAT#" + id }
func brandSK(id string) string    { return "BRAND#" + id }
func productSK(id string) string  { return "PRO#" + id }
func ordersPK(userID string) string {
	return "USER#" + userID
}
func orderSK(id string) string { return "ORDER#" + id }

// emailKey is the LSI (and GSI1) sort key of a user. Emails are compared
// in lower case, as mail systems treat them.
func emailKey(email string) string { return "EMAIL#" + strings.ToLower(email) }

func categoryNameKey(name string) string { return "CAT#NAME#" + name }
func brandNameKey(name string) string    { return "BRAND#NAME#" + name }
func statusKey(s OrderStatus) string     { return "ORDER#STATUS#" + string(s) }

// atKey is the design's AT#<epoch seconds>: ten digits until 2286, so
// string order is time order.
func atKey(t time.Time) string { return fmt.Sprintf("AT#%d", t.Unix()) }

func userKeys(u User) Keys {
	return Keys{PK: pkUsers, SK: userSK(u.ID), SKU: emailKey(u.Email), GSI1PK: pkUsers, GSI1SK: emailKey(u.Email)}
}

func categoryKeys(c Category) Keys {
	return Keys{PK: pkCategories, SK: categorySK(c.ID), SKU: categoryNameKey(c.Name)}
}

func brandKeys(b Brand) Keys {
	return Keys{PK: pkBrands, SK: brandSK(b.ID), SKU: brandNameKey(b.Name)}
}

// productKeys place a product under its brand in GSI1 and under its
// category in GSI2, each sorted by the other parent, then creation time.
func productKeys(p Product) Keys {
	return Keys{PK: pkProducts, SK: productSK(p.ID),
		GSI1PK: "BRAND#" + p.BrandID, GSI1SK: "CAT#" + p.CategoryID + "#" + atKey(p.CreatedAt),
		GSI2PK: "CAT#" + p.CategoryID, GSI2SK: "BRAND#" + p.BrandID + "#" + atKey(p.CreatedAt)}
}

func orderKeys(o Order) Keys {
	return Keys{PK: ordersPK(o.UserID), SK: orderSK(o.ID), GSI1PK: statusKey(o.Status), GSI1SK: atKey(o.UpdatedAt)}
}
