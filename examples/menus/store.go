package main

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Store is the menus data-access layer on one table.
type Store struct {
	db    *dynamodb.Client
	table string
	// pause waits before a transaction is tried again after a conflict
	// (retry.go); tests replace it to act between two attempts.
	pause func(ctx context.Context, d time.Duration) error
}

// NewStore uses table, which CreateTable made.
func NewStore(db *dynamodb.Client, table string) *Store {
	return &Store{db: db, table: table, pause: sleep}
}

// What a write can fail with. A failed transaction's error also wraps
// the *types.TransactionCanceledException, for its CancellationReasons.
var (
	ErrInvalid   = errors.New("invalid")
	ErrNotFound  = errors.New("not found")
	ErrExists    = errors.New("already exists")
	ErrNameTaken = errors.New("name already taken")
	ErrInUse     = errors.New("still in use")
	ErrConflict  = errors.New("changed concurrently, read it again")
)

func failure(sentinel error, kind, what string) error {
	return fmt.Errorf("%s %s: %w", kind, what, sentinel)
}

// valid refuses empty ids and names, and ids with "#", which would make
// one key read as another.
func valid(kind, id, name string) error {
	if id == "" || name == "" || strings.Contains(id, "#") {
		return failure(ErrInvalid, kind, fmt.Sprintf("id %q name %q", id, name))
	}
	return nil
}

// vals are an expression's values.
type vals map[string]types.AttributeValue

// step is one action of a transaction and what a failed condition on it
// means to the caller.
type step struct {
	action types.TransactWriteItem
	fails  error
}

// transact writes every step or none. When a condition fails, the error
// is the failing step's, so the caller learns which rule was broken. A
// transaction cancelled only because another was in flight on one of its
// items is tried again (retry.go).
func (s *Store) transact(ctx context.Context, steps ...step) error {
	actions := make([]types.TransactWriteItem, len(steps))
	for i, st := range steps {
		actions[i] = st.action
	}
	err := s.retryConflicts(ctx, func() error {
		_, err := s.db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: actions})
		return err
	})
	var canceled *types.TransactionCanceledException
	if !errors.As(err, &canceled) {
		return err
	}
	for i, r := range canceled.CancellationReasons {
		if aws.ToString(r.Code) == "ConditionalCheckFailed" && i < len(steps) {
			return fmt.Errorf("%w (%w)", steps[i].fails, err)
		}
	}
	return err
}

// putNew puts an item whose key must not exist yet.
func (s *Store) putNew(item map[string]types.AttributeValue, fails error) step {
	return step{types.TransactWriteItem{Put: &types.Put{TableName: &s.table, Item: item,
		ConditionExpression: aws.String("attribute_not_exists(PK)")}}, fails}
}

// record is a uniqueness record: its key is the unique value, so a second
// one cannot be put with attribute_not_exists. A name record also says
// whose name it is.
func record(key, id, name string) map[string]types.AttributeValue {
	item := self(key).primary()
	item["id"] = str(id)
	if name != "" {
		item["name"] = str(name)
	}
	return item
}

// putName reserves a name: the transaction fails if another entity has it.
func (s *Store) putName(nameKey, kind, id, name string) step {
	return s.putNew(record(nameKey, id, name), failure(ErrNameTaken, kind, fmt.Sprintf("%q", name)))
}

// dropName frees a name, if the record is still the entity's.
func (s *Store) dropName(nameKey, kind, id string) step {
	return s.del(self(nameKey), "id = :id", vals{":id": str(id)}, failure(ErrConflict, kind, id))
}

func (s *Store) del(k keys, cond string, v vals, fails error) step {
	return step{types.TransactWriteItem{Delete: &types.Delete{TableName: &s.table, Key: k.primary(),
		ConditionExpression: aws.String(cond), ExpressionAttributeNames: names(cond),
		ExpressionAttributeValues: v}}, fails}
}

func (s *Store) update(k keys, update, cond string, v vals, fails error) step {
	return step{types.TransactWriteItem{Update: &types.Update{TableName: &s.table, Key: k.primary(),
		UpdateExpression: aws.String(update), ConditionExpression: aws.String(cond),
		ExpressionAttributeNames: names(update, cond), ExpressionAttributeValues: v}}, fails}
}

// updateItem is one UpdateItem whose failed condition means fails.
func (s *Store) updateItem(ctx context.Context, k keys, update, cond string, v vals, fails error) error {
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: &s.table, Key: k.primary(),
		UpdateExpression: aws.String(update), ConditionExpression: aws.String(cond),
		ExpressionAttributeNames: names(update, cond), ExpressionAttributeValues: v})
	var failed *types.ConditionalCheckFailedException
	if errors.As(err, &failed) {
		return fmt.Errorf("%w (%w)", fails, err)
	}
	return err
}

// count adds delta to a counter of an item that must exist.
func (s *Store) count(k keys, counter string, delta int, fails error) step {
	return s.update(k, "ADD "+counter+" :d", "attribute_exists(PK)", vals{":d": num(delta)}, fails)
}

// unchanged is a condition that attrs still have the values read.
func unchanged(attrs vals) (string, vals) {
	conds := make([]string, 0, len(attrs))
	v := vals{}
	for _, a := range slices.Sorted(maps.Keys(attrs)) {
		conds = append(conds, "#"+a+" = :"+a)
		v[":"+a] = attrs[a]
	}
	return strings.Join(conds, " AND "), v
}

var placeholder = regexp.MustCompile(`#[A-Za-z]+`)

// names maps each #placeholder in the expressions to the attribute it
// stands for: name and unit are DynamoDB reserved words.
func names(exprs ...string) map[string]string {
	m := map[string]string{}
	for _, e := range exprs {
		for _, p := range placeholder.FindAllString(e, -1) {
			m[p] = p[1:]
		}
	}
	if len(m) == 0 {
		return nil
	}
	return m
}

// get reads an item of the table by its primary key, strongly consistent
// because the writes that read first rely on it being current.
func (s *Store) get(ctx context.Context, k keys, kind, id string, out any) error {
	got, err := s.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: &s.table, Key: k.primary(), ConsistentRead: aws.Bool(true)})
	if err != nil {
		return err
	}
	if got.Item == nil {
		return failure(ErrNotFound, kind, id)
	}
	return attributevalue.UnmarshalMap(got.Item, out)
}

// statementOne reads the first item a PartiQL SELECT finds into out, or
// returns ErrNotFound. Its pages are read until one holds an item: a page
// can be empty and still have a NextToken.
func (s *Store) statementOne(ctx context.Context, stmt string, consistent bool, params []types.AttributeValue,
	kind, what string, out any) error {
	in := &dynamodb.ExecuteStatementInput{Statement: aws.String(stmt), Parameters: params, ConsistentRead: aws.Bool(consistent)}
	for {
		page, err := s.db.ExecuteStatement(ctx, in)
		if err != nil {
			return err
		}
		if len(page.Items) > 0 {
			return attributevalue.UnmarshalMap(page.Items[0], out)
		}
		if page.NextToken == nil {
			return failure(ErrNotFound, kind, what)
		}
		in.NextToken = page.NextToken
	}
}

// query reads every page of a Query.
func (s *Store) query(ctx context.Context, in *dynamodb.QueryInput) ([]map[string]types.AttributeValue, error) {
	in.TableName = &s.table
	var items []map[string]types.AttributeValue
	pages := dynamodb.NewQueryPaginator(s.db, in)
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		items = append(items, page.Items...)
	}
	return items, nil
}

// lookup reads the one entity an index holds under key: GSI1 by id, GSI2
// by name. Index reads are eventually consistent; every write that acts on
// what a lookup read is conditioned on it, so a stale read fails with
// ErrConflict instead of overwriting a newer change.
func (s *Store) lookup(ctx context.Context, index, key, kind, what string, out any) error {
	items, err := s.query(ctx, &dynamodb.QueryInput{IndexName: aws.String(index),
		KeyConditionExpression:    aws.String(index + "PK = :key"),
		ExpressionAttributeValues: vals{":key": str(key)}})
	if err != nil {
		return err
	}
	if len(items) == 0 {
		return failure(ErrNotFound, kind, what)
	}
	return attributevalue.UnmarshalMap(items[0], out)
}
