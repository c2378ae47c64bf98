package main

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

type userItem struct {
	PK string
	User
}

func userKey(id string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"PK": str(userPK(id))}
}

// CreateUser stores a new user; an existing id is refused.
func (s *Store) CreateUser(ctx context.Context, u User) (User, error) {
	u.ID = s.idOr(u.ID)
	u.CreatedAt = stamp(s.now())
	u.LastSeenAt = u.CreatedAt
	item, err := attributevalue.MarshalMap(userItem{PK: userPK(u.ID), User: u})
	if err != nil {
		return User{}, err
	}
	_, err = s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(UsersTable), Item: item,
		ConditionExpression: aws.String("attribute_not_exists(PK)")})
	return u, err
}

// GetUser is "Get a user": one GetItem on the Users table.
func (s *Store) GetUser(ctx context.Context, id string) (User, error) {
	var u User
	err := s.get(ctx, UsersTable, userKey(id), &u)
	return u, err
}

// TouchUser records that the user was just seen.
func (s *Store) TouchUser(ctx context.Context, id string) error {
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(UsersTable), Key: userKey(id),
		UpdateExpression:          aws.String("SET LastSeenAt = :now"),
		ConditionExpression:       aws.String("attribute_exists(PK)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":now": str(stamp(s.now()))}})
	return err
}
