package main

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// CreateUser writes a new user's profile, as sign-up does (in a real
// deployment, Cognito's post-confirmation trigger). The profile item's
// pk and sk are both the user's key; a user who exists is refused.
func (s *Store) CreateUser(ctx context.Context, user UserID, p Profile) error {
	p.PK, p.SK, p.Type = user.Key(), user.Key(), string(UserKind)
	item, err := attributevalue.MarshalMap(p)
	if err != nil {
		return err
	}
	_, err = s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(MarketTable), Item: item,
		ConditionExpression: aws.String("attribute_not_exists(pk)")})
	if conditionFailed(err) {
		return ErrUserExists
	}
	return err
}

// Profile is the access pattern "Get user profile": one GetItem of the
// profile item in the user's profile shard.
func (s *Session) Profile(ctx context.Context) (Profile, error) {
	var p Profile
	pk, err := s.pk(ProfileShard, false)
	if err != nil {
		return p, err
	}
	item, err := s.get(ctx, pk, s.user.Key(), false)
	if err != nil {
		return p, err
	}
	err = attributevalue.UnmarshalMap(item, &p)
	return p, err
}

// ProfilePartiQL is Profile as a PartiQL SELECT: equality on pk and sk,
// the whole key, makes it the same single-item read.
func (s *Session) ProfilePartiQL(ctx context.Context) (Profile, error) {
	var p Profile
	pk, err := s.pk(ProfileShard, false)
	if err != nil {
		return p, err
	}
	rows, err := s.statement(ctx, `SELECT * FROM "`+MarketTable+`" WHERE pk = ? AND sk = ?`, str(pk), str(s.user.Key()))
	if err != nil {
		return p, err
	}
	if len(rows) == 0 {
		return p, ErrNotFound
	}
	err = attributevalue.UnmarshalMap(rows[0], &p)
	return p, err
}

// SaveProfile changes the user's contact details, the write the design's
// read/write profile shard allows. The handle (the business id) and the
// keys stay as sign-up wrote them.
func (s *Session) SaveProfile(ctx context.Context, p Profile) error {
	pk, err := s.pk(ProfileShard, true)
	if err != nil {
		return err
	}
	values, err := profileValues(p)
	if err != nil {
		return err
	}
	_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(MarketTable),
		Key:                       key(pk, s.user.Key()),
		UpdateExpression:          aws.String("SET #name = :name, email = :email, phones = :phones, addresses = :addresses"),
		ConditionExpression:       aws.String("attribute_exists(pk)"),
		ExpressionAttributeNames:  map[string]string{"#name": "name"}, // a reserved word
		ExpressionAttributeValues: values})
	if conditionFailed(err) {
		return ErrNotFound
	}
	return err
}

// SaveProfilePartiQL is SaveProfile as a PartiQL UPDATE. A PartiQL
// UPDATE never creates its item, so attribute_exists(pk) goes without
// saying; "name" is quoted as the reserved word it is.
func (s *Session) SaveProfilePartiQL(ctx context.Context, p Profile) error {
	pk, err := s.pk(ProfileShard, true)
	if err != nil {
		return err
	}
	v, err := profileValues(p)
	if err != nil {
		return err
	}
	_, err = s.db.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{
		Statement: aws.String(`UPDATE "` + MarketTable + `" SET "name" = ?, email = ?, phones = ?, addresses = ?` +
			` WHERE pk = ? AND sk = ?`),
		Parameters: []types.AttributeValue{v[":name"], v[":email"], v[":phones"], v[":addresses"], str(pk), str(s.user.Key())}})
	if conditionFailed(err) {
		return ErrNotFound
	}
	return err
}

func profileValues(p Profile) (map[string]types.AttributeValue, error) {
	phones, err := attributevalue.Marshal(p.Phones)
	if err != nil {
		return nil, err
	}
	addresses, err := attributevalue.Marshal(p.Addresses)
	if err != nil {
		return nil, err
	}
	return map[string]types.AttributeValue{":name": str(p.Name), ":email": str(p.Email),
		":phones": phones, ":addresses": addresses}, nil
}
