package engine

import "github.com/sortkeydb/sortkey/internal/protocol"

// KeySchema returns the key schema of a table, or of its index when index
// is not "", from the catalog: what a front end such as PartiQL plans
// with, without DescribeTable's storage statistics. A missing table is the
// data plane's ResourceNotFoundException; a missing index is nil, left to
// the operation the front end runs to refuse in its own words.
func (e *Engine) KeySchema(tableName, index string) ([]protocol.KeySchemaElement, error) {
	t, err := e.itemTable(tableName)
	if err != nil || index == "" {
		return keySchemaOf(t), err
	}
	for _, g := range t.meta.Desc.GlobalSecondaryIndexes {
		if g.IndexName == index {
			return g.KeySchema, nil
		}
	}
	for _, l := range t.meta.Desc.LocalSecondaryIndexes {
		if l.IndexName == index {
			return l.KeySchema, nil
		}
	}
	return nil, nil
}

func keySchemaOf(t *table) []protocol.KeySchemaElement {
	if t == nil {
		return nil
	}
	return t.meta.Desc.KeySchema
}

// TransactionCanceled is the exception of a cancelled transaction with
// these reasons, for a front end that rewrites reasons (PartiQL names an
// INSERT's failed condition DuplicateItem).
func TransactionCanceled(reasons []protocol.CancellationReason) error { return canceled(reasons) }
