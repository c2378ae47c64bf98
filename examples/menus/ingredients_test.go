package main

import "testing"

var basil = Ingredient{ID: "19", Name: "basil", CategoryID: "5"}

func TestCreateIngredient(t *testing.T) {
	f := newUncoveredFixture(t, true) // reads stored records back by key
	f.must(f.s.CreateCategory(f.ctx, herbs))
	f.take()
	f.must(f.s.CreateIngredient(f.ctx, basil))
	f.wantTransaction(nil, putNew("CATEGORY#5", "#INGREDIENT#19"), putName("INGREDIENTNAME#basil"),
		putName("INGREDIENTID#19"), counted("CATEGORY#5", "ingredientCount"))
	f.wantStored("INGREDIENTNAME#basil", "INGREDIENTNAME#basil", nameRecord("INGREDIENTNAME#basil", "19", "basil"))
	f.wantStored("INGREDIENTID#19", "INGREDIENTID#19", idRecord("INGREDIENTID#19", "19"))
	c, err := f.s.GetCategory(f.ctx, "5")
	wantEqual(t, c, err, Category{ID: "5", Name: "herbs", ShopOrder: 5, IngredientCount: 1})

	fail := "ConditionalCheckFailed"
	// The same id under another category: only the id record sees it.
	wantErr(t, f.s.CreateIngredient(f.ctx, Ingredient{ID: "19", Name: "thyme", CategoryID: "1"}), ErrExists, "None", "None", fail, "None")
	wantErr(t, f.s.CreateIngredient(f.ctx, Ingredient{ID: "20", Name: "tomatoes", CategoryID: "5"}), ErrNameTaken, "None", fail, "None", "None")
	wantErr(t, f.s.CreateIngredient(f.ctx, Ingredient{ID: "20", Name: "thyme", CategoryID: "9"}), ErrNotFound, "None", "None", "None", fail)
	f.wantStored("CATEGORY#9", "CATEGORY#9", nil)
	f.wantStored("INGREDIENTNAME#thyme", "INGREDIENTNAME#thyme", nil)
}

func TestGetIngredient(t *testing.T) {
	f := newFixture(t, true)
	i, err := f.s.GetIngredient(f.ctx, "09")
	wantEqual(t, i, err, Ingredient{ID: "09", Name: "parmesan", CategoryID: "3", UsedBy: 1})
	f.wantCalls(onGSI1)
	_, err = f.s.GetIngredient(f.ctx, "99")
	wantErr(t, err, ErrNotFound)
}

func TestGetIngredientByName(t *testing.T) {
	f := newFixture(t, true)
	i, err := f.s.GetIngredientByName(f.ctx, "onions")
	wantEqual(t, i, err, Ingredient{ID: "04", Name: "onions", CategoryID: "1", UsedBy: 3})
	f.wantCalls(onGSI2)
	_, err = f.s.GetIngredientByName(f.ctx, "truffles")
	wantErr(t, err, ErrNotFound)
}

func TestGetIngredientAndCategory(t *testing.T) {
	f := newFixture(t, true)
	i, c, err := f.s.GetIngredientAndCategory(f.ctx, "12")
	wantEqual(t, i, err, Ingredient{ID: "12", Name: "minced beef", CategoryID: "4", UsedBy: 1})
	wantEqual(t, c, err, Category{ID: "4", Name: "meat", ShopOrder: 4, IngredientCount: 1})
	f.wantCalls(onGSI1, getItem)
	_, _, err = f.s.GetIngredientAndCategory(f.ctx, "99")
	wantErr(t, err, ErrNotFound)
}

func TestRenameIngredient(t *testing.T) {
	f := newUncoveredFixture(t, true) // reads stored records back by key
	f.must(f.s.RenameIngredient(f.ctx, "14", "red peppers"))
	f.wantTransaction(calls(onGSI1),
		dropRecord("INGREDIENTNAME#peppers"), putName("INGREDIENTNAME#red peppers"), renamed("CATEGORY#1", "#INGREDIENT#14"))
	f.wantStored("INGREDIENTNAME#peppers", "INGREDIENTNAME#peppers", nil)
	i, err := f.s.GetIngredientByName(f.ctx, "red peppers")
	wantEqual(t, i, err, Ingredient{ID: "14", Name: "red peppers", CategoryID: "1"})
	_, err = f.s.GetIngredientByName(f.ctx, "peppers")
	wantErr(t, err, ErrNotFound)

	wantErr(t, f.s.RenameIngredient(f.ctx, "14", "garlic"), ErrNameTaken, "None", "ConditionalCheckFailed", "None")
	wantErr(t, f.s.RenameIngredient(f.ctx, "99", "truffles"), ErrNotFound)
}

// TestMoveIngredient moves the item to the other category's collection
// and both counts; recipes using it still find it by id.
func TestMoveIngredient(t *testing.T) {
	f := newUncoveredFixture(t, true)            // reads stored records back by key
	f.must(f.s.MoveIngredient(f.ctx, "08", "1")) // risotto rice, used by r2
	f.wantTransaction(calls(onGSI1),
		deleted("CATEGORY#2", "#INGREDIENT#08", "#name = :name AND #usedBy = :usedBy"),
		putNew("CATEGORY#1", "#INGREDIENT#08"),
		counted("CATEGORY#2", "ingredientCount"), counted("CATEGORY#1", "ingredientCount"))
	f.wantStored("CATEGORY#2", "#INGREDIENT#08", nil)
	moved := Ingredient{ID: "08", Name: "risotto rice", CategoryID: "1", UsedBy: 1}
	i, c, err := f.s.GetIngredientAndCategory(f.ctx, "08")
	wantEqual(t, i, err, moved)
	wantEqual(t, c.IngredientCount, err, 13)
	c, err = f.s.GetCategory(f.ctx, "2")
	wantEqual(t, c.IngredientCount, err, 1)
	r, err := f.s.GetRecipeAndIngredients(f.ctx, "r2")
	wantEqual(t, r.Ingredients[2].Ingredient, err, moved)

	wantErr(t, f.s.MoveIngredient(f.ctx, "08", "9"), ErrNotFound, "None", "None", "None", "ConditionalCheckFailed")
	f.take()
	f.must(f.s.MoveIngredient(f.ctx, "08", "1")) // already there
	f.wantCalls(onGSI1)
}

// TestDeleteIngredient frees the id and the name, so both can be used
// again, and refuses an ingredient a recipe uses.
func TestDeleteIngredient(t *testing.T) {
	f := newUncoveredFixture(t, true) // reads stored records back by key
	wantErr(t, f.s.DeleteIngredient(f.ctx, "01"), ErrInUse)
	f.wantCalls(onGSI1) // refused without writing
	f.must(f.s.DeleteIngredient(f.ctx, "18"))
	f.wantTransaction(calls(onGSI1),
		deleted("CATEGORY#1", "#INGREDIENT#18", "#name = :name AND #usedBy = :usedBy"),
		dropRecord("INGREDIENTNAME#aubergines"), dropRecord("INGREDIENTID#18"), counted("CATEGORY#1", "ingredientCount"))
	for _, k := range []string{"INGREDIENTNAME#aubergines", "INGREDIENTID#18"} {
		f.wantStored(k, k, nil)
	}
	c, err := f.s.GetCategory(f.ctx, "1")
	wantEqual(t, c.IngredientCount, err, 11)
	f.must(f.s.CreateIngredient(f.ctx, Ingredient{ID: "18", Name: "aubergines", CategoryID: "1"}))
	wantErr(t, f.s.DeleteIngredient(f.ctx, "99"), ErrNotFound)
}
