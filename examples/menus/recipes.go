package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

const (
	recipeKind           = "recipe"
	recipeIngredientKind = "recipe ingredient"
)

// CreateRecipe stores a new recipe and reserves its name.
func (s *Store) CreateRecipe(ctx context.Context, r Recipe) error {
	r.IngredientCount, r.UsedBy = 0, 0
	return s.create(ctx, creation{kind: recipeKind, id: r.ID, name: r.Name,
		nameKey: recipeName(r.Name), keys: recipeKeys(r), entity: r})
}

// GetRecipe reads a recipe by its id: its key is its id.
func (s *Store) GetRecipe(ctx context.Context, id string) (Recipe, error) {
	var r Recipe
	return r, s.get(ctx, self(recipePrefix+id), recipeKind, id, &r)
}

// GetRecipePartiQL is GetRecipe as a PartiQL SELECT: equality on PK and
// SK, the whole key, makes it the same strongly consistent GetItem.
func (s *Store) GetRecipePartiQL(ctx context.Context, id string) (Recipe, error) {
	var r Recipe
	k := self(recipePrefix + id)
	return r, s.statementOne(ctx, `SELECT * FROM "`+s.table+`" WHERE PK = ? AND SK = ?`, true,
		[]types.AttributeValue{str(k.PK), str(k.SK)}, recipeKind, id, &r)
}

// GetRecipeByName reads a recipe by its name, from GSI2.
func (s *Store) GetRecipeByName(ctx context.Context, name string) (Recipe, error) {
	var r Recipe
	return r, s.lookup(ctx, GSI2, recipeName(name), recipeKind, fmt.Sprintf("%q", name), &r)
}

// GetRecipeByNamePartiQL is GetRecipeByName as a PartiQL SELECT on GSI2:
// equality on GSI2PK makes it the same index Query, eventually
// consistent as every index read is.
func (s *Store) GetRecipeByNamePartiQL(ctx context.Context, name string) (Recipe, error) {
	var r Recipe
	return r, s.statementOne(ctx, `SELECT * FROM "`+s.table+`"."`+GSI2+`" WHERE `+GSI2+`PK = ?`, false,
		[]types.AttributeValue{str(recipeName(name))}, recipeKind, fmt.Sprintf("%q", name), &r)
}

// RenameRecipe moves the recipe's name record and renames it.
func (s *Store) RenameRecipe(ctx context.Context, id, name string) error {
	r, err := s.GetRecipe(ctx, id)
	if err != nil {
		return err
	}
	return s.rename(ctx, renaming{kind: recipeKind, id: id, entity: recipeKeys(r),
		from: r.Name, to: name, fromKey: recipeName(r.Name), toKey: recipeName(name)})
}

// UpdateRecipe sets how many a recipe serves and how long it takes.
func (s *Store) UpdateRecipe(ctx context.Context, id string, servings, minutes int) error {
	return s.updateItem(ctx, self(recipePrefix+id), "SET servings = :servings, minutes = :minutes",
		"attribute_exists(PK)", vals{":servings": num(servings), ":minutes": num(minutes)},
		failure(ErrNotFound, recipeKind, id))
}

// UpdateRecipePartiQL is UpdateRecipe as a PartiQL UPDATE, which never
// creates its item: a missing recipe fails its implied attribute_exists.
func (s *Store) UpdateRecipePartiQL(ctx context.Context, id string, servings, minutes int) error {
	k := self(recipePrefix + id)
	_, err := s.db.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{
		Statement:  aws.String(`UPDATE "` + s.table + `" SET servings = ?, minutes = ? WHERE PK = ? AND SK = ?`),
		Parameters: []types.AttributeValue{num(servings), num(minutes), str(k.PK), str(k.SK)}})
	var failed *types.ConditionalCheckFailedException
	if errors.As(err, &failed) {
		return fmt.Errorf("%w (%w)", failure(ErrNotFound, recipeKind, id), err)
	}
	return err
}

// DeleteRecipe deletes a recipe that has no ingredients and is on no
// menu, and frees its name.
func (s *Store) DeleteRecipe(ctx context.Context, id string) error {
	r, err := s.GetRecipe(ctx, id)
	if err != nil {
		return err
	}
	return s.remove(ctx, removal{kind: recipeKind, id: id, nameKey: recipeName(r.Name), entity: recipeKeys(r),
		expect: vals{"name": str(r.Name), "ingredientCount": zero, "usedBy": zero},
		busy:   r.IngredientCount > 0 || r.UsedBy > 0})
}

// AddRecipeIngredient adds a line to a recipe, which must exist, and
// counts it in the recipe and in the ingredient's uses.
func (s *Store) AddRecipeIngredient(ctx context.Context, ri RecipeIngredient) error {
	line := ri.RecipeID + "/" + ri.IngredientID
	if err := valid(recipeIngredientKind, ri.RecipeID, ri.IngredientID); err != nil {
		return err
	}
	i, err := s.GetIngredient(ctx, ri.IngredientID) // for its key, under its category
	if err != nil {
		return err
	}
	item, err := marshal(recipeIngredientKeys(ri), ri)
	if err != nil {
		return err
	}
	return s.transact(ctx,
		s.putNew(item, failure(ErrExists, recipeIngredientKind, line)),
		s.count(self(recipePrefix+ri.RecipeID), "ingredientCount", 1, failure(ErrNotFound, recipeKind, ri.RecipeID)),
		s.count(ingredientKeys(i), "usedBy", 1, failure(ErrConflict, ingredientKind, i.ID)))
}

// GetRecipeIngredient reads one line of a recipe.
func (s *Store) GetRecipeIngredient(ctx context.Context, recipeID, ingredientID string) (RecipeIngredient, error) {
	var ri RecipeIngredient
	k := recipeIngredientKeys(RecipeIngredient{RecipeID: recipeID, IngredientID: ingredientID})
	return ri, s.get(ctx, k, recipeIngredientKind, recipeID+"/"+ingredientID, &ri)
}

// SetRecipeIngredientAmount changes how much of an ingredient a recipe
// takes.
func (s *Store) SetRecipeIngredientAmount(ctx context.Context, recipeID, ingredientID string, amount float64, unit string) error {
	a, err := attributevalue.Marshal(amount)
	if err != nil {
		return err
	}
	k := recipeIngredientKeys(RecipeIngredient{RecipeID: recipeID, IngredientID: ingredientID})
	return s.updateItem(ctx, k, "SET amount = :amount, #unit = :unit", "attribute_exists(PK)",
		vals{":amount": a, ":unit": str(unit)}, failure(ErrNotFound, recipeIngredientKind, recipeID+"/"+ingredientID))
}

// RemoveRecipeIngredient deletes a line of a recipe and uncounts it.
func (s *Store) RemoveRecipeIngredient(ctx context.Context, recipeID, ingredientID string) error {
	i, err := s.GetIngredient(ctx, ingredientID) // for its key, to uncount the use
	if err != nil {
		return err
	}
	k := recipeIngredientKeys(RecipeIngredient{RecipeID: recipeID, IngredientID: ingredientID})
	return s.transact(ctx,
		s.del(k, "attribute_exists(PK)", nil, failure(ErrNotFound, recipeIngredientKind, recipeID+"/"+ingredientID)),
		s.count(self(recipePrefix+recipeID), "ingredientCount", -1, failure(ErrConflict, recipeKind, recipeID)),
		s.count(ingredientKeys(i), "usedBy", -1, failure(ErrConflict, ingredientKind, ingredientID)))
}

// RecipeLine is a line of a recipe with the ingredient it names.
type RecipeLine struct {
	RecipeIngredient
	Ingredient Ingredient
}

// RecipeWithIngredients is a recipe and all its lines.
type RecipeWithIngredients struct {
	Recipe      Recipe
	Ingredients []RecipeLine // in ingredient id order
}

// GetRecipeAndIngredients reads a recipe and its lines in one Query of
// its collection (the lines, #INGREDIENT#, sort before the recipe), then
// each line's ingredient by id from GSI1. Lines keep the ingredient's id
// only, so renaming or moving an ingredient never leaves them stale.
func (s *Store) GetRecipeAndIngredients(ctx context.Context, id string) (RecipeWithIngredients, error) {
	var out RecipeWithIngredients
	items, err := s.query(ctx, &dynamodb.QueryInput{KeyConditionExpression: aws.String("PK = :pk"),
		ExpressionAttributeValues: vals{":pk": str(recipePrefix + id)}})
	if err != nil {
		return out, err
	}
	if len(items) == 0 || !isHead(items[len(items)-1]) {
		return out, failure(ErrNotFound, recipeKind, id)
	}
	if err := attributevalue.UnmarshalMap(items[len(items)-1], &out.Recipe); err != nil {
		return out, err
	}
	var lines []RecipeIngredient
	if err := attributevalue.UnmarshalListOfMaps(items[:len(items)-1], &lines); err != nil {
		return out, err
	}
	out.Ingredients, err = s.withIngredients(ctx, lines)
	return out, err
}

func (s *Store) withIngredients(ctx context.Context, lines []RecipeIngredient) ([]RecipeLine, error) {
	out := make([]RecipeLine, len(lines))
	for n, l := range lines {
		i, err := s.GetIngredient(ctx, l.IngredientID)
		if err != nil {
			return nil, err
		}
		out[n] = RecipeLine{RecipeIngredient: l, Ingredient: i}
	}
	return out, nil
}
