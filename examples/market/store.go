package main

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Errors the access patterns and writes return.
var (
	ErrNotFound    = errors.New("market: not found")
	ErrForbidden   = errors.New("market: this user may not write that shard")
	ErrUserExists  = errors.New("market: user already exists")
	ErrEmptyCart   = errors.New("market: cart is empty")
	ErrCartTooBig  = errors.New("market: cart has more lines than one order can hold")
	ErrCartChanged = errors.New("market: cart changed or expired during checkout")
)

// conn is one principal's reach into the Market table: the back end's,
// or a signed-in user's, whose requests the database itself keeps to that
// user's partitions (tenant-policy.json).
type conn struct{ db *dynamodb.Client }

// UserClients gives the DynamoDB client acting as a user: on AWS, one
// with the credentials Cognito issued for that user's session, tagged
// with their id; under sortkey, one signed with the auth file's keys of
// that user (UserKeys).
type UserClients func(UserID) *dynamodb.Client

// Store is the trusted back end: the asynchronous processes that write
// orders, rewards and order status, which no user may write directly.
// Users get a Session instead.
type Store struct {
	conn
	users UserClients
	now   func() time.Time
	ids   *ids
}

// NewStore uses backEnd, a client acting as the back end, for the Market
// table, users for each user's Session (nil: sessions share backEnd, and
// only the app's own guards keep tenants apart), and now as its clock
// (time.Now, or a test's clock, which must then be the server's clock
// too, so that the ttl the store writes and the expiry the server
// applies agree).
func NewStore(backEnd *dynamodb.Client, users UserClients, now func() time.Time) *Store {
	return &Store{conn: conn{backEnd}, users: users, now: now, ids: newIDs(now)}
}

// clock is the store's time at the precision of a ULID, in UTC.
func (s *Store) clock() time.Time { return s.now().UTC().Truncate(time.Millisecond) }

// Session is what one signed-in user may do: read any of their own
// shards, and write only their profile and carts (the design's
// read/write profile shard and read-only order and reward shards). It
// never builds a key of another user; and its requests go out as that
// user, so the database refuses whatever reaches past their partitions.
type Session struct {
	conn
	store *Store
	user  UserID
}

// As opens a session for user, the identity a real deployment takes from
// the caller's verified Cognito token, on that user's client.
func (s *Store) As(user UserID) *Session {
	c := s.conn
	if s.users != nil {
		c = conn{s.users(user)}
	}
	return &Session{conn: c, store: s, user: user}
}

// writable is the per-shard access of the design: users write their
// profile (and their carts, which are theirs to change likewise); orders
// and rewards are written by the back end.
var writable = map[Shard]bool{ProfileShard: true, CartShard: true}

// pk is the partition key of one of the session user's shards, refused
// when the session would write a shard the user may only read.
func (s *Session) pk(shard Shard, write bool) (string, error) {
	if write && !writable[shard] {
		return "", ErrForbidden
	}
	return s.user.PK(shard), nil
}

func str(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

func num(n int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}
}

func key(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"pk": str(pk), "sk": str(sk)}
}

// get reads one item by its primary key.
func (s conn) get(ctx context.Context, pk, sk string, consistent bool) (map[string]types.AttributeValue, error) {
	res, err := s.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(MarketTable),
		Key: key(pk, sk), ConsistentRead: aws.Bool(consistent)})
	if err != nil {
		return nil, err
	}
	if res.Item == nil {
		return nil, ErrNotFound
	}
	return res.Item, nil
}

// query reads the pages of in until they end or enough(rows so far)
// says to stop, so a caller wanting a few rows pays for few pages.
func (s conn) query(ctx context.Context, in *dynamodb.QueryInput, enough func(int) bool) ([]map[string]types.AttributeValue, error) {
	in.TableName = aws.String(MarketTable)
	var rows []map[string]types.AttributeValue
	pages := dynamodb.NewQueryPaginator(s.db, in)
	for pages.HasMorePages() && !enough(len(rows)) {
		out, err := pages.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		rows = append(rows, out.Items...)
	}
	return rows, nil
}

// statement reads every page of a PartiQL SELECT.
func (s conn) statement(ctx context.Context, stmt string, params ...types.AttributeValue) ([]map[string]types.AttributeValue, error) {
	in := &dynamodb.ExecuteStatementInput{Statement: aws.String(stmt), Parameters: params}
	var rows []map[string]types.AttributeValue
	for {
		out, err := s.db.ExecuteStatement(ctx, in)
		if err != nil {
			return nil, err
		}
		rows = append(rows, out.Items...)
		if out.NextToken == nil {
			return rows, nil
		}
		in.NextToken = out.NextToken
	}
}

func all(int) bool { return false }

func conditionFailed(err error) bool {
	var ccf *types.ConditionalCheckFailedException
	return errors.As(err, &ccf)
}
