package engine

import (
	"context"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// PutItem creates or replaces an item.
func (e *Engine) PutItem(_ context.Context, in *protocol.PutItemInput) (*protocol.PutItemOutput, error) {
	if err := validate.PutItem(in); err != nil {
		return nil, err
	}
	w, err := parseWrite(&in.WriteOptions, nil, nil)
	if err != nil {
		return nil, validate.Single(err)
	}
	if err := validate.ItemSize(in.Item); err != nil {
		return nil, err
	}
	t, err := e.itemTable(*in.TableName)
	if err != nil {
		return nil, err
	}
	k, err := t.checkPut(in.Item)
	if err != nil {
		return nil, err
	}
	d, err := e.admit(t, true, nil, k.storage)
	if err != nil {
		return nil, err
	}
	if plainPut(t, w, in, d != nil) {
		pw, err := e.replace(t, k, in.Item)
		if err != nil {
			return nil, err
		}
		return &protocol.PutItemOutput{
			ConsumedCapacity:      t.putReport(in.ReturnConsumedCapacity, *in.TableName, &pw),
			ItemCollectionMetrics: e.collectionMetrics(t, in.ReturnItemCollectionMetrics, in.Item),
		}, nil
	}
	old, _, err := e.apply(t, k, func(old attr.Item) (attr.Item, error) {
		return in.Item, w.check(old, &in.WriteOptions)
	})
	e.spendWrite(d, t, old, in.Item, err)
	if err != nil {
		return nil, err
	}
	return &protocol.PutItemOutput{
		Attributes:            returnOld(&in.WriteOptions, old),
		ConsumedCapacity:      t.writeReport(in.ReturnConsumedCapacity, *in.TableName, old, in.Item),
		ItemCollectionMetrics: e.collectionMetrics(t, in.ReturnItemCollectionMetrics, in.Item),
	}, nil
}

// checkPut validates a whole item against the table: key attributes, then
// index key attributes. Its size was checked before the table was looked
// up (validate.ItemSize).
func (t *table) checkPut(it protocol.Item) (itemKey, error) {
	k, err := t.keyFromItem(it)
	if err != nil {
		return k, err
	}
	k.vectors, err = t.checkIndexKeys(it)
	return k, err
}
