package engine

import (
	"context"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// DeleteItem deletes one item; deleting an item that does not exist succeeds.
func (e *Engine) DeleteItem(_ context.Context, in *protocol.DeleteItemInput) (*protocol.DeleteItemOutput, error) {
	if err := validate.DeleteItem(in); err != nil {
		return nil, err
	}
	w, err := parseWrite(&in.WriteOptions, nil, nil)
	if err != nil {
		return nil, validate.Single(err)
	}
	t, k, err := e.keyedTable(*in.TableName, in.Key)
	if err != nil {
		return nil, err
	}
	d, err := e.admit(t, true, nil, k.storage)
	if err != nil {
		return nil, err
	}
	old, _, err := e.apply(t, k, func(old attr.Item) (attr.Item, error) {
		return nil, w.check(old, &in.WriteOptions)
	})
	e.spendWrite(d, t, old, nil, err)
	if err != nil {
		return nil, err
	}
	return &protocol.DeleteItemOutput{
		Attributes:            returnOld(&in.WriteOptions, old),
		ConsumedCapacity:      t.writeReport(in.ReturnConsumedCapacity, *in.TableName, old, nil),
		ItemCollectionMetrics: e.collectionMetrics(t, in.ReturnItemCollectionMetrics, in.Key),
	}, nil
}
