package engine

import (
	"context"

	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// DeleteItem deletes one item; deleting an item that does not exist succeeds.
func (e *Engine) DeleteItem(_ context.Context, in *protocol.DeleteItemInput) (*protocol.DeleteItemOutput, error) {
	if err := validate.DeleteItem(in); err != nil {
		return nil, err
	}
	t, err := e.itemTable(*in.TableName)
	if err != nil {
		return nil, err
	}
	k, err := t.keyFromKey(in.Key)
	if err != nil {
		return nil, err
	}
	old, err := e.apply(t, k, nil)
	if err != nil {
		return nil, err
	}
	return &protocol.DeleteItemOutput{
		Attributes:       returnOld(&in.WriteOptions, old),
		ConsumedCapacity: capacity(in.ReturnConsumedCapacity, t.meta.Desc.TableName, writeUnits(old, nil)),
	}, nil
}
