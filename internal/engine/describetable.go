package engine

import (
	"context"

	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// DescribeTable describes a table with its live item count and size, in
// its transient status if it has one; a deleted table is described as
// DELETING until its delay has passed.
func (e *Engine) DescribeTable(_ context.Context, in *protocol.DescribeTableInput) (*protocol.DescribeTableOutput, error) {
	if err := validate.TableRequest(in.TableName); err != nil {
		return nil, err
	}
	if d := e.deletedByRef(*in.TableName); d != nil {
		return &protocol.DescribeTableOutput{Table: d}, nil
	}
	t, err := e.controlTable(*in.TableName)
	if err != nil {
		return nil, err
	}
	return &protocol.DescribeTableOutput{Table: e.shown(t, e.describe(t))}, nil
}

// deletedByRef is deletedDesc for callers that do not hold e.mu.
func (e *Engine) deletedByRef(ref string) *protocol.TableDescription {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.deletedDesc(e.nameOf(ref))
}
