package engine

import (
	"context"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/storage"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// DeleteTable deletes a table and every item in it, in one batch.
func (e *Engine) DeleteTable(_ context.Context, in *protocol.DeleteTableInput) (*protocol.DeleteTableOutput, error) {
	if err := validate.TableRequest(in.TableName); err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	t, err := e.lockedTable(*in.TableName)
	if err != nil {
		return nil, err
	}
	if t.meta.Desc.DeletionProtectionEnabled {
		return nil, apierr.Validationf("Resource cannot be deleted as it is currently protected against deletion. Disable deletion protection first.")
	}
	desc := e.describe(t)
	if err := e.dropTable(t); err != nil {
		return nil, err
	}
	delete(e.tables, t.meta.Desc.TableName)
	desc.TableStatus = "DELETING"
	return &protocol.DeleteTableOutput{TableDescription: desc}, nil
}

// dropTable removes a table's definition, items and stats. It waits for
// writes in flight on the table, so none lands after the range deletion.
func (e *Engine) dropTable(t *table) error {
	t.alive.Lock()
	defer t.alive.Unlock()
	b := e.db.NewBatch()
	b.Delete(storage.CatalogKey(t.meta.Desc.TableName))
	b.DeleteRange(storage.TableRange(t.meta.ID))
	b.DeleteRange(storage.StatsRange(t.meta.ID))
	if err := b.Commit(); err != nil {
		return err
	}
	t.alive.dropped = true
	return nil
}
