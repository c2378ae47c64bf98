package main

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

const categoryKind = "category"

// firstBatch is how many items the first read of a category takes: the
// category and its first ten ingredients.
const firstBatch = 11

// CreateCategory stores a new category and reserves its name.
func (s *Store) CreateCategory(ctx context.Context, c Category) error {
	c.IngredientCount = 0
	return s.create(ctx, creation{kind: categoryKind, id: c.ID, name: c.Name,
		nameKey: categoryName(c.Name), keys: categoryKeys(c), entity: c})
}

// GetCategory reads a category by its id: its key is its id.
func (s *Store) GetCategory(ctx context.Context, id string) (Category, error) {
	var c Category
	return c, s.get(ctx, self(categoryPrefix+id), categoryKind, id, &c)
}

// GetCategoryByName reads a category by its name, from GSI2.
func (s *Store) GetCategoryByName(ctx context.Context, name string) (Category, error) {
	var c Category
	return c, s.lookup(ctx, GSI2, categoryName(name), categoryKind, fmt.Sprintf("%q", name), &c)
}

// RenameCategory moves the category's name record and renames it.
func (s *Store) RenameCategory(ctx context.Context, id, name string) error {
	c, err := s.GetCategory(ctx, id)
	if err != nil {
		return err
	}
	return s.rename(ctx, renaming{kind: categoryKind, id: id, entity: categoryKeys(c),
		from: c.Name, to: name, fromKey: categoryName(c.Name), toKey: categoryName(name)})
}

// SetCategoryShopOrder moves a category in the shopping order.
func (s *Store) SetCategoryShopOrder(ctx context.Context, id string, order int) error {
	return s.updateItem(ctx, self(categoryPrefix+id), "SET shopOrder = :order", "attribute_exists(PK)",
		vals{":order": num(order)}, failure(ErrNotFound, categoryKind, id))
}

// DeleteCategory deletes a category that has no ingredients, and frees
// its name.
func (s *Store) DeleteCategory(ctx context.Context, id string) error {
	c, err := s.GetCategory(ctx, id)
	if err != nil {
		return err
	}
	return s.remove(ctx, removal{kind: categoryKind, id: id, nameKey: categoryName(c.Name), entity: categoryKeys(c),
		expect: vals{"name": str(c.Name), "ingredientCount": zero}, busy: c.IngredientCount > 0})
}

// CategoryBatch is a category and the first batch of its ingredients.
type CategoryBatch struct {
	Category    Category
	Ingredients []Ingredient // at most ten, highest id first
	More        bool         // the category has more ingredients than these
}

// GetCategoryAndIngredients reads a category and its first ten
// ingredients in one Query: its collection read backwards, so the
// category (sort key CATEGORY#) comes before its ingredients (#INGREDIENT#).
func (s *Store) GetCategoryAndIngredients(ctx context.Context, id string) (CategoryBatch, error) {
	out, err := s.db.Query(ctx, &dynamodb.QueryInput{TableName: &s.table,
		KeyConditionExpression:    aws.String("PK = :pk"),
		ExpressionAttributeValues: vals{":pk": str(categoryPrefix + id)},
		ScanIndexForward:          aws.Bool(false), Limit: aws.Int32(firstBatch)})
	if err != nil {
		return CategoryBatch{}, err
	}
	var b CategoryBatch
	if len(out.Items) == 0 || !isHead(out.Items[0]) {
		return b, failure(ErrNotFound, categoryKind, id)
	}
	if err := attributevalue.UnmarshalMap(out.Items[0], &b.Category); err != nil {
		return b, err
	}
	err = attributevalue.UnmarshalListOfMaps(out.Items[1:], &b.Ingredients)
	b.More = b.Category.IngredientCount > len(b.Ingredients)
	return b, err
}

// IngredientsByCategory reads all of a category's ingredients, in id
// order, without the category.
func (s *Store) IngredientsByCategory(ctx context.Context, categoryID string) ([]Ingredient, error) {
	items, err := s.query(ctx, &dynamodb.QueryInput{
		KeyConditionExpression: aws.String("PK = :pk AND begins_with(SK, :child)"),
		ExpressionAttributeValues: vals{":pk": str(categoryPrefix + categoryID),
			":child": str(childIngredient)}})
	if err != nil {
		return nil, err
	}
	var is []Ingredient
	return is, attributevalue.UnmarshalListOfMaps(items, &is)
}
