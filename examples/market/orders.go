package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Order statuses. The order process writes "placed"; fulfilment moves
// the order on with SetOrderStatus.
const (
	StatusPlaced    = "placed"
	StatusShipped   = "shipped"
	StatusDelivered = "delivered"
)

// rowsPerOrder sizes a page of LastOrders: an order and its items share
// the #O partition, so a page of n orders holds about n times this rows.
const rowsPerOrder = 4

// LastOrders is the access pattern "Get the list of last N orders for
// user": a Query of the user's #O partition, newest first by ULID. The
// order items in that partition are filtered out (tp is only on the
// order itself); a filter applies after Limit, so it reads page after
// page until it has n orders or the partition ends.
func (s *Session) LastOrders(ctx context.Context, n int) ([]Order, error) {
	pk, err := s.pk(OrderShard, false)
	if err != nil || n < 1 {
		return nil, err
	}
	rows, err := s.query(ctx, &dynamodb.QueryInput{
		KeyConditionExpression: aws.String("pk = :pk"),
		FilterExpression:       aws.String("tp = :tp"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": str(pk), ":tp": str(string(OrderKind))},
		ScanIndexForward: aws.Bool(false),
		Limit:            aws.Int32(int32(min(n, 250) * rowsPerOrder)), // past 1,000 rows the 1 MB page limits anyway
	}, func(got int) bool { return got >= n })
	if err != nil {
		return nil, err
	}
	var orders []Order
	err = attributevalue.UnmarshalListOfMaps(rows[:min(n, len(rows))], &orders)
	return orders, err
}

// Order is the access pattern "Get a single order with all its items by
// id": the back end looks the order number up in the sparse
// IdLookupIndex for this user (FindOrder), then the order and its items,
// which sort right after it, are read as the user from their #O
// partition in one Query.
func (s *Session) Order(ctx context.Context, number string) (Order, error) {
	pk, err := s.pk(OrderShard, false)
	if err != nil {
		return Order{}, err
	}
	sk, err := s.store.FindOrder(ctx, s.user, number)
	if err != nil {
		return Order{}, err
	}
	rows, err := s.query(ctx, &dynamodb.QueryInput{
		KeyConditionExpression:    aws.String("pk = :pk AND begins_with(sk, :sk)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": str(pk), ":sk": str(sk)},
	}, all)
	if err != nil {
		return Order{}, err
	}
	return assemble(rows)
}

// FindOrder returns the system key of user's order with this number, as
// the back end answers a signed-in user (user comes from their verified
// token). No tenant policy can let a user query IdLookupIndex, keyed by
// order number, not by user, so the back end does it: the index is keys
// only, and an entry in another user's partition is passed over, so
// another user's order is simply not found and none of its keys leaves
// the back end.
func (s *Store) FindOrder(ctx context.Context, user UserID, number string) (string, error) {
	pk := user.PK(OrderShard)
	out, err := s.db.Query(ctx, &dynamodb.QueryInput{TableName: aws.String(MarketTable),
		IndexName:                 aws.String(IdLookupIndex),
		KeyConditionExpression:    aws.String("id = :id AND tp = :tp"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":id": str(number), ":tp": str(string(OrderKind))}})
	if err != nil {
		return "", err
	}
	var entries []itemKeys
	if err := attributevalue.UnmarshalListOfMaps(out.Items, &entries); err != nil {
		return "", err
	}
	for _, e := range entries {
		if e.PK == pk {
			return e.SK, nil
		}
	}
	return "", ErrNotFound
}

// itemKeys is all a keys-only index entry holds beside the index's keys.
type itemKeys struct {
	PK string `dynamodbav:"pk"`
	SK string `dynamodbav:"sk"`
}

// assemble makes an order of its metadata row and the item rows after it.
func assemble(rows []map[string]types.AttributeValue) (Order, error) {
	var o Order
	if len(rows) == 0 {
		return o, ErrNotFound // deleted since the index was read
	}
	if err := attributevalue.UnmarshalMap(rows[0], &o); err != nil {
		return o, err
	}
	err := attributevalue.UnmarshalListOfMaps(rows[1:], &o.Items)
	return o, err
}

// maxLines is what fits in one TransactWriteItems (100 actions) beside
// the order, its reward and the cart's deletion.
const maxLines = 97

// PlaceOrder turns a user's cart into an order, as the order process
// does. One transaction writes the order and its items to the user's #O
// partition and the reward it earns to #R, and deletes the cart, but only
// if the cart is unchanged since it was read and still live.
// It returns the order and the reward, a point per whole unit spent.
func (s *Store) PlaceOrder(ctx context.Context, user UserID, cartKey Key) (Order, Reward, error) {
	cart, err := s.cart(ctx, s.conn, user.PK(CartShard), cartKey)
	if err != nil {
		return Order{}, Reward{}, err
	}
	if len(cart.Lines) == 0 {
		return Order{}, Reward{}, ErrEmptyCart
	}
	if len(cart.Lines) > maxLines {
		return Order{}, Reward{}, ErrCartTooBig
	}
	order := s.newOrder(user, cart)
	reward := s.newReward(user, int(order.Total/100), "Order "+order.Number)
	if err := s.commit(ctx, order, reward, cart); err != nil {
		return Order{}, Reward{}, err
	}
	return order, reward, nil
}

func (s *Store) commit(ctx context.Context, o Order, r Reward, c Cart) error {
	writes, err := s.checkout(o, r, c)
	if err != nil {
		return err
	}
	_, err = s.db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: writes})
	return checkoutError(err)
}

// newOrder makes an order of a cart's lines, one item per line.
func (s *Store) newOrder(user UserID, cart Cart) Order {
	o := Order{PK: user.PK(OrderShard), Key: s.ids.key(OrderKind), Number: s.ids.orderNumber(),
		Type: string(OrderKind), Placed: s.clock(), Status: StatusPlaced, Total: total(cart.Lines)}
	for i, l := range cart.Lines {
		o.Items = append(o.Items, OrderItem{PK: o.PK, SK: o.Key.line(i + 1), Product: l.Product,
			Name: l.Name, Qty: l.Qty, UnitPrice: l.UnitPrice})
	}
	return o
}

// checkout is the transaction: every new item is put only if its key is
// new, and the cart is deleted only at the revision that was read.
func (s *Store) checkout(o Order, r Reward, c Cart) ([]types.TransactWriteItem, error) {
	items := []any{o, r}
	for _, it := range o.Items {
		items = append(items, it)
	}
	var writes []types.TransactWriteItem
	for _, it := range items {
		av, err := attributevalue.MarshalMap(it)
		if err != nil {
			return nil, err
		}
		writes = append(writes, types.TransactWriteItem{Put: &types.Put{TableName: aws.String(MarketTable),
			Item: av, ConditionExpression: aws.String("attribute_not_exists(pk)")}})
	}
	return append(writes, s.deleteCart(c)), nil
}

func (s *Store) deleteCart(c Cart) types.TransactWriteItem {
	return types.TransactWriteItem{Delete: &types.Delete{TableName: aws.String(MarketTable),
		Key:                       key(c.PK, c.Key.String()),
		ConditionExpression:       aws.String("rev = :rev AND #ttl >= :now"),
		ExpressionAttributeNames:  map[string]string{"#ttl": ttlAttribute},
		ExpressionAttributeValues: map[string]types.AttributeValue{":rev": num(int64(c.Rev)), ":now": epoch(s.clock())}}}
}

// checkoutError names the one condition a well-formed checkout can fail:
// the cart's, the last action.
func checkoutError(err error) error {
	var tc *types.TransactionCanceledException
	if !errors.As(err, &tc) || len(tc.CancellationReasons) == 0 {
		return err
	}
	if aws.ToString(tc.CancellationReasons[len(tc.CancellationReasons)-1].Code) == "ConditionalCheckFailed" {
		return ErrCartChanged
	}
	return err
}

// SetOrderStatus moves an order on, as fulfilment does when it holds
// only the order's system key (from a stream record or a queue message):
// the ReverseIndex finds the order's partition, and the update goes
// through the primary index, as the design requires of every write.
func (s *Store) SetOrderStatus(ctx context.Context, order Key, status string) error {
	if order.Kind != OrderKind {
		return fmt.Errorf("market: %s is not an order key", order)
	}
	pk, err := s.partitionOf(ctx, order.String(), OrderShard)
	if err != nil {
		return err
	}
	_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(MarketTable),
		Key:                       key(pk, order.String()),
		UpdateExpression:          aws.String("SET #status = :status"),
		ConditionExpression:       aws.String("attribute_exists(pk)"),
		ExpressionAttributeNames:  map[string]string{"#status": "status"}, // a reserved word
		ExpressionAttributeValues: map[string]types.AttributeValue{":status": str(status)}})
	if conditionFailed(err) {
		return ErrNotFound
	}
	return err
}

// partitionOf is the lookup by system key, for an item kept in shard.
// The design says the ReverseIndex holds one entry per system key, but
// nothing enforces it: a user may write any sort key into their own
// profile or cart shard, even a copy of another user's order key, and the
// tenant policy cannot stop that (LeadingKeys sees partition keys only).
// So the entry is taken only from a partition of the expected shard,
// never the first row as such.
func (s *Store) partitionOf(ctx context.Context, sk string, shard Shard) (string, error) {
	out, err := s.db.Query(ctx, &dynamodb.QueryInput{TableName: aws.String(MarketTable),
		IndexName:                 aws.String(ReverseIndex),
		KeyConditionExpression:    aws.String("sk = :sk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":sk": str(sk)}})
	if err != nil {
		return "", err
	}
	var entries []itemKeys
	if err := attributevalue.UnmarshalListOfMaps(out.Items, &entries); err != nil {
		return "", err
	}
	for _, e := range entries {
		if user, ok := strings.CutSuffix(e.PK, "#"+string(shard)); ok && validUserKey(user) {
			return e.PK, nil
		}
	}
	return "", ErrNotFound
}
