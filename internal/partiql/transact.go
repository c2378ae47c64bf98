package partiql

import (
	"context"
	"errors"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// TransactEngine is what ExecuteTransaction adds to Engine: the two
// transaction operations it runs as, and the cancellation it rewrites.
type TransactEngine interface {
	TransactWriteItems(context.Context, *protocol.TransactWriteItemsInput) (*protocol.TransactWriteItemsOutput, error)
	TransactGetItems(context.Context, *protocol.TransactGetItemsInput) (*protocol.TransactGetItemsOutput, error)
}

// ExecuteTransaction runs up to 100 statements as one TransactGetItems
// (all reads, each by its whole key) or one TransactWriteItems (all
// writes), so isolation, idempotency and capacity are those operations'.
func (x *Executor) ExecuteTransaction(ctx context.Context, in *protocol.ExecuteTransactionInput) (*protocol.ExecuteTransactionOutput, error) {
	if err := validate.ExecuteTransaction(in); err != nil {
		return nil, err
	}
	plans, err := x.pl.transaction(in)
	if err != nil {
		return nil, err
	}
	if plans[0].Get != nil {
		return x.transactGet(ctx, plans, in)
	}
	return x.transactWrite(ctx, plans, in)
}

func (x *Executor) transactGet(ctx context.Context, plans []*Plan, in *protocol.ExecuteTransactionInput) (*protocol.ExecuteTransactionOutput, error) {
	out, err := x.tx.TransactGetItems(ctx, transactGetInput(plans, in))
	if err != nil {
		return nil, err
	}
	for i, p := range plans {
		if p.Paths != nil && i < len(out.Responses) && out.Responses[i].Item != nil {
			out.Responses[i].Item = flatten(out.Responses[i].Item, p.Paths)
		}
	}
	return &protocol.ExecuteTransactionOutput{Responses: out.Responses, ConsumedCapacity: out.ConsumedCapacity}, nil
}

func (x *Executor) transactWrite(ctx context.Context, plans []*Plan, in *protocol.ExecuteTransactionInput) (*protocol.ExecuteTransactionOutput, error) {
	out, err := x.tx.TransactWriteItems(ctx, transactWriteInput(plans, in))
	if err != nil {
		return nil, x.duplicates(err, plans)
	}
	return &protocol.ExecuteTransactionOutput{ConsumedCapacity: out.ConsumedCapacity}, nil
}

// transactGetInput is the TransactGetItems a transaction of reads runs as.
func transactGetInput(plans []*Plan, in *protocol.ExecuteTransactionInput) *protocol.TransactGetItemsInput {
	req := &protocol.TransactGetItemsInput{ReturnConsumedCapacity: in.ReturnConsumedCapacity}
	for _, p := range plans {
		g := p.Get
		req.TransactItems = append(req.TransactItems, protocol.TransactGetItem{Get: &protocol.TransactGet{TableName: g.TableName,
			Key: g.Key, ProjectionExpression: g.ProjectionExpression, ExpressionAttributeNames: g.ExpressionAttributeNames}})
	}
	return req
}

// transactWriteInput is the TransactWriteItems a transaction of writes
// runs as.
func transactWriteInput(plans []*Plan, in *protocol.ExecuteTransactionInput) *protocol.TransactWriteItemsInput {
	req := &protocol.TransactWriteItemsInput{ReturnConsumedCapacity: in.ReturnConsumedCapacity, ClientRequestToken: in.ClientRequestToken}
	for _, p := range plans {
		req.TransactItems = append(req.TransactItems, action(p))
	}
	return req
}

// action is a write plan as a TransactWriteItems action.
func action(p *Plan) protocol.TransactWriteItem {
	switch {
	case p.Check != nil:
		return protocol.TransactWriteItem{ConditionCheck: p.Check}
	case p.Put != nil:
		return protocol.TransactWriteItem{Put: &protocol.TransactAction{TableName: p.Put.TableName, Item: p.Put.Item,
			ConditionExpression: p.Put.ConditionExpression, ExpressionAttributeNames: p.Put.ExpressionAttributeNames,
			ReturnValuesOnConditionCheckFailure: p.Put.ReturnValuesOnConditionCheckFailure}}
	case p.Update != nil:
		u := p.Update
		return protocol.TransactWriteItem{Update: &protocol.TransactAction{TableName: u.TableName, Key: u.Key, UpdateExpression: u.UpdateExpression,
			ConditionExpression: u.ConditionExpression, ExpressionAttributeNames: u.ExpressionAttributeNames,
			ExpressionAttributeValues: u.ExpressionAttributeValues, ReturnValuesOnConditionCheckFailure: u.ReturnValuesOnConditionCheckFailure}}
	}
	d := p.Delete
	return protocol.TransactWriteItem{Delete: &protocol.TransactAction{TableName: d.TableName, Key: d.Key,
		ConditionExpression: d.ConditionExpression, ExpressionAttributeNames: d.ExpressionAttributeNames,
		ExpressionAttributeValues: d.ExpressionAttributeValues, ReturnValuesOnConditionCheckFailure: d.ReturnValuesOnConditionCheckFailure}}
}

// duplicates renames an INSERT's failed condition in a cancellation to
// DuplicateItem, which is what it means.
func (x *Executor) duplicates(err error, plans []*Plan) error {
	var ae *apierr.Error
	reasons, ok := []protocol.CancellationReason(nil), errors.As(err, &ae)
	if ok {
		reasons, ok = ae.CancellationReasons.([]protocol.CancellationReason)
	}
	if !ok || ae.Code != apierr.TransactionCanceled {
		return err
	}
	for i, r := range reasons {
		if plans[i].Put != nil && r.Code == "ConditionalCheckFailed" {
			reasons[i] = protocol.CancellationReason{Code: "DuplicateItem", Message: msgDuplicate}
		}
	}
	return x.canceled(reasons)
}
