package main

import "testing"

var (
	week3  = Menu{ID: "w3", Name: "week 3"}
	monday = MenuItem{ID: "w3-1", MenuID: "w3", Name: "Monday", RecipeID: "r2"}
)

func TestCreateMenu(t *testing.T) {
	f := newFixture(t, false)
	f.must(f.s.CreateMenu(f.ctx, Menu{ID: "w3", Name: "week 3", ItemCount: 4}))
	f.wantTransaction(nil, putNew("MENU#w3", "MENU#w3"), putName("MENUNAME#week 3"))
	f.wantStored("MENU#w3", "MENU#w3", map[string]any{"PK": "MENU#w3", "SK": "MENU#w3", "id": "w3", "name": "week 3",
		"itemCount": 0.0, "GSI2PK": "MENUNAME#week 3", "GSI2SK": "MENUNAME#week 3"})
	wantErr(t, f.s.CreateMenu(f.ctx, Menu{ID: "w4", Name: "week 3"}), ErrNameTaken, "None", "ConditionalCheckFailed")
	wantErr(t, f.s.CreateMenu(f.ctx, Menu{ID: "w3", Name: "week 4"}), ErrExists, "ConditionalCheckFailed", "None")
}

func TestGetMenu(t *testing.T) {
	f := newFixture(t, true)
	m, err := f.s.GetMenu(f.ctx, "w2")
	wantEqual(t, m, err, Menu{ID: "w2", Name: "week 2", ItemCount: 2})
	f.wantCalls(getItem)
	_, err = f.s.GetMenu(f.ctx, "w9")
	wantErr(t, err, ErrNotFound)
}

func TestGetMenuByName(t *testing.T) {
	f := newFixture(t, true)
	m, err := f.s.GetMenuByName(f.ctx, "week 1")
	wantEqual(t, m, err, Menu{ID: "w1", Name: "week 1", ItemCount: 3})
	f.wantCalls(onGSI2)
	_, err = f.s.GetMenuByName(f.ctx, "week 9")
	wantErr(t, err, ErrNotFound)
}

func TestRenameMenu(t *testing.T) {
	f := newUncoveredFixture(t, true) // reads stored records back by key
	f.must(f.s.RenameMenu(f.ctx, "w2", "autumn week"))
	f.wantTransaction(calls(getItem), dropRecord("MENUNAME#week 2"), putName("MENUNAME#autumn week"), renamed("MENU#w2", "MENU#w2"))
	m, err := f.s.GetMenuByName(f.ctx, "autumn week")
	wantEqual(t, m, err, Menu{ID: "w2", Name: "autumn week", ItemCount: 2})
	f.wantStored("MENUNAME#week 2", "MENUNAME#week 2", nil)
	wantErr(t, f.s.RenameMenu(f.ctx, "w2", "week 1"), ErrNameTaken, "None", "ConditionalCheckFailed", "None")
}

func TestDeleteMenu(t *testing.T) {
	f := newUncoveredFixture(t, true) // reads stored records back by key
	wantErr(t, f.s.DeleteMenu(f.ctx, "w1"), ErrInUse)
	f.must(f.s.CreateMenu(f.ctx, week3))
	f.take()
	f.must(f.s.DeleteMenu(f.ctx, "w3"))
	f.wantTransaction(calls(getItem), deleted("MENU#w3", "MENU#w3", "#itemCount = :itemCount AND #name = :name"), dropRecord("MENUNAME#week 3"))
	f.wantStored("MENU#w3", "MENU#w3", nil)
	f.wantStored("MENUNAME#week 3", "MENUNAME#week 3", nil)
}

// TestGetMenuAndItems reads the menu and all its items in one Query.
func TestGetMenuAndItems(t *testing.T) {
	f := newFixture(t, true)
	m, err := f.s.GetMenuAndItems(f.ctx, "w1")
	wantEqual(t, m, err, MenuWithItems{Menu: Menu{ID: "w1", Name: "week 1", ItemCount: 3}, Items: sampleMenuItems[:3]})
	f.wantCalls(onTable)
	f.must(f.s.CreateMenu(f.ctx, week3))
	m, err = f.s.GetMenuAndItems(f.ctx, "w3")
	wantEqual(t, m, err, MenuWithItems{Menu: week3, Items: []MenuItem{}})
	_, err = f.s.GetMenuAndItems(f.ctx, "w9")
	wantErr(t, err, ErrNotFound)
}

// TestCreateMenuItem reserves the item's name within its menu: two menus
// may each have a Monday, one menu only one.
func TestCreateMenuItem(t *testing.T) {
	f := newFixture(t, true)
	f.must(f.s.CreateMenu(f.ctx, week3))
	f.take()
	f.must(f.s.CreateMenuItem(f.ctx, monday))
	f.wantTransaction(nil, putNew("MENU#w3", "#MENUITEM#w3-1"), putName("MENUITEMNAME#w3#Monday"), putName("MENUITEMID#w3-1"),
		counted("MENU#w3", "itemCount"), counted("RECIPE#r2", "usedBy"))
	m, err := f.s.GetMenu(f.ctx, "w3")
	wantEqual(t, m.ItemCount, err, 1)
	r, err := f.s.GetRecipe(f.ctx, "r2")
	wantEqual(t, r.UsedBy, err, 2)

	fail, item := "ConditionalCheckFailed", func(id, menu, name, recipe string) MenuItem { return MenuItem{id, menu, name, recipe} }
	wantErr(t, f.s.CreateMenuItem(f.ctx, item("w3-2", "w3", "Monday", "r1")), ErrNameTaken, "None", fail, "None", "None", "None")
	wantErr(t, f.s.CreateMenuItem(f.ctx, item("w1-1", "w3", "Tuesday", "r1")), ErrExists, "None", "None", fail, "None", "None")
	wantErr(t, f.s.CreateMenuItem(f.ctx, item("w9-1", "w9", "Monday", "r1")), ErrNotFound, "None", "None", "None", fail, "None")
	wantErr(t, f.s.CreateMenuItem(f.ctx, item("w3-2", "w3", "Tuesday", "r9")), ErrNotFound, "None", "None", "None", "None", fail)
	f.wantStored("RECIPE#r9", "RECIPE#r9", nil)
}

func TestGetMenuItem(t *testing.T) {
	f := newFixture(t, true)
	mi, err := f.s.GetMenuItem(f.ctx, "w2-2")
	wantEqual(t, mi, err, MenuItem{ID: "w2-2", MenuID: "w2", Name: "Tuesday", RecipeID: "r1"})
	f.wantCalls(onGSI1)
	_, err = f.s.GetMenuItem(f.ctx, "w9-1")
	wantErr(t, err, ErrNotFound)
}

func TestGetMenuItemByName(t *testing.T) {
	f := newFixture(t, true)
	mi, err := f.s.GetMenuItemByName(f.ctx, "w2", "Monday")
	wantEqual(t, mi, err, MenuItem{ID: "w2-1", MenuID: "w2", Name: "Monday", RecipeID: "r3"})
	f.wantCalls(onGSI2)
	_, err = f.s.GetMenuItemByName(f.ctx, "w2", "Wednesday")
	wantErr(t, err, ErrNotFound)
}

// TestGetMenuItemAndRecipe reads the item by id on GSI1, then its recipe
// by the recipe's key.
func TestGetMenuItemAndRecipe(t *testing.T) {
	f := newFixture(t, true)
	mi, r, err := f.s.GetMenuItemAndRecipe(f.ctx, "w1-2")
	wantEqual(t, mi, err, MenuItem{ID: "w1-2", MenuID: "w1", Name: "Tuesday", RecipeID: "r2"})
	wantEqual(t, r, err, Recipe{ID: "r2", Name: "mushroom risotto", Servings: 2, Minutes: 35, IngredientCount: 5, UsedBy: 1})
	f.wantCalls(onGSI1, getItem)
	_, _, err = f.s.GetMenuItemAndRecipe(f.ctx, "w9-1")
	wantErr(t, err, ErrNotFound)
}

func TestRenameMenuItem(t *testing.T) {
	f := newFixture(t, true)
	f.must(f.s.RenameMenuItem(f.ctx, "w2-2", "Friday"))
	f.wantTransaction(calls(onGSI1), dropRecord("MENUITEMNAME#w2#Tuesday"), putName("MENUITEMNAME#w2#Friday"),
		renamed("MENU#w2", "#MENUITEM#w2-2"))
	mi, err := f.s.GetMenuItemByName(f.ctx, "w2", "Friday")
	wantEqual(t, mi, err, MenuItem{ID: "w2-2", MenuID: "w2", Name: "Friday", RecipeID: "r1"})
	_, err = f.s.GetMenuItemByName(f.ctx, "w2", "Tuesday")
	wantErr(t, err, ErrNotFound)
	wantErr(t, f.s.RenameMenuItem(f.ctx, "w2-2", "Monday"), ErrNameTaken, "None", "ConditionalCheckFailed", "None")
	f.must(f.s.RenameMenuItem(f.ctx, "w2-2", "Wednesday")) // taken on w1 only
}

// TestSetMenuItemRecipe moves the use from one recipe's count to the
// other's.
func TestSetMenuItemRecipe(t *testing.T) {
	f := newFixture(t, true)
	f.must(f.s.SetMenuItemRecipe(f.ctx, "w2-1", "r2"))
	f.wantTransaction(calls(onGSI1),
		Action{Kind: "Update", Table: DefaultTable, PK: "MENU#w2", SK: "#MENUITEM#w2-1", Condition: "recipeId = :from", Update: "SET recipeId = :to"},
		counted("RECIPE#r3", "usedBy"), counted("RECIPE#r2", "usedBy"))
	mi, r, err := f.s.GetMenuItemAndRecipe(f.ctx, "w2-1")
	wantEqual(t, mi.RecipeID, err, "r2")
	wantEqual(t, r.UsedBy, err, 2)
	r, err = f.s.GetRecipe(f.ctx, "r3")
	wantEqual(t, r.UsedBy, err, 1)
	wantErr(t, f.s.SetMenuItemRecipe(f.ctx, "w2-1", "r9"), ErrNotFound, "None", "None", "ConditionalCheckFailed")
}

func TestDeleteMenuItem(t *testing.T) {
	f := newFixture(t, true)
	f.must(f.s.DeleteMenuItem(f.ctx, "w1-3"))
	f.wantTransaction(calls(onGSI1),
		deleted("MENU#w1", "#MENUITEM#w1-3", "#name = :name AND #recipeId = :recipeId"),
		dropRecord("MENUITEMNAME#w1#Wednesday"), dropRecord("MENUITEMID#w1-3"),
		counted("MENU#w1", "itemCount"), counted("RECIPE#r3", "usedBy"))
	m, err := f.s.GetMenuAndItems(f.ctx, "w1")
	wantEqual(t, m, err, MenuWithItems{Menu: Menu{ID: "w1", Name: "week 1", ItemCount: 2}, Items: sampleMenuItems[:2]})
	r, err := f.s.GetRecipe(f.ctx, "r3")
	wantEqual(t, r.UsedBy, err, 1)
	wantErr(t, f.s.DeleteMenuItem(f.ctx, "w1-3"), ErrNotFound)
}
