package engine

import (
	"context"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/expr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// TransactGetItems reads up to 100 items from one storage snapshot, so
// the answer reflects every transaction wholly or not at all. It is
// cancelled when an in-flight TransactWriteItems holds any of its items.
func (e *Engine) TransactGetItems(_ context.Context, in *protocol.TransactGetItemsInput) (*protocol.TransactGetItemsOutput, error) {
	if err := validate.TransactGetItems(in); err != nil {
		return nil, err
	}
	gets, err := e.planTransactGets(in.TransactItems)
	if err != nil {
		return nil, err
	}
	if err := e.getsConflict(gets); err != nil {
		return nil, err
	}
	snap, err := e.db.NewSnapshot()
	if err != nil {
		return nil, err
	}
	defer snap.Close()
	out := &protocol.TransactGetItemsOutput{Responses: make([]protocol.ItemResponse, len(gets))}
	units := txnUsages()
	demands, err := e.admitGets(gets)
	if err != nil {
		return nil, err
	}
	for i, g := range gets {
		v, ok, err := snap.Get(g.key.storage)
		if err != nil {
			return nil, err
		}
		var it attr.Item
		if ok {
			if it, err = attr.DecodeItem(v); err != nil {
				return nil, err
			}
			out.Responses[i].Item = project(it, nil, g.proj)
		}
		units.of(g.table, true).table += txFactor * readUnits(it, true)
		if demands != nil {
			e.spend(demands[i], &usage{read: true, table: txFactor * readUnits(it, true)})
		}
	}
	out.ConsumedCapacity = units.report(in.ReturnConsumedCapacity)
	return out, nil
}

type txGet struct {
	t     *table
	table string // the table as the request named it (name or ARN)
	key   itemKey
	proj  expr.Projection
}

// planTransactGets resolves every read before reading, in DynamoDB's
// order: every projection, then each table and key. A key that does not
// fit its table cancels the transaction with a ValidationError reason for
// that read, as DynamoDB answers, rather than failing the request.
func (e *Engine) planTransactGets(items []protocol.TransactGetItem) ([]txGet, error) {
	gets := make([]txGet, len(items))
	for i, item := range items {
		proj, err := parseProjection(item.Get.ProjectionExpression, item.Get.ExpressionAttributeNames)
		if err != nil {
			return nil, err
		}
		gets[i] = txGet{table: *item.Get.TableName, proj: proj}
	}
	if err := e.resolveTransactGets(gets, items); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, g := range gets {
		if seen[string(g.key.storage)] {
			return nil, apierr.Validationf(msgTxSameItem)
		}
		seen[string(g.key.storage)] = true
	}
	return gets, nil
}

// resolveTransactGets looks up every read's table, then checks each key:
// the first that does not fit cancels the transaction (see cancelAt).
func (e *Engine) resolveTransactGets(gets []txGet, items []protocol.TransactGetItem) error {
	for i := range gets {
		t, err := e.itemTable(gets[i].table)
		if err == nil {
			err = refuseStrongTransaction(t)
		}
		if err != nil {
			return err
		}
		gets[i].t = t
	}
	for i := range gets {
		var err error
		if gets[i].key, err = gets[i].t.keyFromKey(items[i].Get.Key); err != nil {
			return cancelAt(len(gets), i, err)
		}
	}
	return nil
}

// getsConflict is the cancellation of a read of items a transaction
// holds, with TransactionConflict for each; nil when none is held.
func (e *Engine) getsConflict(gets []txGet) error {
	if e.holds.n.Load() == 0 {
		return nil
	}
	keys := make([][]byte, len(gets))
	for i, g := range gets {
		keys[i] = g.key.storage
	}
	return e.holds.cancelHeld(keys)
}
