package main

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// CreateProduct adds a product of an existing brand and category. The
// put and the checks that both exist are one transaction, so a product
// never points at a brand or category that is not there.
func (s *Store) CreateProduct(ctx context.Context, name, brandID, categoryID string, priceCents int64, stock int) (Product, error) {
	p, err := s.newProduct(name, brandID, categoryID, priceCents, stock)
	if err != nil {
		return Product{}, err
	}
	av, err := item(productKeys(p), "Product", p)
	if err != nil {
		return Product{}, err
	}
	_, err = s.db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String(s.table), Item: av, ConditionExpression: aws.String("attribute_not_exists(PK)")}},
		s.mustExist(pkBrands, brandSK(brandID)),
		s.mustExist(pkCategories, categorySK(categoryID)),
	}})
	return p, transactionError(err, ErrExists, ErrNotFound, ErrNotFound)
}

// newProduct is a product with a new id, created now, not yet written.
func (s *Store) newProduct(name, brandID, categoryID string, priceCents int64, stock int) (Product, error) {
	now, id, err := s.stamp()
	return Product{ID: id, Name: name, PriceCents: priceCents, Stock: stock, CategoryID: categoryID,
		BrandID: brandID, CreatedAt: now, UpdatedAt: now}, err
}

// GetProductByID reads PK="PROD" AND SK="PRO#<id>" from the table.
func (s *Store) GetProductByID(ctx context.Context, id string) (Product, error) {
	var p Product
	return p, s.get(ctx, pkProducts, productSK(id), &p)
}

// ListProducts queries PK="PROD" on the table: every product, by created_at.
func (s *Store) ListProducts(ctx context.Context, dir Direction) ([]Product, error) {
	return queryAll[Product](ctx, s, query{cond: "PK = :pk", values: values(":pk", pkProducts), dir: dir})
}

// ListProductsByBrand queries GSI1 for GSI1PK="BRAND#<id>": a brand's
// products by category (KSUIDs, so in the categories' creation order),
// then by their own created_at.
func (s *Store) ListProductsByBrand(ctx context.Context, brandID string, dir Direction) ([]Product, error) {
	return queryAll[Product](ctx, s, query{index: indexGSI1, cond: "GSI1PK = :pk",
		values: values(":pk", "BRAND#"+brandID), dir: dir})
}

// ListProductsByBrandAndCategory queries GSI1 for GSI1PK="BRAND#<brand>"
// AND begins_with(GSI1SK, "CAT#<category>#"): by created_at.
func (s *Store) ListProductsByBrandAndCategory(ctx context.Context, brandID, categoryID string, dir Direction) ([]Product, error) {
	return queryAll[Product](ctx, s, query{index: indexGSI1, cond: "GSI1PK = :pk AND begins_with(GSI1SK, :prefix)",
		values: values(":pk", "BRAND#"+brandID, ":prefix", "CAT#"+categoryID+"#"), dir: dir})
}

// ListProductsByBrandAndCategorySince queries GSI3 for brand_id=<brand>
// AND category_id=<category> AND created_at >= since: by created_at. The
// multi-attribute key compares each attribute on its own, so no prefix
// string has to be built, and the time bound is a plain condition on the
// product's own created_at (attributevalue writes times as RFC 3339 in
// UTC here, which sorts as time does for the sample's whole seconds).
func (s *Store) ListProductsByBrandAndCategorySince(ctx context.Context, brandID, categoryID string, since time.Time, dir Direction) ([]Product, error) {
	at, err := attributevalue.Marshal(since)
	if err != nil {
		return nil, err
	}
	vals := values(":b", brandID, ":c", categoryID)
	vals[":since"] = at
	return queryAll[Product](ctx, s, query{index: indexGSI3, cond: "brand_id = :b AND category_id = :c AND created_at >= :since",
		values: vals, dir: dir})
}

// ListProductsByCategory queries GSI2 for GSI2PK="CAT#<id>": a category's
// products by brand (in the brands' creation order), then by created_at.
func (s *Store) ListProductsByCategory(ctx context.Context, categoryID string, dir Direction) ([]Product, error) {
	return queryAll[Product](ctx, s, query{index: indexGSI2, cond: "GSI2PK = :pk",
		values: values(":pk", "CAT#"+categoryID), dir: dir})
}

// ListProductsByCategoryAndBrand queries GSI2 for GSI2PK="CAT#<category>"
// AND begins_with(GSI2SK, "BRAND#<brand>#"): by created_at.
func (s *Store) ListProductsByCategoryAndBrand(ctx context.Context, categoryID, brandID string, dir Direction) ([]Product, error) {
	return queryAll[Product](ctx, s, query{index: indexGSI2, cond: "GSI2PK = :pk AND begins_with(GSI2SK, :prefix)",
		values: values(":pk", "CAT#"+categoryID, ":prefix", "BRAND#"+brandID+"#"), dir: dir})
}
