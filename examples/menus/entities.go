package main

import (
	"maps"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Category is where in the shop ingredients are bought; ShopOrder is the
// order in which a shopper passes the categories.
type Category struct {
	ID        string `dynamodbav:"id"`
	Name      string `dynamodbav:"name"`
	ShopOrder int    `dynamodbav:"shopOrder"`
	// IngredientCount is kept by the store, so that a category with
	// ingredients cannot be deleted and a first batch knows if more follow.
	IngredientCount int `dynamodbav:"ingredientCount"`
}

// Ingredient belongs to one category.
type Ingredient struct {
	ID         string `dynamodbav:"id"`
	Name       string `dynamodbav:"name"`
	CategoryID string `dynamodbav:"categoryId"`
	// UsedBy counts the recipes using it (kept by the store).
	UsedBy int `dynamodbav:"usedBy"`
}

// Recipe is a dish and how many it serves.
type Recipe struct {
	ID       string `dynamodbav:"id"`
	Name     string `dynamodbav:"name"`
	Servings int    `dynamodbav:"servings"`
	Minutes  int    `dynamodbav:"minutes"`
	// IngredientCount counts its RecipeIngredients, UsedBy the menu items
	// serving it (both kept by the store).
	IngredientCount int `dynamodbav:"ingredientCount"`
	UsedBy          int `dynamodbav:"usedBy"`
}

// RecipeIngredient is one line of a recipe: how much of an ingredient.
type RecipeIngredient struct {
	RecipeID     string  `dynamodbav:"recipeId"`
	IngredientID string  `dynamodbav:"ingredientId"`
	Amount       float64 `dynamodbav:"amount"`
	Unit         string  `dynamodbav:"unit"`
}

// Menu is a plan of dishes, such as a week's dinners.
type Menu struct {
	ID   string `dynamodbav:"id"`
	Name string `dynamodbav:"name"`
	// ItemCount counts its menu items (kept by the store).
	ItemCount int `dynamodbav:"itemCount"`
}

// MenuItem is one dish on a menu; its name is unique within its menu.
type MenuItem struct {
	ID       string `dynamodbav:"id"`
	MenuID   string `dynamodbav:"menuId"`
	Name     string `dynamodbav:"name"`
	RecipeID string `dynamodbav:"recipeId"`
}

// keys are an item's table and index keys. The GSI keys are left out of
// items that are not in the index.
type keys struct {
	PK, SK         string
	GSI1PK, GSI1SK string `dynamodbav:",omitempty"`
	GSI2PK, GSI2SK string `dynamodbav:",omitempty"`
}

// Key prefixes. A child's sort key starts with "#", which sorts before
// any upper-case letter, so the parent is the last item of its collection
// and a descending Query reads it first.
const (
	categoryPrefix       = "CATEGORY#"
	categoryNamePrefix   = "CATEGORYNAME#"
	ingredientPrefix     = "INGREDIENT#"
	ingredientNamePrefix = "INGREDIENTNAME#"
	menuPrefix           = "MENU#"
	menuNamePrefix       = "MENUNAME#"
	menuItemPrefix       = "MENUITEM#"
	menuItemNamePrefix   = "MENUITEMNAME#"
	recipePrefix         = "RECIPE#"
	recipeNamePrefix     = "RECIPENAME#"
	ingredientIDPrefix   = "INGREDIENTID#"
	menuItemIDPrefix     = "MENUITEMID#"
	childIngredient      = "#" + ingredientPrefix
	childMenuItem        = "#" + menuItemPrefix
)

// self is the key of an item that is its own collection's head.
func self(key string) keys { return keys{PK: key, SK: key} }

// named puts an entity in GSI2 under its name record's key.
func (k keys) named(nameKey string) keys {
	k.GSI2PK, k.GSI2SK = nameKey, nameKey
	return k
}

// byID puts an entity in GSI1 under its own id.
func (k keys) byID(idKey string) keys {
	k.GSI1PK, k.GSI1SK = idKey, idKey
	return k
}

func categoryName(name string) string   { return categoryNamePrefix + name }
func ingredientName(name string) string { return ingredientNamePrefix + name }
func menuName(name string) string       { return menuNamePrefix + name }
func recipeName(name string) string     { return recipeNamePrefix + name }

// menuItemName scopes a menu item's name to its menu: two menus may both
// have a "Monday".
func menuItemName(menuID, name string) string { return menuItemNamePrefix + menuID + "#" + name }

func categoryKeys(c Category) keys {
	return self(categoryPrefix + c.ID).named(categoryName(c.Name))
}

func ingredientKeys(i Ingredient) keys {
	k := keys{PK: categoryPrefix + i.CategoryID, SK: childIngredient + i.ID}
	return k.byID(ingredientPrefix + i.ID).named(ingredientName(i.Name))
}

func recipeKeys(r Recipe) keys { return self(recipePrefix + r.ID).named(recipeName(r.Name)) }

// recipeIngredientKeys keys a line by its ingredient, so a recipe lists an
// ingredient once. Lines are found through their recipe only.
func recipeIngredientKeys(ri RecipeIngredient) keys {
	return keys{PK: recipePrefix + ri.RecipeID, SK: childIngredient + ri.IngredientID}
}

func menuKeys(m Menu) keys { return self(menuPrefix + m.ID).named(menuName(m.Name)) }

func menuItemKeys(mi MenuItem) keys {
	k := keys{PK: menuPrefix + mi.MenuID, SK: childMenuItem + mi.ID}
	return k.byID(menuItemPrefix + mi.ID).named(menuItemName(mi.MenuID, mi.Name))
}

// primary is the table key alone, as GetItem and the write actions take it.
func (k keys) primary() map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"PK": str(k.PK), "SK": str(k.SK)}
}

// marshal is the stored item: the entity's attributes and its keys.
func marshal(k keys, entity any) (map[string]types.AttributeValue, error) {
	item, err := attributevalue.MarshalMap(entity)
	if err != nil {
		return nil, err
	}
	km, err := attributevalue.MarshalMap(k)
	maps.Copy(item, km)
	return item, err
}

func str(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }

func num(n int) types.AttributeValue {
	v, _ := attributevalue.Marshal(n)
	return v
}

// isHead tells a collection's parent, keyed PK = SK, from its children.
func isHead(item map[string]types.AttributeValue) bool {
	pk, _ := item["PK"].(*types.AttributeValueMemberS)
	sk, _ := item["SK"].(*types.AttributeValueMemberS)
	return pk != nil && sk != nil && pk.Value == sk.Value
}
