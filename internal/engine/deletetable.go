package engine

import (
	"context"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/storage"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// DeleteTable deletes a table and every item in it, in one batch. A table
// still shown as DELETING is described again, without error, as DynamoDB
// answers; one being created or updated is refused.
func (e *Engine) DeleteTable(_ context.Context, in *protocol.DeleteTableInput) (*protocol.DeleteTableOutput, error) {
	if err := validate.TableRequest(in.TableName); err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if d := e.deletedDesc(e.nameOf(*in.TableName)); d != nil {
		return &protocol.DeleteTableOutput{TableDescription: deletedDescription(d)}, nil
	}
	t, err := e.lockedTable(*in.TableName)
	if err != nil {
		return nil, err
	}
	if err := e.deletable(t); err != nil {
		return nil, err
	}
	desc := e.describe(t)
	if err := e.dropTable(t); err != nil {
		return nil, err
	}
	delete(e.tables, t.meta.Desc.TableName)
	desc.TableStatus = statusDeleting
	e.showDeleted(desc)
	return &protocol.DeleteTableOutput{TableDescription: deletedDescription(desc)}, nil
}

// deletedDescription is the part of a table's description DeleteTable
// answers with (facts 32): no creation time, key schema, definitions or
// indexes.
func deletedDescription(d *protocol.TableDescription) *protocol.DeletedTableDescription {
	return &protocol.DeletedTableDescription{TableName: d.TableName, TableStatus: d.TableStatus, TableId: d.TableId,
		TableArn: d.TableArn, BillingModeSummary: d.BillingModeSummary, ProvisionedThroughput: d.ProvisionedThroughput}
}

// deletable applies DeleteTable's rules on the table's state: not being
// created or updated, not protected.
func (e *Engine) deletable(t *table) error {
	if err := e.changeable(t); err != nil {
		return err
	}
	if t.meta.Desc.DeletionProtectionEnabled {
		return apierr.Validationf("Resource cannot be deleted as it is currently protected against deletion. Disable deletion protection first.")
	}
	return nil
}

// dropTable removes a table's definition, items and stats. It waits for
// writes in flight on the table, so none lands after the range deletion.
func (e *Engine) dropTable(t *table) error {
	t.alive.Lock()
	defer t.alive.Unlock()
	b := e.db.NewBatch()
	t.alive.current.Load().replaceDefinition(b)
	b.Delete(storage.CatalogKey(t.meta.Desc.TableName))
	b.DeleteRange(storage.TableRange(t.meta.ID))
	b.DeleteRange(storage.StatsRange(t.meta.ID))
	if err := b.Commit(); err != nil {
		return e.staleCatalog(err)
	}
	t.alive.dropped = true
	for _, ix := range t.indexes {
		e.dropGraphs(t.meta.ID, ix.id)
	}
	return nil
}
