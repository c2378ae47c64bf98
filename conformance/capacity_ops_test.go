package conformance_test

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The operations of TestCapacityTable. Each asks for INDEXES and returns
// the one ConsumedCapacity it got; setup writes ask for nothing.

func (f *capFixture) putItem(it avMap) (*types.ConsumedCapacity, error) {
	out, err := f.c.PutItem(ctx, &dynamodb.PutItemInput{TableName: &f.table, Item: it, ReturnConsumedCapacity: indexes})
	if err != nil {
		return nil, err
	}
	return out.ConsumedCapacity, nil
}

func (f *capFixture) putNew() (*types.ConsumedCapacity, error) { return f.putItem(f.item("a", "x")) }

func (f *capFixture) putOverwrite() (*types.ConsumedCapacity, error) {
	f.setup()
	return f.putItem(f.item("a", "y"))
}

func (f *capFixture) putIdentical() (*types.ConsumedCapacity, error) {
	f.setup()
	return f.putItem(f.item("a", "x"))
}

// updateItem runs expr on item id; a name given is #n.
func (f *capFixture) updateItem(id, expr string, vals avMap, name ...string) (*types.ConsumedCapacity, error) {
	in := &dynamodb.UpdateItemInput{TableName: &f.table, Key: f.key(id), UpdateExpression: &expr,
		ExpressionAttributeValues: vals, ReturnConsumedCapacity: indexes}
	if len(name) > 0 {
		in.ExpressionAttributeNames = map[string]string{"#n": name[0]}
	}
	out, err := f.c.UpdateItem(ctx, in)
	if err != nil {
		return nil, err
	}
	return out.ConsumedCapacity, nil
}

// update rewrites the pad with another of the same length.
func (f *capFixture) update() (*types.ConsumedCapacity, error) {
	f.setup()
	return f.updateItem("a", "SET p = :p", avMap{":p": f.item("a", "y")["p"]})
}

// upsert creates the row's item from its key.
func (f *capFixture) upsert() (*types.ConsumedCapacity, error) {
	it := f.item("a", "x")
	return f.updateItem("a", "SET g = :g, l = :l, p = :p", avMap{":g": it["g"], ":l": it["l"], ":p": it["p"]})
}

// moveGSI changes the GSI key g to another value of the same size.
func (f *capFixture) moveGSI() (*types.ConsumedCapacity, error) {
	f.setup()
	return f.updateItem("a", "SET g = :h", avMap{":h": s("h")})
}

func (f *capFixture) deleteItem(id string) (*types.ConsumedCapacity, error) {
	out, err := f.c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: &f.table, Key: f.key(id), ReturnConsumedCapacity: indexes})
	if err != nil {
		return nil, err
	}
	return out.ConsumedCapacity, nil
}

func (f *capFixture) deletePresent() (*types.ConsumedCapacity, error) {
	f.setup()
	return f.deleteItem("a")
}

func (f *capFixture) deleteMissing() (*types.ConsumedCapacity, error) { return f.deleteItem("b") }

func (f *capFixture) getItem(consistent bool) (*types.ConsumedCapacity, error) {
	f.setup()
	out, err := f.c.GetItem(ctx, &dynamodb.GetItemInput{TableName: &f.table, Key: f.key("a"), ConsistentRead: &consistent, ReturnConsumedCapacity: indexes})
	if err != nil {
		return nil, err
	}
	return out.ConsumedCapacity, nil
}

func (f *capFixture) getConsistent() (*types.ConsumedCapacity, error) { return f.getItem(true) }
func (f *capFixture) getEventual() (*types.ConsumedCapacity, error)   { return f.getItem(false) }

// query reads partition cond = v of the table or an index, after setup.
func (f *capFixture) query(index *string, cond string, v string, sel types.Select, consistent bool) (*types.ConsumedCapacity, error) {
	f.setup()
	out, err := f.c.Query(ctx, &dynamodb.QueryInput{TableName: &f.table, IndexName: index, KeyConditionExpression: aws.String(cond + " = :v"),
		ExpressionAttributeValues: avMap{":v": s(v)}, Select: sel, ConsistentRead: &consistent, ReturnConsumedCapacity: indexes})
	if err != nil {
		return nil, err
	}
	return out.ConsumedCapacity, nil
}

func (f *capFixture) queryTable() (*types.ConsumedCapacity, error) {
	return f.query(nil, "k", "a", "", true)
}

func (f *capFixture) queryGSI() (*types.ConsumedCapacity, error) {
	return f.query(aws.String("byG"), "g", "g", "", false)
}

func (f *capFixture) queryLSI() (*types.ConsumedCapacity, error) {
	return f.query(aws.String("byL"), "k", "a", "", true)
}

// queryLSIFetch asks an LSI for every attribute, so each item is fetched
// from the table.
func (f *capFixture) queryLSIFetch() (*types.ConsumedCapacity, error) {
	return f.query(aws.String("byL"), "k", "a", types.SelectAllAttributes, true)
}

func (f *capFixture) queryLSIFetchEventual() (*types.ConsumedCapacity, error) {
	return f.query(aws.String("byL"), "k", "a", types.SelectAllAttributes, false)
}

func (f *capFixture) scan(index *string) (*types.ConsumedCapacity, error) {
	f.setup()
	out, err := f.c.Scan(ctx, &dynamodb.ScanInput{TableName: &f.table, IndexName: index, ReturnConsumedCapacity: indexes})
	if err != nil {
		return nil, err
	}
	return out.ConsumedCapacity, nil
}

func (f *capFixture) scanTable() (*types.ConsumedCapacity, error) { return f.scan(nil) }
func (f *capFixture) scanGSI() (*types.ConsumedCapacity, error)   { return f.scan(aws.String("byG")) }

// batchGetKeys reads item a and the missing item b.
func (f *capFixture) batchGetKeys(consistent bool) (*types.ConsumedCapacity, error) {
	f.setup()
	out, err := f.c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{ReturnConsumedCapacity: indexes,
		RequestItems: map[string]types.KeysAndAttributes{f.table: {Keys: []avMap{f.key("a"), f.key("b")}, ConsistentRead: &consistent}}})
	if err != nil {
		return nil, err
	}
	return one(out.ConsumedCapacity)
}

func (f *capFixture) batchGet() (*types.ConsumedCapacity, error) { return f.batchGetKeys(true) }
func (f *capFixture) batchGetEventual() (*types.ConsumedCapacity, error) {
	return f.batchGetKeys(false)
}

func (f *capFixture) batchWriteItems(reqs ...types.WriteRequest) (*types.ConsumedCapacity, error) {
	out, err := f.c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{ReturnConsumedCapacity: indexes,
		RequestItems: map[string][]types.WriteRequest{f.table: reqs}})
	if err != nil {
		return nil, err
	}
	return one(out.ConsumedCapacity)
}

// batchWrite puts the new item a and deletes the missing item b.
func (f *capFixture) batchWrite() (*types.ConsumedCapacity, error) {
	return f.batchWriteItems(putReq(f.item("a", "x")), delReq(f.key("b")))
}

func (f *capFixture) batchDelete() (*types.ConsumedCapacity, error) {
	f.setup()
	return f.batchWriteItems(delReq(f.key("a")))
}

func (f *capFixture) transact(token *string, items ...types.TransactWriteItem) (*types.ConsumedCapacity, error) {
	out, err := f.c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: items, ClientRequestToken: token,
		ReturnConsumedCapacity: indexes})
	if err != nil {
		return nil, err
	}
	return one(out.ConsumedCapacity)
}

func (f *capFixture) transactPut() (*types.ConsumedCapacity, error) {
	return f.transact(nil, types.TransactWriteItem{Put: &types.Put{TableName: &f.table, Item: f.item("a", "x")}})
}

func (f *capFixture) transactUpdate() (*types.ConsumedCapacity, error) {
	f.setup()
	return f.transact(nil, types.TransactWriteItem{Update: &types.Update{TableName: &f.table, Key: f.key("a"),
		UpdateExpression: aws.String("SET p = :p"), ExpressionAttributeValues: avMap{":p": f.item("a", "y")["p"]}}})
}

func (f *capFixture) transactDelete() (*types.ConsumedCapacity, error) {
	f.setup()
	return f.transact(nil, types.TransactWriteItem{Delete: &types.Delete{TableName: &f.table, Key: f.key("a")}})
}

func (f *capFixture) transactCheck() (*types.ConsumedCapacity, error) {
	f.setup()
	return f.transact(nil, types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{TableName: &f.table, Key: f.key("a"),
		ConditionExpression: aws.String("attribute_exists(k)")}})
}

// transactReplay sends one token-bearing Put twice and returns the
// second answer's capacity.
func (f *capFixture) transactReplay() (*types.ConsumedCapacity, error) {
	put := types.TransactWriteItem{Put: &types.Put{TableName: &f.table, Item: f.item("a", "x")}}
	token := aws.String("token-" + f.table) // tables share a server, so tokens must differ
	if _, err := f.transact(token, put); err != nil {
		return nil, err
	}
	return f.transact(token, put)
}

func (f *capFixture) transactGet() (*types.ConsumedCapacity, error) {
	f.setup()
	out, err := f.c.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{ReturnConsumedCapacity: indexes,
		TransactItems: []types.TransactGetItem{{Get: &types.Get{TableName: &f.table, Key: f.key("a")}}}})
	if err != nil {
		return nil, err
	}
	return one(out.ConsumedCapacity)
}
