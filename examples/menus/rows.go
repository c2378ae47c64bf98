package main

import (
	"fmt"
	"strconv"
)

// Every printed row is an entity: its kind, id, name and the rest.
var rowHeader = []string{"entity", "id", "name", "details"}

func categoryRow(c Category) []string {
	return []string{categoryKind, c.ID, c.Name, fmt.Sprintf("shopOrder %d, %d ingredients", c.ShopOrder, c.IngredientCount)}
}

func ingredientRow(i Ingredient) []string {
	return []string{ingredientKind, i.ID, i.Name, fmt.Sprintf("category %s, used by %d recipes", i.CategoryID, i.UsedBy)}
}

func recipeRow(r Recipe) []string {
	return []string{recipeKind, r.ID, r.Name, fmt.Sprintf("serves %d, %d min, %d ingredients, on %d menu items",
		r.Servings, r.Minutes, r.IngredientCount, r.UsedBy)}
}

func recipeIngredientRow(ri RecipeIngredient) []string {
	return []string{recipeIngredientKind, ri.RecipeID + "/" + ri.IngredientID, "", amount(ri)}
}

func recipeLineRow(l RecipeLine) []string {
	return []string{recipeIngredientKind, l.Ingredient.ID, l.Ingredient.Name, amount(l.RecipeIngredient)}
}

func amount(ri RecipeIngredient) string {
	return strconv.FormatFloat(ri.Amount, 'f', -1, 64) + " " + ri.Unit
}

func menuRow(m Menu) []string {
	return []string{menuKind, m.ID, m.Name, fmt.Sprintf("%d items", m.ItemCount)}
}

func menuItemRow(mi MenuItem) []string {
	return []string{menuItemKind, mi.ID, mi.Name, fmt.Sprintf("menu %s, recipe %s", mi.MenuID, mi.RecipeID)}
}

// rowsOf is one row per element.
func rowsOf[T any](xs []T, row func(T) []string) [][]string {
	rows := make([][]string, len(xs))
	for i, x := range xs {
		rows[i] = row(x)
	}
	return rows
}
