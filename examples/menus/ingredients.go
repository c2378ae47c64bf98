package main

import (
	"context"
	"fmt"
)

const ingredientKind = "ingredient"

// CreateIngredient stores a new ingredient in its category's collection,
// reserves its id and name, and counts it in the category, which must
// exist.
func (s *Store) CreateIngredient(ctx context.Context, i Ingredient) error {
	i.UsedBy = 0
	return s.create(ctx, creation{kind: ingredientKind, id: i.ID, name: i.Name,
		nameKey: ingredientName(i.Name), keys: ingredientKeys(i), entity: i,
		extra: []step{
			s.putID(ingredientIDPrefix+i.ID, ingredientKind, i.ID),
			s.count(self(categoryPrefix+i.CategoryID), "ingredientCount", 1, failure(ErrNotFound, categoryKind, i.CategoryID)),
		}})
}

// GetIngredient reads an ingredient by its id, from GSI1: its own key is
// under its category, which the caller need not know.
func (s *Store) GetIngredient(ctx context.Context, id string) (Ingredient, error) {
	var i Ingredient
	return i, s.lookup(ctx, GSI1, ingredientPrefix+id, ingredientKind, id, &i)
}

// GetIngredientByName reads an ingredient by its name, from GSI2.
func (s *Store) GetIngredientByName(ctx context.Context, name string) (Ingredient, error) {
	var i Ingredient
	return i, s.lookup(ctx, GSI2, ingredientName(name), ingredientKind, fmt.Sprintf("%q", name), &i)
}

// GetIngredientAndCategory reads an ingredient by its id (GSI1), then its
// category by the category's key.
func (s *Store) GetIngredientAndCategory(ctx context.Context, id string) (Ingredient, Category, error) {
	i, err := s.GetIngredient(ctx, id)
	if err != nil {
		return i, Category{}, err
	}
	c, err := s.GetCategory(ctx, i.CategoryID)
	return i, c, err
}

// RenameIngredient moves the ingredient's name record and renames it.
func (s *Store) RenameIngredient(ctx context.Context, id, name string) error {
	i, err := s.GetIngredient(ctx, id)
	if err != nil {
		return err
	}
	return s.rename(ctx, renaming{kind: ingredientKind, id: id, entity: ingredientKeys(i),
		from: i.Name, to: name, fromKey: ingredientName(i.Name), toKey: ingredientName(name)})
}

// MoveIngredient puts an ingredient in another category. Its category is
// part of its key, so the item is deleted and put again, in one
// transaction with both categories' counts.
func (s *Store) MoveIngredient(ctx context.Context, id, categoryID string) error {
	i, err := s.GetIngredient(ctx, id)
	if err != nil || i.CategoryID == categoryID {
		return err
	}
	moved := i
	moved.CategoryID = categoryID
	item, err := marshal(ingredientKeys(moved), moved)
	if err != nil {
		return err
	}
	conflict := failure(ErrConflict, ingredientKind, id)
	cond, v := unchanged(vals{"name": str(i.Name), "usedBy": num(i.UsedBy)})
	return s.transact(ctx,
		s.del(ingredientKeys(i), cond, v, conflict),
		s.putNew(item, conflict),
		s.count(self(categoryPrefix+i.CategoryID), "ingredientCount", -1, conflict),
		s.count(self(categoryPrefix+categoryID), "ingredientCount", 1, failure(ErrNotFound, categoryKind, categoryID)))
}

// DeleteIngredient deletes an ingredient no recipe uses, frees its id and
// name, and uncounts it from its category.
func (s *Store) DeleteIngredient(ctx context.Context, id string) error {
	i, err := s.GetIngredient(ctx, id)
	if err != nil {
		return err
	}
	conflict := failure(ErrConflict, ingredientKind, id)
	return s.remove(ctx, removal{kind: ingredientKind, id: id, nameKey: ingredientName(i.Name), entity: ingredientKeys(i),
		expect: vals{"name": str(i.Name), "usedBy": zero}, busy: i.UsedBy > 0,
		extra: []step{
			s.dropID(ingredientIDPrefix+id, ingredientKind, id),
			s.count(self(categoryPrefix+i.CategoryID), "ingredientCount", -1, conflict),
		}})
}
