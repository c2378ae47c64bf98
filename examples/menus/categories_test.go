package main

import "testing"

var herbs = Category{ID: "5", Name: "herbs", ShopOrder: 5}

func TestCreateCategory(t *testing.T) {
	f := newUncoveredFixture(t, false) // reads stored records back by key
	f.must(f.s.CreateCategory(f.ctx, Category{ID: "5", Name: "herbs", ShopOrder: 5, IngredientCount: 7}))
	f.wantTransaction(nil, putNew("CATEGORY#5", "CATEGORY#5"), putName("CATEGORYNAME#herbs"))
	f.wantStored("CATEGORY#5", "CATEGORY#5", map[string]any{"PK": "CATEGORY#5", "SK": "CATEGORY#5", "id": "5",
		"name": "herbs", "shopOrder": 5.0, "ingredientCount": 0.0, "GSI2PK": "CATEGORYNAME#herbs", "GSI2SK": "CATEGORYNAME#herbs"})
	f.wantStored("CATEGORYNAME#herbs", "CATEGORYNAME#herbs", nameRecord("CATEGORYNAME#herbs", "5", "herbs"))

	wantErr(t, f.s.CreateCategory(f.ctx, Category{ID: "5", Name: "spices"}), ErrExists, "ConditionalCheckFailed", "None")
	wantErr(t, f.s.CreateCategory(f.ctx, Category{ID: "6", Name: "herbs"}), ErrNameTaken, "None", "ConditionalCheckFailed")
	wantErr(t, f.s.CreateCategory(f.ctx, Category{ID: "6", Name: ""}), ErrInvalid)
	wantErr(t, f.s.CreateCategory(f.ctx, Category{ID: "6#1", Name: "spices"}), ErrInvalid)
	f.wantStored("CATEGORY#6", "CATEGORY#6", nil)
	f.wantStored("CATEGORYNAME#spices", "CATEGORYNAME#spices", nil)
}

func TestGetCategory(t *testing.T) {
	f := newFixture(t, true)
	c, err := f.s.GetCategory(f.ctx, "2")
	wantEqual(t, c, err, Category{ID: "2", Name: "pasta and rice", ShopOrder: 2, IngredientCount: 2})
	f.wantCalls(getItem)
	_, err = f.s.GetCategory(f.ctx, "9")
	wantErr(t, err, ErrNotFound)
}

func TestGetCategoryByName(t *testing.T) {
	f := newFixture(t, true)
	c, err := f.s.GetCategoryByName(f.ctx, "dairy")
	wantEqual(t, c, err, Category{ID: "3", Name: "dairy", ShopOrder: 3, IngredientCount: 3})
	f.wantCalls(onGSI2)
	_, err = f.s.GetCategoryByName(f.ctx, "bakery")
	wantErr(t, err, ErrNotFound)
}

// TestRenameCategory moves the name record in one transaction: the old
// name is free afterwards and the new one taken.
func TestRenameCategory(t *testing.T) {
	f := newUncoveredFixture(t, true) // reads stored records back by key
	f.must(f.s.RenameCategory(f.ctx, "2", "pasta"))
	f.wantTransaction(calls(getItem),
		dropRecord("CATEGORYNAME#pasta and rice"), putName("CATEGORYNAME#pasta"), renamed("CATEGORY#2", "CATEGORY#2"))
	f.wantStored("CATEGORYNAME#pasta and rice", "CATEGORYNAME#pasta and rice", nil)
	f.wantStored("CATEGORYNAME#pasta", "CATEGORYNAME#pasta", nameRecord("CATEGORYNAME#pasta", "2", "pasta"))
	c, err := f.s.GetCategoryByName(f.ctx, "pasta")
	wantEqual(t, c, err, Category{ID: "2", Name: "pasta", ShopOrder: 2, IngredientCount: 2})
	_, err = f.s.GetCategoryByName(f.ctx, "pasta and rice")
	wantErr(t, err, ErrNotFound)
	f.must(f.s.CreateCategory(f.ctx, Category{ID: "5", Name: "pasta and rice"})) // the old name is free

	f.take()
	f.must(f.s.RenameCategory(f.ctx, "2", "pasta")) // to its own name: nothing to write
	f.wantCalls(getItem)
	wantErr(t, f.s.RenameCategory(f.ctx, "9", "bakery"), ErrNotFound)
}

// TestRenameCategoryToTakenName is refused at the new name record, and
// leaves both categories and their name records as they were.
func TestRenameCategoryToTakenName(t *testing.T) {
	f := newUncoveredFixture(t, true) // reads stored records back by key
	wantErr(t, f.s.RenameCategory(f.ctx, "2", "dairy"), ErrNameTaken, "None", "ConditionalCheckFailed", "None")
	f.wantStored("CATEGORYNAME#pasta and rice", "CATEGORYNAME#pasta and rice", nameRecord("CATEGORYNAME#pasta and rice", "2", "pasta and rice"))
	f.wantStored("CATEGORYNAME#dairy", "CATEGORYNAME#dairy", nameRecord("CATEGORYNAME#dairy", "3", "dairy"))
	c, err := f.s.GetCategory(f.ctx, "2")
	wantEqual(t, c, err, Category{ID: "2", Name: "pasta and rice", ShopOrder: 2, IngredientCount: 2})
}

func TestSetCategoryShopOrder(t *testing.T) {
	f := newFixture(t, true)
	f.must(f.s.SetCategoryShopOrder(f.ctx, "4", 0))
	f.wantCalls(update)
	c, err := f.s.GetCategory(f.ctx, "4")
	wantEqual(t, c, err, Category{ID: "4", Name: "meat", ShopOrder: 0, IngredientCount: 1})
	wantErr(t, f.s.SetCategoryShopOrder(f.ctx, "9", 1), ErrNotFound)
	f.wantStored("CATEGORY#9", "CATEGORY#9", nil)
}

func TestDeleteCategory(t *testing.T) {
	f := newUncoveredFixture(t, true)                    // reads stored records back by key
	wantErr(t, f.s.DeleteCategory(f.ctx, "4"), ErrInUse) // it has minced beef
	f.wantCalls(getItem)
	f.must(f.s.CreateCategory(f.ctx, herbs))
	f.take()
	f.must(f.s.DeleteCategory(f.ctx, "5"))
	f.wantTransaction(calls(getItem),
		deleted("CATEGORY#5", "CATEGORY#5", "#ingredientCount = :ingredientCount AND #name = :name"),
		dropRecord("CATEGORYNAME#herbs"))
	f.wantStored("CATEGORY#5", "CATEGORY#5", nil)
	f.wantStored("CATEGORYNAME#herbs", "CATEGORYNAME#herbs", nil)
	wantErr(t, f.s.DeleteCategory(f.ctx, "5"), ErrNotFound)
}

// TestGetCategoryAndIngredients reads the category and its first ten
// ingredients, highest id first, in one Query read backwards.
func TestGetCategoryAndIngredients(t *testing.T) {
	f := newFixture(t, true)
	b, err := f.s.GetCategoryAndIngredients(f.ctx, "1")
	var first []Ingredient
	for _, id := range []string{"18", "17", "16", "15", "14", "13", "07", "06", "05", "04"} {
		first = append(first, sampleIngredient(id))
	}
	wantEqual(t, b, err, CategoryBatch{Category: Category{ID: "1", Name: "vegetables", ShopOrder: 1, IngredientCount: 12},
		Ingredients: first, More: true})
	reqs := f.wantCalls(onTable)
	if r := reqs[0]; r.Forward || r.Limit != 11 {
		t.Fatalf("query sent ScanIndexForward=%v Limit=%d, want false and 11", r.Forward, r.Limit)
	}

	b, err = f.s.GetCategoryAndIngredients(f.ctx, "4")
	wantEqual(t, b, err, CategoryBatch{Category: Category{ID: "4", Name: "meat", ShopOrder: 4, IngredientCount: 1},
		Ingredients: []Ingredient{sampleIngredient("12")}})
	_, err = f.s.GetCategoryAndIngredients(f.ctx, "9")
	wantErr(t, err, ErrNotFound)
}

func TestIngredientsByCategory(t *testing.T) {
	f := newFixture(t, true)
	is, err := f.s.IngredientsByCategory(f.ctx, "3")
	wantEqual(t, is, err, []Ingredient{sampleIngredient("09"), sampleIngredient("10"), sampleIngredient("11")})
	f.wantCalls(runnerQuery("PK = :pk AND begins_with(SK, :child)"))
	is, err = f.s.IngredientsByCategory(f.ctx, "9")
	wantEqual(t, is, err, []Ingredient{})
}
