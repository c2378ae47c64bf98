package main

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
)

// attempt is one request, made with the raw SDK client of a principal,
// never through a Session, so that only the database stands in its way.
type attempt struct {
	name string
	do   func(context.Context, *dynamodb.Client) error
}

// item is a request's item or key: attribute names and string values.
func item(kv ...string) map[string]types.AttributeValue {
	m := map[string]types.AttributeValue{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = str(kv[i+1])
	}
	return m
}

func table() *string { return aws.String(MarketTable) }

// crossTenant is what user me must not do to other, or to me's own
// read-only shards: every read, Query (table and indexes), Scan, batch,
// transaction and PartiQL statement that reaches another user's
// partition, and every write to an order or reward shard. Each is a
// well-formed request that succeeds for a principal allowed to make it.
func crossTenant(me, other UserID, smp *Sample) []attempt {
	theirOrder, theirCart := smp.Orders[other][0], smp.Cart
	myProfile, theirProfile := key(me.Key(), me.Key()), key(other.Key(), other.Key())
	myReward := smp.Rewards[me][0]
	return []attempt{
		{"GetItem of another user's profile", func(ctx context.Context, c *dynamodb.Client) error {
			_, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: table(), Key: theirProfile})
			return err
		}},
		{"Query of another user's #O partition", queryTable(other.PK(OrderShard))},
		{"Query of ReverseIndex by another user's order key", queryIndex(ReverseIndex, "sk = :v", theirOrder.Key.String())},
		{"Query of ReverseIndex by another user's profile key", queryIndex(ReverseIndex, "sk = :v", other.Key())},
		{"Query of IdLookupIndex by another user's order number", queryIndex(IdLookupIndex, "id = :v", theirOrder.Number)},
		{"Scan of the table", scan(nil)},
		{"Scan of IdLookupIndex", scan(aws.String(IdLookupIndex))},
		{"BatchGetItem of own and another user's profile", func(ctx context.Context, c *dynamodb.Client) error {
			_, err := c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
				MarketTable: {Keys: []map[string]types.AttributeValue{myProfile, theirProfile}}}})
			return err
		}},
		{"BatchWriteItem of an own and a foreign cart", func(ctx context.Context, c *dynamodb.Client) error {
			_, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{MarketTable: {
				{PutRequest: &types.PutRequest{Item: item("pk", me.PK(CartShard), "sk", "C#mine")}},
				{PutRequest: &types.PutRequest{Item: item("pk", other.PK(CartShard), "sk", "C#planted")}}}}})
			return err
		}},
		{"TransactWriteItems with a foreign member", func(ctx context.Context, c *dynamodb.Client) error {
			_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
				{Put: &types.Put{TableName: table(), Item: item("pk", me.PK(CartShard), "sk", "C#mine")}},
				{Delete: &types.Delete{TableName: table(), Key: key(theirCart.PK, theirCart.Key.String())}}}})
			return err
		}},
		{"TransactWriteItems checking a foreign item's existence", func(ctx context.Context, c *dynamodb.Client) error {
			_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
				{Put: &types.Put{TableName: table(), Item: item("pk", me.PK(CartShard), "sk", "C#checked")}},
				{ConditionCheck: &types.ConditionCheck{TableName: table(), Key: theirProfile, ConditionExpression: aws.String("attribute_exists(pk)")}}}})
			return err
		}},
		{"TransactGetItems with a foreign member", func(ctx context.Context, c *dynamodb.Client) error {
			_, err := c.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{
				{Get: &types.Get{TableName: table(), Key: myProfile}}, {Get: &types.Get{TableName: table(), Key: theirProfile}}}})
			return err
		}},
		{"UpdateItem of another user's profile", func(ctx context.Context, c *dynamodb.Client) error {
			_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: table(), Key: theirProfile,
				UpdateExpression: aws.String("SET email = :e"), ExpressionAttributeValues: item(":e", "mallory@example.com")})
			return err
		}},
		{"PutItem into own read-only #O shard", func(ctx context.Context, c *dynamodb.Client) error {
			_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: table(),
				Item: item("pk", me.PK(OrderShard), "sk", "O#forged", "tp", "O", "status", StatusDelivered)})
			return err
		}},
		{"UpdateItem of own read-only #R shard", func(ctx context.Context, c *dynamodb.Client) error {
			_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: table(), Key: key(myReward.PK, myReward.Key.String()),
				UpdateExpression: aws.String("SET points = :p"), ExpressionAttributeValues: map[string]types.AttributeValue{":p": num(1e6)}})
			return err
		}},
		{"PartiQL SELECT of another user's #O partition", partiQL(`SELECT * FROM "Market" WHERE pk = ?`, other.PK(OrderShard))},
		{"PartiQL SELECT of the whole table", partiQL(`SELECT * FROM "Market"`)},
		{"PartiQL UPDATE of another user's profile", partiQL(`UPDATE "Market" SET email = 'mallory@example.com' WHERE pk = ? AND sk = ?`,
			other.Key(), other.Key())},
		{"PartiQL ExecuteTransaction with a foreign member", func(ctx context.Context, c *dynamodb.Client) error {
			_, err := c.ExecuteTransaction(ctx, &dynamodb.ExecuteTransactionInput{TransactStatements: []types.ParameterizedStatement{
				profileUpdate(me), profileUpdate(other)}})
			return err
		}},
		{"PartiQL BatchExecuteStatement with a foreign member", func(ctx context.Context, c *dynamodb.Client) error {
			_, err := c.BatchExecuteStatement(ctx, &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
				profileSelect(me), profileSelect(other)}})
			return err
		}},
		{"PartiQL SELECT naming another user's partition as a literal", partiQL(`SELECT * FROM "Market" WHERE "pk" = '` + other.PK(RewardShard) + `'`)},
		{"PartiQL SELECT of own and another user's partition (IN)", partiQL(`SELECT * FROM "Market" WHERE pk IN [?, ?]`, me.PK(OrderShard), other.PK(OrderShard))},
		{"PartiQL SELECT of own or another user's partition (OR)", partiQL(`SELECT * FROM "Market" WHERE pk = ? OR pk = ?`, me.PK(OrderShard), other.PK(OrderShard))},
		{"PartiQL SELECT of IdLookupIndex", partiQL(`SELECT * FROM "Market"."IdLookupIndex" WHERE id = ?`, theirOrder.Number)},
		{"PartiQL INSERT into another user's cart shard", partiQL(`INSERT INTO "Market" VALUE {'pk': ?, 'sk': 'C#inserted'}`, other.PK(CartShard))},
		{"PartiQL DELETE of another user's cart", partiQL(`DELETE FROM "Market" WHERE pk = ? AND sk = ?`, theirCart.PK, theirCart.Key.String())},
		{"Query of another user's #O partition through #names", func(ctx context.Context, c *dynamodb.Client) error {
			_, err := c.Query(ctx, &dynamodb.QueryInput{TableName: table(), KeyConditionExpression: aws.String("#k = :v"),
				ExpressionAttributeNames: map[string]string{"#k": "pk"}, ExpressionAttributeValues: item(":v", other.PK(OrderShard))})
			return err
		}},
		{"GetItem of another user's profile, table named by ARN", func(ctx context.Context, c *dynamodb.Client) error {
			_, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("arn:aws:dynamodb:us-east-1:" + Account + ":table/Market"),
				Key: theirProfile})
			return err
		}},
		{"Query of another user's #R partition, legacy KeyConditions", func(ctx context.Context, c *dynamodb.Client) error {
			_, err := c.Query(ctx, &dynamodb.QueryInput{TableName: table(), KeyConditions: map[string]types.Condition{
				"pk": {ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: []types.AttributeValue{str(other.PK(RewardShard))}}}})
			return err
		}},
	}
}

func profileUpdate(u UserID) types.ParameterizedStatement {
	return types.ParameterizedStatement{Statement: aws.String(`UPDATE "Market" SET email = 'x@example.com' WHERE pk = ? AND sk = ?`),
		Parameters: []types.AttributeValue{str(u.Key()), str(u.Key())}}
}

func profileSelect(u UserID) types.BatchStatementRequest {
	return types.BatchStatementRequest{Statement: aws.String(`SELECT * FROM "Market" WHERE pk = ? AND sk = ?`),
		Parameters: []types.AttributeValue{str(u.Key()), str(u.Key())}}
}

func queryTable(pk string) func(context.Context, *dynamodb.Client) error {
	return func(ctx context.Context, c *dynamodb.Client) error {
		_, err := c.Query(ctx, &dynamodb.QueryInput{TableName: table(), KeyConditionExpression: aws.String("pk = :v"),
			ExpressionAttributeValues: item(":v", pk)})
		return err
	}
}

func queryIndex(index, cond, v string) func(context.Context, *dynamodb.Client) error {
	return func(ctx context.Context, c *dynamodb.Client) error {
		_, err := c.Query(ctx, &dynamodb.QueryInput{TableName: table(), IndexName: aws.String(index),
			KeyConditionExpression: aws.String(cond), ExpressionAttributeValues: item(":v", v)})
		return err
	}
}

func scan(index *string) func(context.Context, *dynamodb.Client) error {
	return func(ctx context.Context, c *dynamodb.Client) error {
		_, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: table(), IndexName: index})
		return err
	}
}

func partiQL(stmt string, params ...string) func(context.Context, *dynamodb.Client) error {
	return func(ctx context.Context, c *dynamodb.Client) error {
		var ps []types.AttributeValue
		for _, p := range params {
			ps = append(ps, str(p))
		}
		_, err := c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(stmt), Parameters: ps})
		return err
	}
}

// ownShards is what user me may do: the same kinds of request, on me's
// own partitions, writing only the profile and cart shards.
func ownShards(me UserID, smp *Sample) []attempt {
	myOrder, myProfile := smp.Orders[me][0], key(me.Key(), me.Key())
	return []attempt{
		{"GetItem of own profile", func(ctx context.Context, c *dynamodb.Client) error {
			_, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: table(), Key: myProfile})
			return err
		}},
		{"Query of own #O partition", queryTable(me.PK(OrderShard))},
		{"Query of own #R partition", queryTable(me.PK(RewardShard))},
		{"Query of own #C partition", queryTable(me.PK(CartShard))},
		{"BatchGetItem of own profile and order", func(ctx context.Context, c *dynamodb.Client) error {
			_, err := c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
				MarketTable: {Keys: []map[string]types.AttributeValue{myProfile, key(myOrder.PK, myOrder.Key.String())}}}})
			return err
		}},
		{"BatchWriteItem of two own carts", func(ctx context.Context, c *dynamodb.Client) error {
			_, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{MarketTable: {
				{PutRequest: &types.PutRequest{Item: item("pk", me.PK(CartShard), "sk", "C#one")}},
				{PutRequest: &types.PutRequest{Item: item("pk", me.PK(CartShard), "sk", "C#two")}}}}})
			return err
		}},
		{"TransactWriteItems on own profile and cart", func(ctx context.Context, c *dynamodb.Client) error {
			_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
				{Update: &types.Update{TableName: table(), Key: myProfile, UpdateExpression: aws.String("SET email = :e"),
					ExpressionAttributeValues: item(":e", "new@example.com")}},
				{Delete: &types.Delete{TableName: table(), Key: key(me.PK(CartShard), "C#one")}}}})
			return err
		}},
		{"TransactGetItems of own profile and order", func(ctx context.Context, c *dynamodb.Client) error {
			_, err := c.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{
				{Get: &types.Get{TableName: table(), Key: myProfile}}, {Get: &types.Get{TableName: table(), Key: key(myOrder.PK, myOrder.Key.String())}}}})
			return err
		}},
		{"PartiQL SELECT of own #O partition", partiQL(`SELECT * FROM "Market" WHERE pk = ?`, me.PK(OrderShard))},
		{"PartiQL UPDATE of own profile", partiQL(`UPDATE "Market" SET email = 'newer@example.com' WHERE pk = ? AND sk = ?`, me.Key(), me.Key())},
	}
}

// breaches makes each attempt as client and reports every one that was
// not refused with AccessDeniedException, and any change the attempts
// made to the table, as the back end sees it: nothing, when tenants are
// kept apart.
func breaches(t *testing.T, f *fixture, client *dynamodb.Client, attempts []attempt) []string {
	t.Helper()
	before := f.contents(t)
	var found []string
	for _, a := range attempts {
		err := a.do(ctx, client)
		if !accessDenied(err) {
			found = append(found, fmt.Sprintf("%s: not refused (%v)", a.name, err))
		}
	}
	if !reflect.DeepEqual(before, f.contents(t)) {
		found = append(found, "the refused requests changed the table")
	}
	return found
}

// failures makes each attempt as client and reports every one that failed.
func failures(ctx context.Context, client *dynamodb.Client, attempts []attempt) []string {
	var found []string
	for _, a := range attempts {
		if err := a.do(ctx, client); err != nil {
			found = append(found, fmt.Sprintf("%s: %v", a.name, err))
		}
	}
	return found
}

func accessDenied(err error) bool {
	var api smithy.APIError
	return errors.As(err, &api) && api.ErrorCode() == "AccessDeniedException"
}

// contents is every item of the table, read by the back end, by key.
func (f *fixture) contents(t *testing.T) map[string]map[string]types.AttributeValue {
	t.Helper()
	out := map[string]map[string]types.AttributeValue{}
	pages := dynamodb.NewScanPaginator(f.back, &dynamodb.ScanInput{TableName: table(), ConsistentRead: aws.Bool(true)})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range page.Items {
			var k itemKeys
			if err := attributevalue.UnmarshalMap(it, &k); err != nil {
				t.Fatal(err)
			}
			out[k.PK+" "+k.SK] = it
		}
	}
	return out
}
