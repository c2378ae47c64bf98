package main

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// maxAttempts bounds how often a food edit re-reads its position. Only a
// removal earlier in the list moves a food, so each failed attempt means
// another edit succeeded.
const maxAttempts = 10

// AddFood appends a food to a container's Foods. list_append works on the
// list as stored when the write applies, so concurrent adds all land. A
// food without an ID gets a fresh UUID, and one without a creation time
// gets the store's clock.
func (s *Store) AddFood(ctx context.Context, containerID string, f Food) (Food, error) {
	if f.FoodId == "" {
		f.FoodId = newUUID()
	}
	if f.CreatedDatetime == "" {
		f.CreatedDatetime = iso(s.Now())
	}
	food, err := attributevalue.Marshal([]Food{f})
	if err != nil {
		return Food{}, err
	}
	_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(s.table), Key: key(containerID, skContainer),
		UpdateExpression:          aws.String("SET Foods = list_append(if_not_exists(Foods, :empty), :food)"),
		ConditionExpression:       aws.String("attribute_exists(PK)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":empty": &types.AttributeValueMemberL{}, ":food": food}})
	if conditionFailed(err) {
		return Food{}, fmt.Errorf("container %s: %w", containerID, ErrNotFound)
	}
	return f, err
}

// UpdateFood sets the Name, Unit, Quantity, Category and Expiry of the
// food with f's FoodId; its ID and creation time stay.
func (s *Store) UpdateFood(ctx context.Context, containerID string, f Food) error {
	return s.atFood(ctx, containerID, f.FoodId, func(i int) error { return s.updateFoodAt(ctx, containerID, i, f) })
}

// RemoveFood removes a food from a container's Foods.
func (s *Store) RemoveFood(ctx context.Context, containerID, foodID string) error {
	return s.atFood(ctx, containerID, foodID, func(i int) error { return s.removeFoodAt(ctx, containerID, i, foodID) })
}

// atFood finds a food's position in the list and writes there. A write at
// Foods[i] holds only while Foods[i] is still that food, so when a
// concurrent removal has moved it the write fails and is retried from a
// fresh read, never touching another food.
func (s *Store) atFood(ctx context.Context, containerID, foodID string, write func(i int) error) error {
	for range maxAttempts {
		i, err := s.foodIndex(ctx, containerID, foodID)
		if err != nil {
			return err
		}
		if err = write(i); !conditionFailed(err) {
			return err
		}
	}
	return fmt.Errorf("food %s: %w", foodID, ErrContended)
}

// foodIndex is the position of a food in a container's Foods.
func (s *Store) foodIndex(ctx context.Context, containerID, foodID string) (int, error) {
	res, err := s.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(s.table), Key: key(containerID, skContainer),
		ProjectionExpression: aws.String("Foods"), ConsistentRead: aws.Bool(true)})
	if err != nil {
		return 0, err
	}
	var c Container
	if err := attributevalue.UnmarshalMap(res.Item, &c); err != nil {
		return 0, err
	}
	for i, f := range c.Foods {
		if f.FoodId == foodID {
			return i, nil
		}
	}
	return 0, fmt.Errorf("food %s in container %s: %w", foodID, containerID, ErrNotFound)
}

// updateFoodAt sets the fields of Foods[i], if it is still the food.
// Field by field, so that it never overwrites another edit's FoodId or
// CreatedDatetime.
func (s *Store) updateFoodAt(ctx context.Context, containerID string, i int, f Food) error {
	values, err := attributevalue.MarshalMap(map[string]any{":id": f.FoodId, ":name": f.Name, ":unit": f.Unit,
		":quantity": f.Quantity, ":category": f.Category, ":expiry": f.Expiry})
	if err != nil {
		return err
	}
	at := fmt.Sprintf("Foods[%d]", i)
	_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(s.table), Key: key(containerID, skContainer),
		UpdateExpression: aws.String(fmt.Sprintf("SET %[1]s.#name = :name, %[1]s.#unit = :unit, %[1]s.Quantity = :quantity, "+
			"%[1]s.Category = :category, %[1]s.Expiry = :expiry", at)),
		ConditionExpression:       aws.String(at + ".FoodId = :id"),
		ExpressionAttributeNames:  map[string]string{"#name": "Name", "#unit": "Unit"}, // reserved words
		ExpressionAttributeValues: values})
	return err
}

// removeFoodAt removes Foods[i], if it is still the food.
func (s *Store) removeFoodAt(ctx context.Context, containerID string, i int, foodID string) error {
	at := fmt.Sprintf("Foods[%d]", i)
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(s.table), Key: key(containerID, skContainer),
		UpdateExpression:          aws.String("REMOVE " + at),
		ConditionExpression:       aws.String(at + ".FoodId = :id"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":id": str(foodID)}})
	return err
}
