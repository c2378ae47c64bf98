package main

import "testing"

var pesto = Recipe{ID: "r4", Name: "pesto pasta", Servings: 2, Minutes: 15}

func TestCreateRecipe(t *testing.T) {
	f := newFixture(t, false)
	f.must(f.s.CreateRecipe(f.ctx, Recipe{ID: "r4", Name: "pesto pasta", Servings: 2, Minutes: 15, IngredientCount: 3, UsedBy: 1}))
	f.wantTransaction(nil, putNew("RECIPE#r4", "RECIPE#r4"), putName("RECIPENAME#pesto pasta"))
	r, err := f.s.GetRecipe(f.ctx, "r4")
	wantEqual(t, r, err, pesto)
	wantErr(t, f.s.CreateRecipe(f.ctx, Recipe{ID: "r5", Name: "pesto pasta"}), ErrNameTaken, "None", "ConditionalCheckFailed")
	wantErr(t, f.s.CreateRecipe(f.ctx, Recipe{ID: "r4", Name: "pesto"}), ErrExists, "ConditionalCheckFailed", "None")
}

func TestGetRecipe(t *testing.T) {
	f := newFixture(t, true)
	r, err := f.s.GetRecipe(f.ctx, "r1")
	wantEqual(t, r, err, Recipe{ID: "r1", Name: "spaghetti bolognese", Servings: 4, Minutes: 60, IngredientCount: 6, UsedBy: 2})
	f.wantCalls(getItem)
	_, err = f.s.GetRecipe(f.ctx, "r9")
	wantErr(t, err, ErrNotFound)
}

func TestGetRecipeByName(t *testing.T) {
	f := newFixture(t, true)
	r, err := f.s.GetRecipeByName(f.ctx, "tomato soup")
	wantEqual(t, r, err, Recipe{ID: "r3", Name: "tomato soup", Servings: 4, Minutes: 30, IngredientCount: 4, UsedBy: 2})
	f.wantCalls(onGSI2)
	_, err = f.s.GetRecipeByName(f.ctx, "lasagne")
	wantErr(t, err, ErrNotFound)
}

func TestRenameRecipe(t *testing.T) {
	f := newFixture(t, true)
	f.must(f.s.RenameRecipe(f.ctx, "r3", "cream of tomato soup"))
	f.wantTransaction(calls(getItem),
		dropRecord("RECIPENAME#tomato soup"), putName("RECIPENAME#cream of tomato soup"), renamed("RECIPE#r3", "RECIPE#r3"))
	r, err := f.s.GetRecipeByName(f.ctx, "cream of tomato soup")
	wantEqual(t, r.ID, err, "r3")
	_, err = f.s.GetRecipeByName(f.ctx, "tomato soup")
	wantErr(t, err, ErrNotFound)
	wantErr(t, f.s.RenameRecipe(f.ctx, "r3", "mushroom risotto"), ErrNameTaken, "None", "ConditionalCheckFailed", "None")
}

func TestUpdateRecipe(t *testing.T) {
	f := newFixture(t, true)
	f.must(f.s.UpdateRecipe(f.ctx, "r2", 4, 40))
	f.wantCalls(update)
	r, err := f.s.GetRecipe(f.ctx, "r2")
	wantEqual(t, r, err, Recipe{ID: "r2", Name: "mushroom risotto", Servings: 4, Minutes: 40, IngredientCount: 5, UsedBy: 1})
	wantErr(t, f.s.UpdateRecipe(f.ctx, "r9", 1, 1), ErrNotFound)
	f.wantStored("RECIPE#r9", "RECIPE#r9", nil)
}

// TestDeleteRecipe refuses a recipe with ingredients or on a menu.
func TestDeleteRecipe(t *testing.T) {
	f := newUncoveredFixture(t, true) // reads stored records back by key
	wantErr(t, f.s.DeleteRecipe(f.ctx, "r1"), ErrInUse)
	f.must(f.s.CreateRecipe(f.ctx, pesto))
	f.must(f.s.AddRecipeIngredient(f.ctx, RecipeIngredient{RecipeID: "r4", IngredientID: "02", Amount: 200, Unit: "g"}))
	wantErr(t, f.s.DeleteRecipe(f.ctx, "r4"), ErrInUse)
	f.must(f.s.RemoveRecipeIngredient(f.ctx, "r4", "02"))
	f.take()
	f.must(f.s.DeleteRecipe(f.ctx, "r4"))
	f.wantTransaction(calls(getItem),
		deleted("RECIPE#r4", "RECIPE#r4", "#ingredientCount = :ingredientCount AND #name = :name AND #usedBy = :usedBy"),
		dropRecord("RECIPENAME#pesto pasta"))
	f.wantStored("RECIPE#r4", "RECIPE#r4", nil)
	f.wantStored("RECIPENAME#pesto pasta", "RECIPENAME#pesto pasta", nil)
}

// TestAddRecipeIngredient counts the line in the recipe and the use in
// the ingredient, found by id on GSI1.
func TestAddRecipeIngredient(t *testing.T) {
	f := newUncoveredFixture(t, true) // reads stored records back by key
	line := RecipeIngredient{RecipeID: "r3", IngredientID: "15", Amount: 100, Unit: "g"}
	f.must(f.s.AddRecipeIngredient(f.ctx, line))
	f.wantTransaction(calls(onGSI1), putNew("RECIPE#r3", "#INGREDIENT#15"),
		counted("RECIPE#r3", "ingredientCount"), countedIn("CATEGORY#1", "#INGREDIENT#15", "usedBy"))
	f.wantStored("CATEGORY#1", "#INGREDIENT#15", map[string]any{"PK": "CATEGORY#1", "SK": "#INGREDIENT#15",
		"id": "15", "name": "spinach", "categoryId": "1", "usedBy": 1.0,
		"GSI1PK": "INGREDIENT#15", "GSI1SK": "INGREDIENT#15", "GSI2PK": "INGREDIENTNAME#spinach", "GSI2SK": "INGREDIENTNAME#spinach"})
	r, err := f.s.GetRecipe(f.ctx, "r3")
	wantEqual(t, r.IngredientCount, err, 5)

	fail := "ConditionalCheckFailed"
	wantErr(t, f.s.AddRecipeIngredient(f.ctx, line), ErrExists, fail, "None", "None")
	wantErr(t, f.s.AddRecipeIngredient(f.ctx, RecipeIngredient{RecipeID: "r9", IngredientID: "15"}), ErrNotFound, "None", fail, "None")
	wantErr(t, f.s.AddRecipeIngredient(f.ctx, RecipeIngredient{RecipeID: "r3", IngredientID: "99"}), ErrNotFound)
	f.wantStored("RECIPE#r9", "#INGREDIENT#15", nil)
}

func TestGetRecipeIngredient(t *testing.T) {
	f := newFixture(t, true)
	ri, err := f.s.GetRecipeIngredient(f.ctx, "r3", "05")
	wantEqual(t, ri, err, RecipeIngredient{RecipeID: "r3", IngredientID: "05", Amount: 2, Unit: "cloves"})
	f.wantCalls(getItem)
	_, err = f.s.GetRecipeIngredient(f.ctx, "r3", "06")
	wantErr(t, err, ErrNotFound)
}

func TestSetRecipeIngredientAmount(t *testing.T) {
	f := newFixture(t, true)
	f.must(f.s.SetRecipeIngredientAmount(f.ctx, "r3", "05", 3.5, "cloves"))
	f.wantCalls(update)
	ri, err := f.s.GetRecipeIngredient(f.ctx, "r3", "05")
	wantEqual(t, ri, err, RecipeIngredient{RecipeID: "r3", IngredientID: "05", Amount: 3.5, Unit: "cloves"})
	wantErr(t, f.s.SetRecipeIngredientAmount(f.ctx, "r3", "06", 1, "piece"), ErrNotFound)
	f.wantStored("RECIPE#r3", "#INGREDIENT#06", nil)
}

func TestRemoveRecipeIngredient(t *testing.T) {
	f := newFixture(t, true)
	f.must(f.s.RemoveRecipeIngredient(f.ctx, "r3", "11"))
	f.wantTransaction(calls(onGSI1), deleted("RECIPE#r3", "#INGREDIENT#11", "attribute_exists(PK)"),
		counted("RECIPE#r3", "ingredientCount"), countedIn("CATEGORY#3", "#INGREDIENT#11", "usedBy"))
	f.wantStored("RECIPE#r3", "#INGREDIENT#11", nil)
	i, err := f.s.GetIngredient(f.ctx, "11")
	wantEqual(t, i.UsedBy, err, 0)
	r, err := f.s.GetRecipe(f.ctx, "r3")
	wantEqual(t, r.IngredientCount, err, 3)
	wantErr(t, f.s.RemoveRecipeIngredient(f.ctx, "r3", "11"), ErrNotFound, "ConditionalCheckFailed", "None", "None")
}

// TestGetRecipeAndIngredients reads the recipe's collection in one Query,
// then each line's ingredient by id on GSI1.
func TestGetRecipeAndIngredients(t *testing.T) {
	f := newFixture(t, true)
	r, err := f.s.GetRecipeAndIngredients(f.ctx, "r3")
	line := func(id string, amount float64, unit string) RecipeLine {
		return RecipeLine{RecipeIngredient{RecipeID: "r3", IngredientID: id, Amount: amount, Unit: unit}, sampleIngredient(id)}
	}
	wantEqual(t, r, err, RecipeWithIngredients{
		Recipe:      Recipe{ID: "r3", Name: "tomato soup", Servings: 4, Minutes: 30, IngredientCount: 4, UsedBy: 2},
		Ingredients: []RecipeLine{line("01", 1000, "g"), line("04", 1, "piece"), line("05", 2, "cloves"), line("11", 100, "ml")}})
	f.wantCalls(onTable, onGSI1, onGSI1, onGSI1, onGSI1)

	f.must(f.s.CreateRecipe(f.ctx, pesto))
	r, err = f.s.GetRecipeAndIngredients(f.ctx, "r4")
	wantEqual(t, r, err, RecipeWithIngredients{Recipe: pesto, Ingredients: []RecipeLine{}})
	_, err = f.s.GetRecipeAndIngredients(f.ctx, "r9")
	wantErr(t, err, ErrNotFound)
}
