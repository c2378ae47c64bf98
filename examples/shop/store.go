package main

import (
	"context"
	"crypto/rand"
	"errors"
	"io"
	"maps"
	mrand "math/rand/v2"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/segmentio/ksuid"
)

// Errors the access patterns return.
var (
	ErrNotFound   = errors.New("shop: not found")
	ErrExists     = errors.New("shop: already exists")
	ErrOutOfStock = errors.New("shop: not enough stock")
)

// Direction is the order a list is read in, DynamoDB's ScanIndexForward.
type Direction bool

// The two directions, by the sort key of the table or index read.
const (
	Ascending  Direction = true  // oldest first, or A to Z
	Descending Direction = false // newest first, or Z to A
)

// Store is the shop's data-access layer on one DynamoDB table.
type Store struct {
	db    *dynamodb.Client
	table string
	// now and entropy make ids and timestamps; the demo replaces them so
	// that it writes the same items on every run.
	now     func() time.Time
	entropy io.Reader
	// backoff, sleep and jitter pace the bulk loader's resends; the tests
	// seed the jitter and replace the sleep by a move of a virtual clock.
	backoff Backoff
	sleep   func(context.Context, time.Duration) error
	jitter  func(time.Duration) time.Duration
}

// NewStore is a Store on table, with the wall clock and random ids.
func NewStore(db *dynamodb.Client, table string) *Store {
	return &Store{db: db, table: table, now: time.Now, entropy: rand.Reader,
		backoff: DefaultBackoff, sleep: sleepCtx, jitter: fullJitter(mrand.Int64N)}
}

// fullJitter is a wait drawn evenly below ceiling, from n (an Int64N).
func fullJitter(n func(int64) int64) func(time.Duration) time.Duration {
	return func(ceiling time.Duration) time.Duration {
		if ceiling <= 0 {
			return 0
		}
		return time.Duration(n(int64(ceiling)))
	}
}

// stamp is the creation time and id of a new entity. The time is cut to
// the second, the KSUID's resolution, so that created_at and the order of
// ids agree.
func (s *Store) stamp() (time.Time, string, error) {
	t := s.now().UTC().Truncate(time.Second)
	payload := make([]byte, 16)
	if _, err := io.ReadFull(s.entropy, payload); err != nil {
		return t, "", err
	}
	id, err := ksuid.FromParts(t, payload)
	return t, id.String(), err
}

// firstIDAt is the smallest KSUID of second t: every id made at t or later
// sorts after it.
func firstIDAt(t time.Time) string {
	id, _ := ksuid.FromParts(t, make([]byte, 16)) // fails only on a short payload
	return id.String()
}

// item is an entity's stored form: its attributes, its keys and its type.
func item(keys Keys, typ string, entity any) (map[string]types.AttributeValue, error) {
	av, err := attributevalue.MarshalMap(entity)
	if err != nil {
		return nil, err
	}
	k, err := attributevalue.MarshalMap(keys)
	maps.Copy(av, k)
	av["type"] = &types.AttributeValueMemberS{Value: typ}
	return av, err
}

// create writes a new item, refusing to replace one with the same key.
func (s *Store) create(ctx context.Context, keys Keys, typ string, entity any) error {
	av, err := item(keys, typ, entity)
	if err != nil {
		return err
	}
	_, err = s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.table), Item: av,
		ConditionExpression: aws.String("attribute_not_exists(PK)")})
	var failed *types.ConditionalCheckFailedException
	if errors.As(err, &failed) {
		return ErrExists
	}
	return err
}

// get reads one item by its table key into out.
func (s *Store) get(ctx context.Context, pk, sk string, out any) error {
	res, err := s.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(s.table),
		Key: map[string]types.AttributeValue{"PK": str(pk), "SK": str(sk)}})
	if err != nil {
		return err
	}
	if res.Item == nil {
		return ErrNotFound
	}
	return attributevalue.UnmarshalMap(res.Item, out)
}

// query is one access pattern's Query: a key condition on the table or an
// index, its values, and the direction.
type query struct {
	index  string
	cond   string
	values map[string]types.AttributeValue
	dir    Direction
}

// queryAll runs q page by page and returns every item it matches, in
// the order DynamoDB returns them.
func queryAll[T any](ctx context.Context, s *Store, q query) ([]T, error) {
	in := &dynamodb.QueryInput{TableName: aws.String(s.table), KeyConditionExpression: aws.String(q.cond),
		ExpressionAttributeValues: q.values, ScanIndexForward: aws.Bool(bool(q.dir))}
	if q.index != "" {
		in.IndexName = aws.String(q.index)
	}
	var all []T
	for pages := dynamodb.NewQueryPaginator(s.db, in); pages.HasMorePages(); {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		var items []T
		if err := attributevalue.UnmarshalListOfMaps(page.Items, &items); err != nil {
			return nil, err
		}
		all = append(all, items...)
	}
	return all, nil
}

// statementAll runs a PartiQL SELECT page by page and returns every item
// it matches, in the order DynamoDB returns them.
func statementAll[T any](ctx context.Context, s *Store, stmt string, params ...types.AttributeValue) ([]T, error) {
	in := &dynamodb.ExecuteStatementInput{Statement: aws.String(stmt), Parameters: params}
	var all []T
	for {
		page, err := s.db.ExecuteStatement(ctx, in)
		if err != nil {
			return nil, err
		}
		items, err := unmarshalAll[T](page.Items)
		if err != nil {
			return nil, err
		}
		all = append(all, items...)
		if page.NextToken == nil {
			return all, nil
		}
		in.NextToken = page.NextToken
	}
}

func unmarshalAll[T any](items []map[string]types.AttributeValue) ([]T, error) {
	var out []T
	return out, attributevalue.UnmarshalListOfMaps(items, &out)
}

// only is the single result of a lookup that matches at most one item.
func only[T any](items []T, err error) (T, error) {
	var zero T
	if err != nil {
		return zero, err
	}
	if len(items) == 0 {
		return zero, ErrNotFound
	}
	return items[0], nil
}

func str(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

// values are a key condition's values, given as name, value pairs; every
// key in this design is a string.
func values(pairs ...string) map[string]types.AttributeValue {
	m := make(map[string]types.AttributeValue, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		m[pairs[i]] = str(pairs[i+1])
	}
	return m
}

// mustExist is a transaction's check that an item is there.
func (s *Store) mustExist(pk, sk string) types.TransactWriteItem {
	return types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{TableName: aws.String(s.table),
		Key: map[string]types.AttributeValue{"PK": str(pk), "SK": str(sk)}, ConditionExpression: aws.String("attribute_exists(PK)")}}
}

// failedCheck is the position of the first action whose condition failed
// in a cancelled transaction, with its reason, or -1.
func failedCheck(err error) (int, types.CancellationReason) {
	var canceled *types.TransactionCanceledException
	if errors.As(err, &canceled) {
		for i, r := range canceled.CancellationReasons {
			if aws.ToString(r.Code) == "ConditionalCheckFailed" {
				return i, r
			}
		}
	}
	return -1, types.CancellationReason{}
}

// transactionError turns a failed condition of action i into errs[i]
// (actions past the end into the last one); other errors pass through.
func transactionError(err error, errs ...error) error {
	i, _ := failedCheck(err)
	if i < 0 {
		return err
	}
	return errs[min(i, len(errs)-1)]
}
