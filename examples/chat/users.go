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

// GetUserPartiQL is GetUser as a PartiQL SELECT: equality on PK, the
// Users table's whole key, makes it the same single-item read.
func (s *Store) GetUserPartiQL(ctx context.Context, id string) (User, error) {
	var us []User
	if err := s.statement(ctx, &us, `SELECT * FROM "`+UsersTable+`" WHERE PK = ?`, str(userPK(id))); err != nil {
		return User{}, err
	}
	if len(us) == 0 {
		return User{}, ErrNotFound
	}
	return us[0], nil
}

// TouchUser records that the user was just seen.
func (s *Store) TouchUser(ctx context.Context, id string) error {
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(UsersTable), Key: userKey(id),
		UpdateExpression:          aws.String("SET LastSeenAt = :now"),
		ConditionExpression:       aws.String("attribute_exists(PK)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":now": str(stamp(s.now()))}})
	return err
}

// TouchUserPartiQL is TouchUser as a PartiQL UPDATE, which never creates
// an item: an unknown user fails as ConditionalCheckFailedException, as
// TouchUser's attribute_exists(PK) does.
func (s *Store) TouchUserPartiQL(ctx context.Context, id string) error {
	_, err := s.db.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{
		Statement:  aws.String(`UPDATE "` + UsersTable + `" SET LastSeenAt = ? WHERE PK = ?`),
		Parameters: []types.AttributeValue{str(stamp(s.now())), str(userPK(id))}})
	return err
}
