package engine

import (
	"context"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/expr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// GetItem reads one item. Every read is strongly consistent; ConsistentRead
// only changes the capacity charged, as it would on DynamoDB.
func (e *Engine) GetItem(_ context.Context, in *protocol.GetItemInput) (*protocol.GetItemOutput, error) {
	if err := validate.GetItem(in); err != nil {
		return nil, err
	}
	proj, err := parseProjection(in.ProjectionExpression, in.ExpressionAttributeNames)
	if err != nil {
		return nil, err
	}
	_, k, err := e.keyedTable(*in.TableName, in.Key)
	if err != nil {
		return nil, err
	}
	it, err := e.readItem(k)
	if err != nil {
		return nil, err
	}
	consistent := in.ConsistentRead != nil && *in.ConsistentRead
	u := &usage{read: true, table: readUnits(it, consistent)}
	out := &protocol.GetItemOutput{ConsumedCapacity: u.report(in.ReturnConsumedCapacity, *in.TableName)}
	if it != nil {
		out.Item = project(it, in.AttributesToGet, proj)
	}
	return out, nil
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
