package engine

import (
	"context"
	"sort"

	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// ListTables pages through table names in order; Limit defaults to 100.
func (e *Engine) ListTables(_ context.Context, in *protocol.ListTablesInput) (*protocol.ListTablesOutput, error) {
	if err := validate.ListTables(in); err != nil {
		return nil, err
	}
	e.freshCatalog()
	names := e.tableNames()
	start := 0
	if in.ExclusiveStartTableName != nil {
		start = sort.Search(len(names), func(i int) bool { return names[i] > *in.ExclusiveStartTableName })
	}
	limit := 100
	if in.Limit != nil {
		limit = int(*in.Limit)
	}
	page := names[start:min(start+limit, len(names))]
	out := &protocol.ListTablesOutput{TableNames: append([]string{}, page...)}
	if start+limit < len(names) {
		out.LastEvaluatedTableName = &page[len(page)-1]
	}
	return out, nil
}
