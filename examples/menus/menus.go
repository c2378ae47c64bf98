package main

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

const (
	menuKind     = "menu"
	menuItemKind = "menu item"
)

// CreateMenu stores a new menu and reserves its name.
func (s *Store) CreateMenu(ctx context.Context, m Menu) error {
	m.ItemCount = 0
	return s.create(ctx, creation{kind: menuKind, id: m.ID, name: m.Name,
		nameKey: menuName(m.Name), keys: menuKeys(m), entity: m})
}

// GetMenu reads a menu by its id: its key is its id.
func (s *Store) GetMenu(ctx context.Context, id string) (Menu, error) {
	var m Menu
	return m, s.get(ctx, self(menuPrefix+id), menuKind, id, &m)
}

// GetMenuByName reads a menu by its name, from GSI2.
func (s *Store) GetMenuByName(ctx context.Context, name string) (Menu, error) {
	var m Menu
	return m, s.lookup(ctx, GSI2, menuName(name), menuKind, fmt.Sprintf("%q", name), &m)
}

// RenameMenu moves the menu's name record and renames it.
func (s *Store) RenameMenu(ctx context.Context, id, name string) error {
	m, err := s.GetMenu(ctx, id)
	if err != nil {
		return err
	}
	return s.rename(ctx, renaming{kind: menuKind, id: id, entity: menuKeys(m),
		from: m.Name, to: name, fromKey: menuName(m.Name), toKey: menuName(name)})
}

// DeleteMenu deletes a menu that has no items, and frees its name.
func (s *Store) DeleteMenu(ctx context.Context, id string) error {
	m, err := s.GetMenu(ctx, id)
	if err != nil {
		return err
	}
	return s.remove(ctx, removal{kind: menuKind, id: id, nameKey: menuName(m.Name), entity: menuKeys(m),
		expect: vals{"name": str(m.Name), "itemCount": zero}, busy: m.ItemCount > 0})
}

// MenuWithItems is a menu and all its items.
type MenuWithItems struct {
	Menu  Menu
	Items []MenuItem // in id order
}

// GetMenuAndItems reads a menu and all its items in one Query of its
// collection (the items, #MENUITEM#, sort before the menu).
func (s *Store) GetMenuAndItems(ctx context.Context, id string) (MenuWithItems, error) {
	var out MenuWithItems
	items, err := s.query(ctx, &dynamodb.QueryInput{KeyConditionExpression: aws.String("PK = :pk"),
		ExpressionAttributeValues: vals{":pk": str(menuPrefix + id)}})
	if err != nil {
		return out, err
	}
	if len(items) == 0 || !isHead(items[len(items)-1]) {
		return out, failure(ErrNotFound, menuKind, id)
	}
	if err := attributevalue.UnmarshalMap(items[len(items)-1], &out.Menu); err != nil {
		return out, err
	}
	return out, attributevalue.UnmarshalListOfMaps(items[:len(items)-1], &out.Items)
}

// CreateMenuItem stores a new item in its menu's collection, reserves its
// id and its name within the menu, and counts it in the menu and in its
// recipe's uses; both must exist.
func (s *Store) CreateMenuItem(ctx context.Context, mi MenuItem) error {
	return s.create(ctx, creation{kind: menuItemKind, id: mi.ID, name: mi.Name,
		nameKey: menuItemName(mi.MenuID, mi.Name), keys: menuItemKeys(mi), entity: mi,
		extra: []step{
			s.putID(menuItemIDPrefix+mi.ID, menuItemKind, mi.ID),
			s.count(self(menuPrefix+mi.MenuID), "itemCount", 1, failure(ErrNotFound, menuKind, mi.MenuID)),
			s.count(self(recipePrefix+mi.RecipeID), "usedBy", 1, failure(ErrNotFound, recipeKind, mi.RecipeID)),
		}})
}

// GetMenuItem reads a menu item by its id, from GSI1: its own key is
// under its menu, which the caller need not know.
func (s *Store) GetMenuItem(ctx context.Context, id string) (MenuItem, error) {
	var mi MenuItem
	return mi, s.lookup(ctx, GSI1, menuItemPrefix+id, menuItemKind, id, &mi)
}

// GetMenuItemByName reads the item of a menu with that name, from GSI2.
func (s *Store) GetMenuItemByName(ctx context.Context, menuID, name string) (MenuItem, error) {
	var mi MenuItem
	return mi, s.lookup(ctx, GSI2, menuItemName(menuID, name), menuItemKind, fmt.Sprintf("%s %q", menuID, name), &mi)
}

// GetMenuItemAndRecipe reads a menu item by its id (GSI1), then its
// recipe by the recipe's key.
func (s *Store) GetMenuItemAndRecipe(ctx context.Context, id string) (MenuItem, Recipe, error) {
	mi, err := s.GetMenuItem(ctx, id)
	if err != nil {
		return mi, Recipe{}, err
	}
	r, err := s.GetRecipe(ctx, mi.RecipeID)
	return mi, r, err
}

// RenameMenuItem moves the item's name record and renames it.
func (s *Store) RenameMenuItem(ctx context.Context, id, name string) error {
	mi, err := s.GetMenuItem(ctx, id)
	if err != nil {
		return err
	}
	return s.rename(ctx, renaming{kind: menuItemKind, id: id, entity: menuItemKeys(mi), from: mi.Name, to: name,
		fromKey: menuItemName(mi.MenuID, mi.Name), toKey: menuItemName(mi.MenuID, name)})
}

// SetMenuItemRecipe serves another recipe for a menu item, moving the use
// from the old recipe's count to the new one's, which must exist.
func (s *Store) SetMenuItemRecipe(ctx context.Context, id, recipeID string) error {
	mi, err := s.GetMenuItem(ctx, id)
	if err != nil || mi.RecipeID == recipeID {
		return err
	}
	conflict := failure(ErrConflict, menuItemKind, id)
	return s.transact(ctx,
		s.update(menuItemKeys(mi), "SET recipeId = :to", "recipeId = :from",
			vals{":to": str(recipeID), ":from": str(mi.RecipeID)}, conflict),
		s.count(self(recipePrefix+mi.RecipeID), "usedBy", -1, conflict),
		s.count(self(recipePrefix+recipeID), "usedBy", 1, failure(ErrNotFound, recipeKind, recipeID)))
}

// DeleteMenuItem deletes a menu item, frees its id and name, and uncounts
// it from its menu and its recipe.
func (s *Store) DeleteMenuItem(ctx context.Context, id string) error {
	mi, err := s.GetMenuItem(ctx, id)
	if err != nil {
		return err
	}
	conflict := failure(ErrConflict, menuItemKind, id)
	return s.remove(ctx, removal{kind: menuItemKind, id: id, nameKey: menuItemName(mi.MenuID, mi.Name), entity: menuItemKeys(mi),
		expect: vals{"name": str(mi.Name), "recipeId": str(mi.RecipeID)},
		extra: []step{
			s.dropID(menuItemIDPrefix+id, menuItemKind, id),
			s.count(self(menuPrefix+mi.MenuID), "itemCount", -1, conflict),
			s.count(self(recipePrefix+mi.RecipeID), "usedBy", -1, conflict),
		}})
}
