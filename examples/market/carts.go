package main

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// CartLifetime is how long a cart lives after its last change.
const CartLifetime = 24 * time.Hour

// OpenCart starts an empty cart in the user's #C shard, with a ttl one
// CartLifetime away.
func (s *Session) OpenCart(ctx context.Context) (Cart, error) {
	pk, err := s.pk(CartShard, true)
	if err != nil {
		return Cart{}, err
	}
	now := s.store.clock()
	c := Cart{PK: pk, Key: s.store.ids.key(CartKind), Type: string(CartKind), Lines: []CartLine{},
		Expires: now.Add(CartLifetime).Truncate(time.Second)}
	item, err := attributevalue.MarshalMap(c)
	if err != nil {
		return Cart{}, err
	}
	_, err = s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(MarketTable), Item: item,
		ConditionExpression: aws.String("attribute_not_exists(pk)")})
	return c, err
}

// AddToCart appends a line and pushes the cart's expiry back. A cart
// whose ttl has passed is refused even if it is still there: DynamoDB
// deletes expired items some time after they expire, not at once.
func (s *Session) AddToCart(ctx context.Context, cart Key, line CartLine) (Cart, error) {
	pk, err := s.pk(CartShard, true)
	if err != nil {
		return Cart{}, err
	}
	in, err := s.store.addLine(pk, cart, line)
	if err != nil {
		return Cart{}, err
	}
	out, err := s.db.UpdateItem(ctx, in)
	if conditionFailed(err) {
		return Cart{}, ErrNotFound
	}
	if err != nil {
		return Cart{}, err
	}
	return unmarshalCart(out.Attributes)
}

// unmarshalCart reads a cart with its expiry in UTC, like every other
// time the store returns (attributevalue reads unixtime in local time).
func unmarshalCart(item map[string]types.AttributeValue) (Cart, error) {
	var c Cart
	err := attributevalue.UnmarshalMap(item, &c)
	c.Expires = c.Expires.UTC()
	return c, err
}

func (s *Store) addLine(pk string, cart Key, line CartLine) (*dynamodb.UpdateItemInput, error) {
	lines, err := attributevalue.Marshal([]CartLine{line})
	if err != nil {
		return nil, err
	}
	now := s.clock()
	return &dynamodb.UpdateItemInput{TableName: aws.String(MarketTable), Key: key(pk, cart.String()),
		UpdateExpression:         aws.String("SET #lines = list_append(#lines, :line), #ttl = :ttl ADD rev :one"),
		ConditionExpression:      aws.String("attribute_exists(pk) AND #ttl >= :now"),
		ExpressionAttributeNames: map[string]string{"#lines": "lines", "#ttl": ttlAttribute}, // reserved words
		ExpressionAttributeValues: map[string]types.AttributeValue{":line": lines, ":one": num(1),
			":ttl": num(now.Add(CartLifetime).Unix()), ":now": epoch(now)},
		ReturnValues: types.ReturnValueAllNew}, nil
}

// epoch is t in epoch seconds to the millisecond. An item expires once
// its ttl is earlier than now, so a cart is live while ttl >= epoch(now),
// the same instant the table's expiry uses.
func epoch(t time.Time) types.AttributeValue {
	ms := t.UnixMilli()
	return &types.AttributeValueMemberN{Value: fmt.Sprintf("%d.%03d", ms/1000, ms%1000)}
}

// Cart reads one of the user's carts. An expired cart is not found,
// whether or not DynamoDB has deleted it yet.
func (s *Session) Cart(ctx context.Context, cart Key) (Cart, error) {
	pk, err := s.pk(CartShard, false)
	if err != nil {
		return Cart{}, err
	}
	return s.store.cart(ctx, s.conn, pk, cart)
}

// cart reads a live cart through via (the user's or the back end's),
// strongly consistent, since checkout must see the last line added.
func (s *Store) cart(ctx context.Context, via conn, pk string, cart Key) (Cart, error) {
	item, err := via.get(ctx, pk, cart.String(), true)
	if err != nil {
		return Cart{}, err
	}
	c, err := unmarshalCart(item)
	if err != nil {
		return Cart{}, err
	}
	if s.clock().After(c.Expires) {
		return Cart{}, ErrNotFound
	}
	return c, nil
}
