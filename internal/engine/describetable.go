package engine

import (
	"context"

	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// DescribeTable describes a table with its live item count and size.
func (e *Engine) DescribeTable(_ context.Context, in *protocol.DescribeTableInput) (*protocol.DescribeTableOutput, error) {
	if err := validate.TableRequest(in.TableName); err != nil {
		return nil, err
	}
	t, err := e.controlTable(*in.TableName)
	if err != nil {
		return nil, err
	}
	return &protocol.DescribeTableOutput{Table: e.describe(t)}, nil
}
