package main

import (
	"errors"
	"testing"
)

func TestGetCategoryByID(t *testing.T) {
	sh := newShop(t)
	phones := sh.sample.Categories["Phones"]
	got, err := sh.GetCategoryByID(ctx, phones.ID)
	same(t, []Category{got}, err, phones)
	sh.served(t, getItem())
	if _, err := sh.GetCategoryByID(ctx, sh.sample.Brands["Sony"].ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a brand's id as a category's: %v, want ErrNotFound", err)
	}
}

func TestListCategories(t *testing.T) {
	sh := newShop(t)
	got, err := sh.ListCategories(ctx, Ascending)
	same(t, got, err, sh.categories("Phones", "Headphones", "Laptops", "Cameras", "Laptop Accessories")...)
	sh.served(t, queryOn("", "PK = :pk"))
	got, err = sh.ListCategories(ctx, Descending)
	same(t, got, err, sh.categories("Laptop Accessories", "Cameras", "Laptops", "Headphones", "Phones")...)
}

// TestListCategoriesByNamePrefix lists by name on the LSI, not by
// creation: "Laptop Accessories" sorts before "Laptops".
func TestListCategoriesByNamePrefix(t *testing.T) {
	sh := newShop(t)
	got, err := sh.ListCategoriesByNamePrefix(ctx, "Lap", Ascending)
	same(t, got, err, sh.categories("Laptop Accessories", "Laptops")...)
	sh.served(t, queryOn("LSI", "PK = :pk AND begins_with(SKU, :prefix)"))
	got, err = sh.ListCategoriesByNamePrefix(ctx, "lap", Ascending)
	same(t, got, err) // names keep their case, as the design's "CatX" does
}

func TestGetBrandByID(t *testing.T) {
	sh := newShop(t)
	sony := sh.sample.Brands["Sony"]
	got, err := sh.GetBrandByID(ctx, sony.ID)
	same(t, []Brand{got}, err, sony)
	sh.served(t, getItem())
	if _, err := sh.GetBrandByID(ctx, sh.sample.Categories["Phones"].ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a category's id as a brand's: %v, want ErrNotFound", err)
	}
}

func TestListBrands(t *testing.T) {
	sh := newShop(t)
	got, err := sh.ListBrands(ctx, Ascending)
	same(t, got, err, sh.brands("Sony", "Apple", "Samsung", "Sennheiser")...)
	sh.served(t, queryOn("", "PK = :pk"))
	got, err = sh.ListBrands(ctx, Descending)
	same(t, got, err, sh.brands("Sennheiser", "Samsung", "Apple", "Sony")...)
}

func TestListBrandsByNamePrefix(t *testing.T) {
	sh := newShop(t)
	got, err := sh.ListBrandsByNamePrefix(ctx, "S", Ascending)
	same(t, got, err, sh.brands("Samsung", "Sennheiser", "Sony")...)
	sh.served(t, queryOn("LSI", "PK = :pk AND begins_with(SKU, :prefix)"))
	got, err = sh.ListBrandsByNamePrefix(ctx, "Se", Descending)
	same(t, got, err, sh.brands("Sennheiser")...)
}
