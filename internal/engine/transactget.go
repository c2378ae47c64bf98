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
// the answer reflects every transaction wholly or not at all.
func (e *Engine) TransactGetItems(_ context.Context, in *protocol.TransactGetItemsInput) (*protocol.TransactGetItemsOutput, error) {
	if err := validate.TransactGetItems(in); err != nil {
		return nil, err
	}
	gets, err := e.planTransactGets(in.TransactItems)
	if err != nil {
		return nil, err
	}
	snap := e.db.NewSnapshot()
	defer snap.Close()
	out := &protocol.TransactGetItemsOutput{Responses: make([]protocol.ItemResponse, len(gets))}
	units := txnUsages()
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

// planTransactGets resolves every read's table, key and projection before reading.
func (e *Engine) planTransactGets(items []protocol.TransactGetItem) ([]txGet, error) {
	gets := make([]txGet, len(items))
	seen := map[string]bool{}
	for i, item := range items {
		g := item.Get
		proj, err := parseProjection(g.ProjectionExpression, g.ExpressionAttributeNames)
		if err != nil {
			return nil, err
		}
		t, k, err := e.keyedTable(*g.TableName, g.Key)
		if err != nil {
			return nil, err
		}
		if seen[string(k.storage)] {
			return nil, apierr.Validationf("Transaction request cannot include multiple operations on one item")
		}
		seen[string(k.storage)] = true
		gets[i] = txGet{t: t, table: *g.TableName, key: k, proj: proj}
	}
	return gets, nil
}
