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
	unlock := e.locks.lock(k.hash)
	defer unlock()
	old, err := e.readItem(k)
	if err != nil {
		return nil, err
	}
	if old != nil {
		if err := e.commit(write{t: t, key: k, old: old}); err != nil {
			return nil, err
		}
	}
	out := &protocol.DeleteItemOutput{ConsumedCapacity: capacity(in.ReturnConsumedCapacity, t.meta.Desc.TableName, writeUnits(old, nil))}
	if in.ReturnValues != nil && *in.ReturnValues == "ALL_OLD" {
		out.Attributes = old
	}
	return out, nil
}
