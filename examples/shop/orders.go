package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// PlaceOrder records a PENDING order for an existing user and takes its
// quantities out of stock, all in one transaction: either the order exists
// and every product's stock is reduced, or nothing changed. A product
// may appear in one line only (a transaction touches each item once).
func (s *Store) PlaceOrder(ctx context.Context, userID string, items []OrderItem) (Order, error) {
	now, id, err := s.stamp()
	if err != nil {
		return Order{}, err
	}
	o := Order{ID: id, UserID: userID, Status: StatusPending, Items: items, CreatedAt: now, UpdatedAt: now}
	for _, it := range items {
		o.TotalCents += int64(it.Quantity) * it.PriceCents
	}
	av, err := item(orderKeys(o), "Order", o)
	if err != nil {
		return Order{}, err
	}
	actions := []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String(s.table), Item: av, ConditionExpression: aws.String("attribute_not_exists(PK)")}},
		s.mustExist(pkUsers, userSK(userID)),
	}
	for _, it := range items {
		actions = append(actions, s.takeStock(it, now))
	}
	_, err = s.db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: actions})
	return o, orderError(err, items)
}

// takeStock is the update that removes a line's quantity from its
// product, refused when the product has fewer left.
func (s *Store) takeStock(it OrderItem, now time.Time) types.TransactWriteItem {
	return types.TransactWriteItem{Update: &types.Update{TableName: aws.String(s.table),
		Key:                                 map[string]types.AttributeValue{"PK": str(pkProducts), "SK": str(productSK(it.ProductID))},
		UpdateExpression:                    aws.String("SET stock = stock - :q, updated_at = :now"),
		ConditionExpression:                 aws.String("attribute_exists(PK) AND stock >= :q"),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":q": &types.AttributeValueMemberN{Value: strconv.Itoa(it.Quantity)}, ":now": timeValue(now)}}}
}

// orderError says which of PlaceOrder's actions refused the order.
func orderError(err error, items []OrderItem) error {
	i, reason := failedCheck(err)
	switch {
	case i < 0:
		return err
	case i == 0:
		return ErrExists
	case i == 1:
		return fmt.Errorf("%w: user", ErrNotFound)
	case reason.Item == nil:
		return fmt.Errorf("%w: product %s", ErrNotFound, items[i-2].ProductID)
	}
	return fmt.Errorf("%w: product %s", ErrOutOfStock, items[i-2].ProductID)
}

// UpdateOrderStatus sets an order's status and updated_at, which moves it
// to the status's partition of GSI1, at the end of it.
func (s *Store) UpdateOrderStatus(ctx context.Context, userID, orderID string, status OrderStatus) (Order, error) {
	now := s.now().UTC().Truncate(time.Second)
	out, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(s.table),
		Key:                      map[string]types.AttributeValue{"PK": str(ordersPK(userID)), "SK": str(orderSK(orderID))},
		UpdateExpression:         aws.String("SET #status = :s, updated_at = :now, GSI1PK = :gpk, GSI1SK = :gsk"),
		ConditionExpression:      aws.String("attribute_exists(PK)"),
		ExpressionAttributeNames: map[string]string{"#status": "status"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":s": str(string(status)), ":now": timeValue(now),
			":gpk": str(statusKey(status)), ":gsk": str(atKey(now))},
		ReturnValues: types.ReturnValueAllNew})
	var failed *types.ConditionalCheckFailedException
	if errors.As(err, &failed) {
		return Order{}, ErrNotFound
	}
	var o Order
	if err == nil {
		err = attributevalue.UnmarshalMap(out.Attributes, &o)
	}
	return o, err
}

// UpdateOrderStatusPartiQL is UpdateOrderStatus as a PartiQL UPDATE. It
// needs no attribute_exists condition: a PartiQL UPDATE never creates the
// item, and a missing one fails as ConditionalCheckFailedException.
// "status" is quoted because it is a PartiQL reserved word.
func (s *Store) UpdateOrderStatusPartiQL(ctx context.Context, userID, orderID string, status OrderStatus) (Order, error) {
	now := s.now().UTC().Truncate(time.Second)
	out, err := s.db.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{
		Statement: aws.String(`UPDATE "` + s.table + `" SET "status" = ?, updated_at = ?, GSI1PK = ?, GSI1SK = ?` +
			` WHERE PK = ? AND SK = ? RETURNING ALL NEW *`),
		Parameters: []types.AttributeValue{str(string(status)), timeValue(now), str(statusKey(status)), str(atKey(now)),
			str(ordersPK(userID)), str(orderSK(orderID))}})
	var failed *types.ConditionalCheckFailedException
	if errors.As(err, &failed) {
		return Order{}, ErrNotFound
	}
	if err != nil {
		return Order{}, err
	}
	return only(unmarshalAll[Order](out.Items))
}

// GetUserOrderByID reads PK="USER#<user>" AND SK="ORDER#<order>" from the table.
func (s *Store) GetUserOrderByID(ctx context.Context, userID, orderID string) (Order, error) {
	var o Order
	return o, s.get(ctx, ordersPK(userID), orderSK(orderID), &o)
}

// ListUserOrders queries PK="USER#<user>" AND begins_with(SK, "ORDER#")
// on the table: a user's orders by created_at.
func (s *Store) ListUserOrders(ctx context.Context, userID string, dir Direction) ([]Order, error) {
	return queryAll[Order](ctx, s, query{cond: "PK = :pk AND begins_with(SK, :prefix)",
		values: values(":pk", ordersPK(userID), ":prefix", "ORDER#"), dir: dir})
}

// ListOrdersByStatus queries GSI1 for the orders in a status whose last
// change was at or after since, by updated_at:
// GSI1PK="ORDER#STATUS#<status>" AND GSI1SK >= "AT#<since>".
func (s *Store) ListOrdersByStatus(ctx context.Context, status OrderStatus, since time.Time, dir Direction) ([]Order, error) {
	return queryAll[Order](ctx, s, query{index: indexGSI1, cond: "GSI1PK = :pk AND GSI1SK >= :since",
		values: values(":pk", statusKey(status), ":since", atKey(since)), dir: dir})
}

// ListOrdersByStatusPartiQL is ListOrdersByStatus as a PartiQL SELECT on
// GSI1: equality on GSI1PK makes it the same Query, the range on GSI1SK its
// key condition, and ORDER BY GSI1SK its direction.
func (s *Store) ListOrdersByStatusPartiQL(ctx context.Context, status OrderStatus, since time.Time, dir Direction) ([]Order, error) {
	order := "ASC"
	if dir == Descending {
		order = "DESC"
	}
	return statementAll[Order](ctx, s, `SELECT * FROM "`+s.table+`"."`+indexGSI1+`" WHERE GSI1PK = ? AND GSI1SK >= ? ORDER BY GSI1SK `+order,
		str(statusKey(status)), str(atKey(since)))
}

// timeValue is a time as attributevalue stores a time.Time.
func timeValue(t time.Time) types.AttributeValue {
	av, _ := attributevalue.Marshal(t) // a time.Time always marshals
	return av
}
