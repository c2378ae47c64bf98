package engine

import (
	"context"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/expr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// UpdateItem changes an item's attributes, creating the item when it does
// not exist (from its key and the update's effects).
func (e *Engine) UpdateItem(_ context.Context, in *protocol.UpdateItemInput) (*protocol.UpdateItemOutput, error) {
	if err := validate.UpdateItem(in); err != nil {
		return nil, err
	}
	w, err := parseWrite(&in.WriteOptions, in.UpdateExpression, in.AttributeUpdates)
	if err != nil {
		return nil, validate.Single(err)
	}
	t, k, err := e.keyedTable(*in.TableName, in.Key)
	if err != nil {
		return nil, err
	}
	if err := t.refuseKeyUpdate(w.update); err != nil {
		return nil, err
	}
	d, err := e.admit(t, true, nil, k.storage)
	if err != nil {
		return nil, err
	}
	old, next, err := e.apply(t, k, func(old attr.Item) (attr.Item, error) {
		if err := w.check(old, &in.WriteOptions); err != nil {
			return nil, err
		}
		return t.updated(old, in.Key, w.update)
	})
	e.spendWrite(d, t, old, next, err)
	if err != nil {
		return nil, err
	}
	return &protocol.UpdateItemOutput{
		Attributes:            updateReturn(in.ReturnValues, w.update, old, next),
		ConsumedCapacity:      t.writeReport(in.ReturnConsumedCapacity, *in.TableName, old, next),
		ItemCollectionMetrics: e.collectionMetrics(t, in.ReturnItemCollectionMetrics, in.Key),
	}, nil
}

// refuseKeyUpdate refuses an update that writes a key attribute, which
// DynamoDB never allows: a key change is a delete and a put.
func (t *table) refuseKeyUpdate(u *expr.Update) error {
	if u == nil {
		return nil
	}
	for _, p := range expr.UpdatedPaths(u) {
		if name := p[0].Name; name == t.key.hash.name || name == t.key.rng.name {
			return apierr.Validationf("One or more parameter values were invalid: Cannot update attribute %s. This attribute is part of the key", name)
		}
	}
	return nil
}

// updated applies u to the item and checks the result as PutItem checks
// an item; nil means there is no item, before or after.
func (t *table) updated(old, key attr.Item, u *expr.Update) (attr.Item, error) {
	next, err := applyTo(old, key, u)
	if err != nil || next == nil {
		return nil, err
	}
	if _, err := t.checkIndexKeys(next); err != nil {
		return nil, err
	}
	if next.Size() > validate.MaxItemBytes {
		return nil, apierr.Validationf("Item size to update has exceeded the maximum allowed size")
	}
	return next, nil
}

// applyTo applies u to the item, or to its bare key when it does not
// exist. An update that only removes leaves a missing item missing, as
// DynamoDB does: there is nothing to remove from.
func applyTo(old, key attr.Item, u *expr.Update) (attr.Item, error) {
	base := old
	if base == nil {
		base = key
	}
	if u == nil {
		return base, nil
	}
	next, err := expr.ApplyUpdate(u, base)
	if err != nil || (old == nil && onlyRemoves(u)) {
		return nil, err
	}
	return next, nil
}

// updateReturn is the Attributes of an UpdateItem response.
func updateReturn(rv *string, u *expr.Update, old, next attr.Item) attr.Item {
	if rv == nil {
		return nil
	}
	switch *rv {
	case "ALL_OLD":
		return old
	case "ALL_NEW":
		return next
	case "UPDATED_OLD", "UPDATED_NEW":
		if u == nil {
			return nil
		}
		src := old
		if *rv == "UPDATED_NEW" {
			src = next
		}
		return expr.Project(src, expr.UpdatedPaths(u))
	}
	return nil
}

// onlyRemoves reports whether u has REMOVE or DELETE actions and nothing
// that writes a value.
func onlyRemoves(u *expr.Update) bool {
	return u != nil && len(u.Set) == 0 && len(u.Add) == 0 && len(u.Remove)+len(u.Delete) > 0
}
