package main

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Errors the store returns, wrapped with the IDs concerned.
var (
	ErrNotFound      = errors.New("not found")
	ErrExists        = errors.New("already exists")
	ErrAlreadyMember = errors.New("already a member")
	ErrLinkExpired   = errors.New("invitation link expired")
	ErrAmbiguous     = errors.New("more than one item matches")
	ErrContended     = errors.New("too many concurrent changes, try again")
)

// Store is Nishiki's data-access layer on one table.
type Store struct {
	db    *dynamodb.Client
	table string
	// Now is the clock for food creation times and invitation expiry.
	Now func() time.Time
}

// NewStore returns a store on table, with the system clock.
func NewStore(db *dynamodb.Client, table string) *Store {
	return &Store{db: db, table: table, Now: time.Now}
}

func str(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

func key(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"PK": str(pk), "SK": str(sk)}
}

// item marshals an entity, whose ID field is its partition key, and adds
// its sort key.
func item(sk string, entity any) (map[string]types.AttributeValue, error) {
	it, err := attributevalue.MarshalMap(entity)
	if err != nil {
		return nil, err
	}
	it["SK"] = str(sk)
	return it, nil
}

// get reads one item into out, or returns ErrNotFound.
func (s *Store) get(ctx context.Context, pk, sk string, out any) error {
	res, err := s.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(s.table), Key: key(pk, sk)})
	if err != nil {
		return err
	}
	if res.Item == nil {
		return fmt.Errorf("%s %s: %w", sk, pk, ErrNotFound)
	}
	return attributevalue.UnmarshalMap(res.Item, out)
}

// queryPrefix reads the items of a partition whose sort key begins with
// prefix, in sort key order.
func (s *Store) queryPrefix(ctx context.Context, pk, prefix string, out any) error {
	return s.query(ctx, out, &dynamodb.QueryInput{TableName: aws.String(s.table),
		KeyConditionExpression:    aws.String("PK = :pk AND begins_with(SK, :prefix)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": str(pk), ":prefix": str(prefix)}})
}

// queryIndex reads the entries of an index whose partition key attr is value.
func (s *Store) queryIndex(ctx context.Context, index, attr, value string, out any) error {
	return s.query(ctx, out, &dynamodb.QueryInput{TableName: aws.String(s.table), IndexName: aws.String(index),
		KeyConditionExpression:    aws.String(attr + " = :v"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":v": str(value)}})
}

// query reads every page of a query into out, a pointer to a slice.
func (s *Store) query(ctx context.Context, out any, in *dynamodb.QueryInput) error {
	var items []map[string]types.AttributeValue
	for p := dynamodb.NewQueryPaginator(s.db, in); p.HasMorePages(); {
		page, err := p.NextPage(ctx)
		if err != nil {
			return err
		}
		items = append(items, page.Items...)
	}
	return attributevalue.UnmarshalListOfMaps(items, out)
}

// statement runs a PartiQL SELECT, every page of it, into out, a pointer
// to a slice.
func (s *Store) statement(ctx context.Context, out any, stmt string, params ...types.AttributeValue) error {
	var items []map[string]types.AttributeValue
	in := &dynamodb.ExecuteStatementInput{Statement: aws.String(stmt), Parameters: params}
	for {
		page, err := s.db.ExecuteStatement(ctx, in)
		if err != nil {
			return err
		}
		items = append(items, page.Items...)
		if page.NextToken == nil {
			break
		}
		in.NextToken = page.NextToken
	}
	return attributevalue.UnmarshalListOfMaps(items, out)
}

// insert writes a new item with a PartiQL INSERT, every attribute a
// parameter so that no value needs quoting in the statement.
func (s *Store) insert(ctx context.Context, it map[string]types.AttributeValue) error {
	names := make([]string, 0, len(it))
	for n := range it {
		names = append(names, n)
	}
	sort.Strings(names)
	fields := make([]string, len(names))
	params := make([]types.AttributeValue, len(names))
	for i, n := range names {
		fields[i] = "'" + n + "': ?"
		params[i] = it[n]
	}
	_, err := s.db.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{
		Statement:  aws.String(`INSERT INTO "` + s.table + `" VALUE {` + strings.Join(fields, ", ") + `}`),
		Parameters: params})
	return err
}

// duplicate reports whether err is a PartiQL INSERT's refusal of a key
// that exists.
func duplicate(err error) bool {
	var dup *types.DuplicateItemException
	return errors.As(err, &dup)
}

// one is the single entry an index lookup must find.
func one[T any](found []T, what string) (T, error) {
	var zero T
	switch len(found) {
	case 0:
		return zero, fmt.Errorf("%s: %w", what, ErrNotFound)
	case 1:
		return found[0], nil
	}
	return zero, fmt.Errorf("%s: %w (%d)", what, ErrAmbiguous, len(found))
}

// action is one write of a transaction and the error that its condition
// failing means.
type action struct {
	write  types.TransactWriteItem
	failed error
}

// transact writes all the actions or none, and reports the first failed
// condition as that action's error, so that callers learn which
// precondition did not hold.
func (s *Store) transact(ctx context.Context, actions ...action) error {
	in := &dynamodb.TransactWriteItemsInput{}
	for _, a := range actions {
		in.TransactItems = append(in.TransactItems, a.write)
	}
	_, err := s.db.TransactWriteItems(ctx, in)
	var cancelled *types.TransactionCanceledException
	if errors.As(err, &cancelled) {
		for i, r := range cancelled.CancellationReasons {
			if aws.ToString(r.Code) == "ConditionalCheckFailed" {
				return actions[i].failed
			}
		}
	}
	return err
}

// conditionFailed reports whether err is a single write's failed condition.
func conditionFailed(err error) bool {
	var failed *types.ConditionalCheckFailedException
	return errors.As(err, &failed)
}

// mustExist is a transaction's check that an item exists.
func (s *Store) mustExist(pk, sk string) action {
	return action{write: types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{TableName: aws.String(s.table),
		Key: key(pk, sk), ConditionExpression: aws.String("attribute_exists(PK)")}},
		failed: fmt.Errorf("%s %s: %w", sk, pk, ErrNotFound)}
}

// putNew is a transaction's put of an item that must not exist yet.
func (s *Store) putNew(it map[string]types.AttributeValue, failed error) action {
	return action{write: types.TransactWriteItem{Put: &types.Put{TableName: aws.String(s.table), Item: it,
		ConditionExpression: aws.String("attribute_not_exists(PK)")}}, failed: failed}
}

// deleteExisting is a transaction's delete of an item that must exist.
func (s *Store) deleteExisting(pk, sk string) action {
	return action{write: types.TransactWriteItem{Delete: &types.Delete{TableName: aws.String(s.table),
		Key: key(pk, sk), ConditionExpression: aws.String("attribute_exists(PK)")}},
		failed: fmt.Errorf("%s %s: %w", sk, pk, ErrNotFound)}
}
