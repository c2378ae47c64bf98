package main

import "context"

// CreateCategory adds a category with a new KSUID.
func (s *Store) CreateCategory(ctx context.Context, name string) (Category, error) {
	now, id, err := s.stamp()
	if err != nil {
		return Category{}, err
	}
	c := Category{ID: id, Name: name, CreatedAt: now, UpdatedAt: now}
	return c, s.create(ctx, categoryKeys(c), "Category", c)
}

// GetCategoryByID reads PK="CAT" AND SK="CAT#<id>" from the table.
func (s *Store) GetCategoryByID(ctx context.Context, id string) (Category, error) {
	var c Category
	return c, s.get(ctx, pkCategories, categorySK(id), &c)
}

// ListCategories queries PK="CAT" on the table: every category, by created_at.
func (s *Store) ListCategories(ctx context.Context, dir Direction) ([]Category, error) {
	return queryAll[Category](ctx, s, query{cond: "PK = :pk", values: values(":pk", pkCategories), dir: dir})
}

// ListCategoriesByNamePrefix queries the LSI for the categories whose name
// starts with prefix, by name: PK="CAT" AND begins_with(SKU, "CAT#NAME#<prefix>").
func (s *Store) ListCategoriesByNamePrefix(ctx context.Context, prefix string, dir Direction) ([]Category, error) {
	return queryAll[Category](ctx, s, query{index: indexLSI, cond: "PK = :pk AND begins_with(SKU, :prefix)",
		values: values(":pk", pkCategories, ":prefix", categoryNameKey(prefix)), dir: dir})
}

// CreateBrand adds a brand with a new KSUID.
func (s *Store) CreateBrand(ctx context.Context, name string) (Brand, error) {
	now, id, err := s.stamp()
	if err != nil {
		return Brand{}, err
	}
	b := Brand{ID: id, Name: name, CreatedAt: now, UpdatedAt: now}
	return b, s.create(ctx, brandKeys(b), "Brand", b)
}

// GetBrandByID reads PK="BRAND" AND SK="BRAND#<id>" from the table.
func (s *Store) GetBrandByID(ctx context.Context, id string) (Brand, error) {
	var b Brand
	return b, s.get(ctx, pkBrands, brandSK(id), &b)
}

// ListBrands queries PK="BRAND" on the table: every brand, by created_at.
func (s *Store) ListBrands(ctx context.Context, dir Direction) ([]Brand, error) {
	return queryAll[Brand](ctx, s, query{cond: "PK = :pk", values: values(":pk", pkBrands), dir: dir})
}

// ListBrandsByNamePrefix queries the LSI for the brands whose name starts
// with prefix, by name: PK="BRAND" AND begins_with(SKU, "BRAND#NAME#<prefix>").
func (s *Store) ListBrandsByNamePrefix(ctx context.Context, prefix string, dir Direction) ([]Brand, error) {
	return queryAll[Brand](ctx, s, query{index: indexLSI, cond: "PK = :pk AND begins_with(SKU, :prefix)",
		values: values(":pk", pkBrands, ":prefix", brandNameKey(prefix)), dir: dir})
}
