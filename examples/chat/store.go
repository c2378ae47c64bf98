package main

import (
	"context"
	"crypto/rand"
	"errors"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// ErrNotFound is returned when the item an access pattern reads does not exist.
var ErrNotFound = errors.New("not found")

// Store is the chat application's data-access layer.
type Store struct {
	db    *dynamodb.Client
	now   func() time.Time // the clock, injectable so tests know every timestamp
	newID func() string    // ids of new items and PendingIds, injectable for the same reason
}

// NewStore returns a Store on db with the wall clock and random ids.
func NewStore(db *dynamodb.Client) *Store {
	return &Store{db: db, now: time.Now, newID: rand.Text}
}

// idOr keeps an id the caller chose, or makes one.
func (s *Store) idOr(id string) string {
	if id != "" {
		return id
	}
	return s.newID()
}

func str(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

// key is a primary key of a table with a sort key.
func key(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"PK": str(pk), "SK": str(sk)}
}

// get reads one item into out, or returns ErrNotFound.
func (s *Store) get(ctx context.Context, table string, k map[string]types.AttributeValue, out any) error {
	res, err := s.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: k})
	if err != nil {
		return err
	}
	if res.Item == nil {
		return ErrNotFound
	}
	return attributevalue.UnmarshalMap(res.Item, out)
}

// queryAll reads every page of a query into out, a pointer to a slice.
func (s *Store) queryAll(ctx context.Context, in *dynamodb.QueryInput, out any) error {
	var items []map[string]types.AttributeValue
	p := dynamodb.NewQueryPaginator(s.db, in)
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return err
		}
		items = append(items, page.Items...)
	}
	return attributevalue.UnmarshalListOfMaps(items, out)
}

// statement reads every page of a PartiQL SELECT into out, a pointer to
// a slice.
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
			return attributevalue.UnmarshalListOfMaps(items, out)
		}
		in.NextToken = page.NextToken
	}
}

// inPartition is a query of one partition whose sort key begins with
// prefix; an empty index means the table itself. The key attribute names
// are written out, not placeholders: none is a reserved word, and the
// recorded key condition then says which attributes it reads.
func inPartition(table, index, pkName, pk, skName, prefix string) *dynamodb.QueryInput {
	in := partition(table, index, pkName, pk)
	*in.KeyConditionExpression += " AND begins_with(" + skName + ", :prefix)"
	in.ExpressionAttributeValues[":prefix"] = str(prefix)
	return in
}

// partition is a query of a whole partition.
func partition(table, index, pkName, pk string) *dynamodb.QueryInput {
	in := &dynamodb.QueryInput{TableName: aws.String(table), KeyConditionExpression: aws.String(pkName + " = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": str(pk)}}
	if index != "" {
		in.IndexName = aws.String(index)
	}
	return in
}

// putNew is a transaction Put that must not overwrite an existing item.
func putNew(table string, item any) (types.TransactWriteItem, error) {
	av, err := attributevalue.MarshalMap(item)
	if err != nil {
		return types.TransactWriteItem{}, err
	}
	return types.TransactWriteItem{Put: &types.Put{TableName: aws.String(table), Item: av,
		ConditionExpression: aws.String("attribute_not_exists(PK)")}}, nil
}

// mustExist is a transaction ConditionCheck that an item exists.
func mustExist(table string, k map[string]types.AttributeValue) types.TransactWriteItem {
	return types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{TableName: aws.String(table), Key: k,
		ConditionExpression: aws.String("attribute_exists(PK)")}}
}

// transact marshals each item with putNew and writes them, with extra
// actions, all or nothing.
func (s *Store) transact(ctx context.Context, puts []tablePut, extra ...types.TransactWriteItem) error {
	actions := extra
	for _, p := range puts {
		a, err := putNew(p.table, p.item)
		if err != nil {
			return err
		}
		actions = append(actions, a)
	}
	_, err := s.db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: actions})
	return err
}

// tablePut is one new item for transact.
type tablePut struct {
	table string
	item  any
}
