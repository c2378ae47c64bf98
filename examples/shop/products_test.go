package main

import (
	"errors"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey/examples/internal/runner"
)

func TestGetProductByID(t *testing.T) {
	sh := newShop(t)
	got, err := sh.GetProductByID(ctx, sh.sample.Products["Alpha 7 IV"].ID)
	same(t, []Product{got}, err, sh.products("Alpha 7 IV")...)
	sh.served(t, getItem())
	if got.PriceCents != 249999 || got.Stock != 4 || got.BrandID != sh.sample.Brands["Sony"].ID {
		t.Fatalf("Alpha 7 IV reads back as %+v; want 2499.99, 4 left after Chloe's order, by Sony", got)
	}
}

func TestListProducts(t *testing.T) {
	sh := newShop(t)
	got, err := sh.ListProducts(ctx, Descending)
	same(t, got, err, sh.products("iPhone 15 Pro", "WF-1000XM5", "Magic Keyboard", "Xperia 1 V", "AirPods Pro", "Alpha 7 IV",
		"Momentum 4", "iPhone 15", "MacBook Air 13", "WH-1000XM5", "Galaxy S24")...)
	sh.served(t, queryOn("", "PK = :pk"))
}

// TestListProductsByBrand reads Sony's products on GSI1: grouped by
// category in the categories' creation order (Phones, Headphones,
// Cameras), then by the products' own creation.
func TestListProductsByBrand(t *testing.T) {
	sh := newShop(t)
	got, err := sh.ListProductsByBrand(ctx, sh.sample.Brands["Sony"].ID, Ascending)
	same(t, got, err, sh.products("Xperia 1 V", "WH-1000XM5", "WF-1000XM5", "Alpha 7 IV")...)
	sh.served(t, queryOn("GSI1", "GSI1PK = :pk"))
	got, err = sh.ListProductsByBrand(ctx, sh.sample.Brands["Samsung"].ID, Descending)
	same(t, got, err, sh.products("Galaxy S24")...)
}

func TestListProductsByBrandAndCategory(t *testing.T) {
	sh := newShop(t)
	sony, headphones := sh.sample.Brands["Sony"].ID, sh.sample.Categories["Headphones"].ID
	got, err := sh.ListProductsByBrandAndCategory(ctx, sony, headphones, Ascending)
	same(t, got, err, sh.products("WH-1000XM5", "WF-1000XM5")...)
	sh.served(t, queryOn("GSI1", "GSI1PK = :pk AND begins_with(GSI1SK, :prefix)"))
	got, err = sh.ListProductsByBrandAndCategory(ctx, sony, headphones, Descending)
	same(t, got, err, sh.products("WF-1000XM5", "WH-1000XM5")...)
	got, err = sh.ListProductsByBrandAndCategory(ctx, sony, sh.sample.Categories["Laptops"].ID, Ascending)
	same(t, got, err)
}

// TestListProductsByBrandAndCategorySince reads Sony's headphones on the
// multi-attribute GSI3: those created at or after a time, by created_at.
func TestListProductsByBrandAndCategorySince(t *testing.T) {
	sh := newShop(t)
	sony, headphones := sh.sample.Brands["Sony"].ID, sh.sample.Categories["Headphones"].ID
	got, err := sh.ListProductsByBrandAndCategorySince(ctx, sony, headphones, time.Time{}, Ascending)
	same(t, got, err, sh.products("WH-1000XM5", "WF-1000XM5")...)
	sh.served(t, queryOn("GSI3", "brand_id = :b AND category_id = :c AND created_at >= :since"))
	since := sh.sample.Products["WF-1000XM5"].CreatedAt
	got, err = sh.ListProductsByBrandAndCategorySince(ctx, sony, headphones, since, Descending)
	same(t, got, err, sh.products("WF-1000XM5")...)
	got, err = sh.ListProductsByBrandAndCategorySince(ctx, sony, headphones, since.Add(time.Second), Ascending)
	same(t, got, err)
}

// TestListProductsByCategory reads the headphones on GSI2: by brand in
// the brands' creation order (Sony, Apple, Sennheiser), then by creation.
func TestListProductsByCategory(t *testing.T) {
	sh := newShop(t)
	got, err := sh.ListProductsByCategory(ctx, sh.sample.Categories["Headphones"].ID, Ascending)
	same(t, got, err, sh.products("WH-1000XM5", "WF-1000XM5", "AirPods Pro", "Momentum 4")...)
	sh.served(t, queryOn("GSI2", "GSI2PK = :pk"))
}

func TestListProductsByCategoryAndBrand(t *testing.T) {
	sh := newShop(t)
	phones, apple := sh.sample.Categories["Phones"].ID, sh.sample.Brands["Apple"].ID
	got, err := sh.ListProductsByCategoryAndBrand(ctx, phones, apple, Ascending)
	same(t, got, err, sh.products("iPhone 15", "iPhone 15 Pro")...)
	sh.served(t, queryOn("GSI2", "GSI2PK = :pk AND begins_with(GSI2SK, :prefix)"))
	got, err = sh.ListProductsByCategoryAndBrand(ctx, phones, apple, Descending)
	same(t, got, err, sh.products("iPhone 15 Pro", "iPhone 15")...)
}

// TestCreateProductNeedsBrandAndCategory refuses a product of an unknown
// brand or category and writes nothing.
func TestCreateProductNeedsBrandAndCategory(t *testing.T) {
	sh := newShop(t)
	sony, phones := sh.sample.Brands["Sony"].ID, sh.sample.Categories["Phones"].ID
	if _, err := sh.CreateProduct(ctx, "Xperia 5", phones, phones, 89999, 10); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown brand: %v, want ErrNotFound", err)
	}
	if _, err := sh.CreateProduct(ctx, "Xperia 5", sony, sony, 89999, 10); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown category: %v, want ErrNotFound", err)
	}
	got, err := sh.ListProductsByCategoryAndBrand(ctx, phones, sony, Ascending)
	same(t, got, err, sh.products("Xperia 1 V")...)
}

// TestCreateProduct adds a product of an existing brand and category, one
// at a time (the sample loads its products in bulk, LoadProducts): it
// reads back as created and lists with its brand's other phones.
func TestCreateProduct(t *testing.T) {
	sh := newShop(t)
	sony, phones := sh.sample.Brands["Sony"].ID, sh.sample.Categories["Phones"].ID
	created, err := sh.CreateProduct(ctx, "Xperia 5", sony, phones, 89999, 10)
	if err != nil {
		t.Fatal(err)
	}
	sh.served(t, runner.Call{Op: "TransactWriteItems"})
	got, err := sh.GetProductByID(ctx, created.ID)
	same(t, []Product{got}, err, created)
	list, err := sh.ListProductsByCategoryAndBrand(ctx, phones, sony, Ascending)
	same(t, list, err, append(sh.products("Xperia 1 V"), created)...)
}
