package main

// The demo's scenario: the design's access patterns on the sample data,
// then CRUD on one new entity of each kind, ending where it started.

func (d *demo) designPatterns() {
	ctx, s := d.ctx, d.s
	d.read("Get a Menu and all its MenuItems: GetMenuAndItems(w1)", func() ([][]string, error) {
		m, err := s.GetMenuAndItems(ctx, "w1")
		return append([][]string{menuRow(m.Menu)}, rowsOf(m.Items, menuItemRow)...), err
	})
	d.read("Get a MenuItem and the details of its Recipe: GetMenuItemAndRecipe(w1-2)", func() ([][]string, error) {
		mi, r, err := s.GetMenuItemAndRecipe(ctx, "w1-2")
		return [][]string{menuItemRow(mi), recipeRow(r)}, err
	})
	d.read("Get a Recipe and its list of Ingredients: GetRecipeAndIngredients(r2)", func() ([][]string, error) {
		r, err := s.GetRecipeAndIngredients(ctx, "r2")
		return append([][]string{recipeRow(r.Recipe)}, rowsOf(r.Ingredients, recipeLineRow)...), err
	})
	d.read("Get an Ingredient and its Category: GetIngredientAndCategory(03)", func() ([][]string, error) {
		i, c, err := s.GetIngredientAndCategory(ctx, "03")
		return [][]string{ingredientRow(i), categoryRow(c)}, err
	})
	d.read("Get a Category and the first batch of its Ingredients (ScanIndexForward=false, Limit=11): GetCategoryAndIngredients(1)", func() ([][]string, error) {
		b, err := s.GetCategoryAndIngredients(ctx, "1")
		return append([][]string{categoryRow(b.Category)}, rowsOf(b.Ingredients, ingredientRow)...), err
	})
	d.read("Query by category id, all its ingredients: IngredientsByCategory(3)", func() ([][]string, error) {
		is, err := s.IngredientsByCategory(ctx, "3")
		return rowsOf(is, ingredientRow), err
	})
	d.read("Query by ingredient id (GSI1): GetIngredient(01)", one(ingredientRow, func() (Ingredient, error) { return s.GetIngredient(ctx, "01") }))
	d.read("Query by ingredient name (GSI2): GetIngredientByName(tomatoes)", one(ingredientRow, func() (Ingredient, error) {
		return s.GetIngredientByName(ctx, "tomatoes")
	}))
}

func (d *demo) categories() {
	ctx, s, c := d.ctx, d.s, demoCategory
	after := one(categoryRow, func() (Category, error) { return s.GetCategory(ctx, c.ID) })
	d.write("Create a Category: CreateCategory(5 herbs)", func() error { return s.CreateCategory(ctx, c) }, after)
	d.read("Read a Category: GetCategory(5)", after)
	d.read("Read a Category by name (GSI2): GetCategoryByName(herbs)", one(categoryRow, func() (Category, error) {
		return s.GetCategoryByName(ctx, "herbs")
	}))
	d.write("Rename a Category: RenameCategory(5, fresh herbs)", func() error { return s.RenameCategory(ctx, c.ID, "fresh herbs") }, after)
	d.write("Update a Category: SetCategoryShopOrder(5, 0)", func() error { return s.SetCategoryShopOrder(ctx, c.ID, 0) }, after)
	d.refused("Create a Category with a taken name: CreateCategory(6 fresh herbs)", ErrNameTaken, func() error {
		return s.CreateCategory(ctx, Category{ID: "6", Name: "fresh herbs"})
	})
}

func (d *demo) ingredients() {
	ctx, s, i := d.ctx, d.s, demoIngredient
	after := one(ingredientRow, func() (Ingredient, error) { return s.GetIngredient(ctx, i.ID) })
	d.write("Create an Ingredient: CreateIngredient(19 basil in 5)", func() error { return s.CreateIngredient(ctx, i) }, after)
	d.read("Read an Ingredient (GSI1): GetIngredient(19)", after)
	d.write("Rename an Ingredient: RenameIngredient(19, sweet basil)", func() error { return s.RenameIngredient(ctx, i.ID, "sweet basil") }, after)
	d.read("Read an Ingredient by name (GSI2): GetIngredientByName(sweet basil)", one(ingredientRow, func() (Ingredient, error) {
		return s.GetIngredientByName(ctx, "sweet basil")
	}))
	d.write("Move an Ingredient to another Category: MoveIngredient(19, 1)", func() error { return s.MoveIngredient(ctx, i.ID, "1") }, after)
	d.refused("Create an Ingredient with a taken name: CreateIngredient(20 tomatoes)", ErrNameTaken, func() error {
		return s.CreateIngredient(ctx, Ingredient{ID: "20", Name: "tomatoes", CategoryID: "1"})
	})
}

func (d *demo) recipes() {
	ctx, s, r, ri := d.ctx, d.s, demoRecipe, demoRecipeIngredient
	after := one(recipeRow, func() (Recipe, error) { return s.GetRecipe(ctx, r.ID) })
	d.write("Create a Recipe: CreateRecipe(r4 pesto pasta)", func() error { return s.CreateRecipe(ctx, r) }, after)
	d.read("Read a Recipe: GetRecipe(r4)", after)
	d.read("Read a Recipe by name (GSI2): GetRecipeByName(pesto pasta)", one(recipeRow, func() (Recipe, error) {
		return s.GetRecipeByName(ctx, "pesto pasta")
	}))
	d.write("Rename a Recipe: RenameRecipe(r4, pasta with pesto)", func() error { return s.RenameRecipe(ctx, r.ID, "pasta with pesto") }, after)
	d.write("Update a Recipe: UpdateRecipe(r4, 3 servings, 20 min)", func() error { return s.UpdateRecipe(ctx, r.ID, 3, 20) }, after)
	line := one(recipeIngredientRow, func() (RecipeIngredient, error) { return s.GetRecipeIngredient(ctx, ri.RecipeID, ri.IngredientID) })
	d.write("Create a RecipeIngredient: AddRecipeIngredient(r4, 19, 30 g)", func() error { return s.AddRecipeIngredient(ctx, ri) }, line)
	d.read("Read a RecipeIngredient: GetRecipeIngredient(r4, 19)", line)
	d.write("Update a RecipeIngredient: SetRecipeIngredientAmount(r4, 19, 40 g)", func() error {
		return s.SetRecipeIngredientAmount(ctx, ri.RecipeID, ri.IngredientID, 40, "g")
	}, line)
}

func (d *demo) menus() {
	ctx, s, m := d.ctx, d.s, demoMenu
	after := one(menuRow, func() (Menu, error) { return s.GetMenu(ctx, m.ID) })
	d.write("Create a Menu: CreateMenu(w3 week 3)", func() error { return s.CreateMenu(ctx, m) }, after)
	d.read("Read a Menu: GetMenu(w3)", after)
	d.read("Read a Menu by name (GSI2): GetMenuByName(week 3)", one(menuRow, func() (Menu, error) { return s.GetMenuByName(ctx, "week 3") }))
	d.write("Rename a Menu: RenameMenu(w3, holiday week)", func() error { return s.RenameMenu(ctx, m.ID, "holiday week") }, after)
	d.refused("Rename a Menu to a taken name: RenameMenu(w3, week 1)", ErrNameTaken, func() error { return s.RenameMenu(ctx, m.ID, "week 1") })
}

func (d *demo) menuItems() {
	ctx, s, mi := d.ctx, d.s, demoMenuItem
	after := one(menuItemRow, func() (MenuItem, error) { return s.GetMenuItem(ctx, mi.ID) })
	d.write("Create a MenuItem: CreateMenuItem(w3-1 Monday on w3, recipe r4)", func() error { return s.CreateMenuItem(ctx, mi) }, after)
	d.read("Read a MenuItem (GSI1): GetMenuItem(w3-1)", after)
	d.read("Read a MenuItem by name within its Menu (GSI2): GetMenuItemByName(w3, Monday)", one(menuItemRow, func() (MenuItem, error) {
		return s.GetMenuItemByName(ctx, mi.MenuID, "Monday")
	}))
	d.write("Rename a MenuItem: RenameMenuItem(w3-1, Friday)", func() error { return s.RenameMenuItem(ctx, mi.ID, "Friday") }, after)
	d.write("Update a MenuItem: SetMenuItemRecipe(w3-1, r2)", func() error { return s.SetMenuItemRecipe(ctx, mi.ID, "r2") }, after)
	d.refusedAlone("Delete a Recipe still on a menu: DeleteRecipe(r2)", ErrInUse, func() error { return s.DeleteRecipe(ctx, "r2") },
		one(recipeRow, func() (Recipe, error) { return s.GetRecipe(ctx, "r2") }))
}

// deletes removes the demo's entities, children first, and reads each
// parent back to show its counts.
func (d *demo) deletes() {
	ctx, s := d.ctx, d.s
	menu := one(menuRow, func() (Menu, error) { return s.GetMenu(ctx, demoMenu.ID) })
	d.write("Delete a MenuItem: DeleteMenuItem(w3-1)", func() error { return s.DeleteMenuItem(ctx, demoMenuItem.ID) }, menu)
	recipe := one(recipeRow, func() (Recipe, error) { return s.GetRecipe(ctx, demoRecipe.ID) })
	d.write("Delete a RecipeIngredient: RemoveRecipeIngredient(r4, 19)", func() error {
		return s.RemoveRecipeIngredient(ctx, demoRecipe.ID, demoIngredient.ID)
	}, recipe)
	none := func() ([][]string, error) { return nil, nil }
	d.write("Delete a Menu: DeleteMenu(w3)", func() error { return s.DeleteMenu(ctx, demoMenu.ID) }, none)
	d.write("Delete a Recipe: DeleteRecipe(r4)", func() error { return s.DeleteRecipe(ctx, demoRecipe.ID) }, none)
	category := one(categoryRow, func() (Category, error) { return s.GetCategory(ctx, "1") })
	d.write("Delete an Ingredient: DeleteIngredient(19)", func() error { return s.DeleteIngredient(ctx, demoIngredient.ID) }, category)
	d.write("Delete a Category: DeleteCategory(5)", func() error { return s.DeleteCategory(ctx, demoCategory.ID) }, none)
}
