package engine

import (
	"context"
	"time"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/expr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// GetItem reads one item. Every read is strongly consistent, unless stale
// reads are on (Options.StaleReads): then one with ConsistentRead false may
// see the item as it was. ConsistentRead also sets the capacity charged.
func (e *Engine) GetItem(_ context.Context, in *protocol.GetItemInput) (*protocol.GetItemOutput, error) {
	if err := validate.GetItem(in); err != nil {
		return nil, err
	}
	proj, err := parseProjection(in.ProjectionExpression, in.ExpressionAttributeNames)
	if err != nil {
		return nil, err
	}
	t, k, err := e.keyedTable(*in.TableName, in.Key)
	if err != nil {
		return nil, err
	}
	d, err := e.admit(t, false, nil, k.storage)
	if err != nil {
		return nil, err
	}
	consistent := in.ConsistentRead != nil && *in.ConsistentRead
	asOf := e.asOf(nil, consistent)
	var out protocol.GetItemOutput
	var size int
	if proj == nil && len(in.AttributesToGet) == 0 {
		out.ItemJSON, size, err = e.readJSON(k, asOf)
	} else {
		size, err = e.readProjected(k, asOf, &out, in.AttributesToGet, proj)
	}
	if err != nil {
		return nil, err
	}
	u := &usage{read: true, table: sizeReadUnits(size, consistent)}
	e.spend(d, u)
	out.ConsumedCapacity = u.report(in.ReturnConsumedCapacity, *in.TableName)
	return &out, nil
}

// readJSON reads the item at k as wire JSON, without decoding it, and
// its size; a missing item is nil and size 0.
func (e *Engine) readJSON(k itemKey, asOf time.Time) (out []byte, size int, err error) {
	_, err = e.viewAt(k.storage, asOf, func(v []byte) (err error) {
		out, size, err = attr.AppendEncodedJSON(make([]byte, 0, 2*len(v)), v)
		return err
	})
	return out, size, err
}

// readProjected reads the item at k into out.Item, projected.
func (e *Engine) readProjected(k itemKey, asOf time.Time, out *protocol.GetItemOutput, names []string, proj expr.Projection) (int, error) {
	it, err := e.readItemAt(k, asOf)
	if it != nil {
		out.Item = project(it, names, proj)
	}
	return it.Size(), err
}

// parseProjection parses a ProjectionExpression, if there is one.
func parseProjection(s *string, names map[string]string) (expr.Projection, error) {
	if s == nil {
		return nil, nil
	}
	attrs := expr.NewAttrs(names, nil)
	p, err := attrs.ParseProjection(*s)
	if err != nil {
		return nil, err
	}
	return p, attrs.CheckUnused()
}

// project applies a projection expression, or keeps only the top-level
// attributes AttributesToGet names; with neither it keeps all.
func project(it attr.Item, names []string, proj expr.Projection) attr.Item {
	if proj != nil {
		return expr.Project(it, proj)
	}
	if len(names) == 0 {
		return it
	}
	out := make(attr.Item, len(names))
	for _, n := range names {
		if v, ok := it[n]; ok {
			out[n] = v
		}
	}
	return out
}
