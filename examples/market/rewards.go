package main

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Bonuses is the access pattern "Display bonuses for user": every reward
// in the user's #R partition, newest first by ULID.
func (s *Session) Bonuses(ctx context.Context) ([]Reward, error) {
	pk, err := s.pk(RewardShard, false)
	if err != nil {
		return nil, err
	}
	rows, err := s.query(ctx, &dynamodb.QueryInput{
		KeyConditionExpression:    aws.String("pk = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": str(pk)},
		ScanIndexForward:          aws.Bool(false),
	}, all)
	if err != nil {
		return nil, err
	}
	var rewards []Reward
	err = attributevalue.UnmarshalListOfMaps(rows, &rewards)
	return rewards, err
}

// BonusesPartiQL is Bonuses as a PartiQL SELECT: equality on pk makes it
// the same Query, and ORDER BY sk DESC its newest-first order.
func (s *Session) BonusesPartiQL(ctx context.Context) ([]Reward, error) {
	pk, err := s.pk(RewardShard, false)
	if err != nil {
		return nil, err
	}
	rows, err := s.statement(ctx, `SELECT * FROM "`+MarketTable+`" WHERE pk = ? ORDER BY sk DESC`, str(pk))
	if err != nil {
		return nil, err
	}
	var rewards []Reward
	err = attributevalue.UnmarshalListOfMaps(rows, &rewards)
	return rewards, err
}

// Balance is the points the rewards add up to.
func Balance(rewards []Reward) int {
	n := 0
	for _, r := range rewards {
		n += r.Points
	}
	return n
}

// GrantBonus records a reward that comes with no order, such as a
// welcome bonus, as the back end's rewards process does.
func (s *Store) GrantBonus(ctx context.Context, user UserID, points int, reason string) (Reward, error) {
	r := s.newReward(user, points, reason)
	item, err := attributevalue.MarshalMap(r)
	if err != nil {
		return Reward{}, err
	}
	_, err = s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(MarketTable), Item: item,
		ConditionExpression: aws.String("attribute_not_exists(pk)")})
	return r, err
}

func (s *Store) newReward(user UserID, points int, reason string) Reward {
	return Reward{PK: user.PK(RewardShard), Key: s.ids.key(RewardKind), Type: string(RewardKind),
		Points: points, Reason: reason, Granted: s.clock()}
}
