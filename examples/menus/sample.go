package main

import (
	"context"
	"errors"
	"slices"
)

// The sample data main loads and the tests share: a household's shop
// categories, the ingredients bought there, three recipes and two weekly
// menus. Ids are strings and sort as strings, so they are zero-padded
// where order matters (an application would use time-ordered ids such
// as KSUIDs to read the newest first).
var (
	sampleCategories = []Category{
		{ID: "1", Name: "vegetables", ShopOrder: 1},
		{ID: "2", Name: "pasta and rice", ShopOrder: 2},
		{ID: "3", Name: "dairy", ShopOrder: 3},
		{ID: "4", Name: "meat", ShopOrder: 4},
	}
	sampleIngredients = []Ingredient{
		{ID: "01", Name: "tomatoes", CategoryID: "1"},
		{ID: "02", Name: "spaghetti", CategoryID: "2"},
		{ID: "03", Name: "mushrooms", CategoryID: "1"},
		{ID: "04", Name: "onions", CategoryID: "1"},
		{ID: "05", Name: "garlic", CategoryID: "1"},
		{ID: "06", Name: "carrots", CategoryID: "1"},
		{ID: "07", Name: "celery", CategoryID: "1"},
		{ID: "08", Name: "risotto rice", CategoryID: "2"},
		{ID: "09", Name: "parmesan", CategoryID: "3"},
		{ID: "10", Name: "butter", CategoryID: "3"},
		{ID: "11", Name: "cream", CategoryID: "3"},
		{ID: "12", Name: "minced beef", CategoryID: "4"},
		{ID: "13", Name: "courgettes", CategoryID: "1"},
		{ID: "14", Name: "peppers", CategoryID: "1"},
		{ID: "15", Name: "spinach", CategoryID: "1"},
		{ID: "16", Name: "leeks", CategoryID: "1"},
		{ID: "17", Name: "potatoes", CategoryID: "1"},
		{ID: "18", Name: "aubergines", CategoryID: "1"},
	}
	sampleRecipes = []Recipe{
		{ID: "r1", Name: "spaghetti bolognese", Servings: 4, Minutes: 60},
		{ID: "r2", Name: "mushroom risotto", Servings: 2, Minutes: 35},
		{ID: "r3", Name: "tomato soup", Servings: 4, Minutes: 30},
	}
	sampleRecipeIngredients = []RecipeIngredient{
		{RecipeID: "r1", IngredientID: "02", Amount: 400, Unit: "g"},
		{RecipeID: "r1", IngredientID: "12", Amount: 500, Unit: "g"},
		{RecipeID: "r1", IngredientID: "01", Amount: 800, Unit: "g"},
		{RecipeID: "r1", IngredientID: "04", Amount: 1, Unit: "piece"},
		{RecipeID: "r1", IngredientID: "06", Amount: 1, Unit: "piece"},
		{RecipeID: "r1", IngredientID: "07", Amount: 1, Unit: "stalk"},
		{RecipeID: "r2", IngredientID: "08", Amount: 300, Unit: "g"},
		{RecipeID: "r2", IngredientID: "03", Amount: 250, Unit: "g"},
		{RecipeID: "r2", IngredientID: "04", Amount: 1, Unit: "piece"},
		{RecipeID: "r2", IngredientID: "09", Amount: 50, Unit: "g"},
		{RecipeID: "r2", IngredientID: "10", Amount: 30, Unit: "g"},
		{RecipeID: "r3", IngredientID: "01", Amount: 1000, Unit: "g"},
		{RecipeID: "r3", IngredientID: "04", Amount: 1, Unit: "piece"},
		{RecipeID: "r3", IngredientID: "05", Amount: 2, Unit: "cloves"},
		{RecipeID: "r3", IngredientID: "11", Amount: 100, Unit: "ml"},
	}
	sampleMenus = []Menu{
		{ID: "w1", Name: "week 1"},
		{ID: "w2", Name: "week 2"},
	}
	sampleMenuItems = []MenuItem{
		{ID: "w1-1", MenuID: "w1", Name: "Monday", RecipeID: "r1"},
		{ID: "w1-2", MenuID: "w1", Name: "Tuesday", RecipeID: "r2"},
		{ID: "w1-3", MenuID: "w1", Name: "Wednesday", RecipeID: "r3"},
		{ID: "w2-1", MenuID: "w2", Name: "Monday", RecipeID: "r3"},
		{ID: "w2-2", MenuID: "w2", Name: "Tuesday", RecipeID: "r1"},
	}
)

// The entities the demo creates, changes and deletes.
var (
	demoCategory         = Category{ID: "5", Name: "herbs", ShopOrder: 5}
	demoIngredient       = Ingredient{ID: "19", Name: "basil", CategoryID: "5"}
	demoRecipe           = Recipe{ID: "r4", Name: "pesto pasta", Servings: 2, Minutes: 15}
	demoRecipeIngredient = RecipeIngredient{RecipeID: "r4", IngredientID: "19", Amount: 30, Unit: "g"}
	demoMenu             = Menu{ID: "w3", Name: "week 3"}
	demoMenuItem         = MenuItem{ID: "w3-1", MenuID: "w3", Name: "Monday", RecipeID: "r4"}
)

// LoadSample creates the sample data, parents before children.
func LoadSample(ctx context.Context, s *Store) error {
	return inOrder(
		forEach(sampleCategories, func(c Category) error { return s.CreateCategory(ctx, c) }),
		forEach(sampleIngredients, func(i Ingredient) error { return s.CreateIngredient(ctx, i) }),
		forEach(sampleRecipes, func(r Recipe) error { return s.CreateRecipe(ctx, r) }),
		forEach(sampleRecipeIngredients, func(ri RecipeIngredient) error { return s.AddRecipeIngredient(ctx, ri) }),
		forEach(sampleMenus, func(m Menu) error { return s.CreateMenu(ctx, m) }),
		forEach(sampleMenuItems, func(mi MenuItem) error { return s.CreateMenuItem(ctx, mi) }),
	)
}

// ResetSample deletes the sample data and the demo's own entities by id,
// children before parents, whatever a previous run left of them.
func ResetSample(ctx context.Context, s *Store) error {
	return inOrder(
		forEach(slices.Concat(sampleMenuItems, []MenuItem{demoMenuItem}), func(mi MenuItem) error {
			return gone(s.DeleteMenuItem(ctx, mi.ID))
		}),
		forEach(slices.Concat(sampleMenus, []Menu{demoMenu}), func(m Menu) error { return gone(s.DeleteMenu(ctx, m.ID)) }),
		forEach(slices.Concat(sampleRecipeIngredients, []RecipeIngredient{demoRecipeIngredient}), func(ri RecipeIngredient) error {
			return gone(s.RemoveRecipeIngredient(ctx, ri.RecipeID, ri.IngredientID))
		}),
		forEach(slices.Concat(sampleRecipes, []Recipe{demoRecipe}), func(r Recipe) error { return gone(s.DeleteRecipe(ctx, r.ID)) }),
		forEach(slices.Concat(sampleIngredients, []Ingredient{demoIngredient}), func(i Ingredient) error {
			return gone(s.DeleteIngredient(ctx, i.ID))
		}),
		forEach(slices.Concat(sampleCategories, []Category{demoCategory}), func(c Category) error {
			return gone(s.DeleteCategory(ctx, c.ID))
		}),
	)
}

// gone treats deleting what is not there as done.
func gone(err error) error {
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	return err
}

func inOrder(steps ...func() error) error {
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// forEach is a step that applies fn to every element until one fails.
func forEach[T any](xs []T, fn func(T) error) func() error {
	return func() error {
		for _, x := range xs {
			if err := fn(x); err != nil {
				return err
			}
		}
		return nil
	}
}
