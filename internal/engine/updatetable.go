package engine

import (
	"context"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// UpdateTable changes billing, provisioned, maximum on-demand and warm
// throughput, streams, deletion protection, table class and encryption
// settings, and creates, updates or deletes global secondary indexes. Settings are in effect at once; the response
// says UPDATING, as DynamoDB's does. A new index is CREATING until its
// backfill from the table's items is done (see backfill.go).
func (e *Engine) UpdateTable(_ context.Context, in *protocol.UpdateTableInput) (*protocol.UpdateTableOutput, error) {
	if err := validate.UpdateTable(in); err != nil {
		return nil, err
	}
	if err := validate.UpdateTableQuotas(in); err != nil {
		return nil, err
	}
	return e.updateTable(in)
}

// updateTable applies a request already checked.
func (e *Engine) updateTable(in *protocol.UpdateTableInput) (*protocol.UpdateTableOutput, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	t, err := e.changingTable(*in.TableName)
	if err != nil {
		return nil, err
	}
	meta := ownedMeta(t.meta)
	if err := keepReplicaStream(&meta, in.StreamSpecification); err != nil {
		return nil, err
	}
	if err := e.applyUpdate(&meta.Desc, in); err != nil {
		return nil, err
	}
	e.syncStreams(&meta)
	ch, err := e.applyIndexUpdates(&meta, in.GlobalSecondaryIndexUpdates, in.AttributeDefinitions)
	if err != nil {
		return nil, err
	}
	if len(in.VectorIndexUpdates) > 0 {
		if ch, err = e.applyVectorUpdates(&meta, in.VectorIndexUpdates, in.AttributeDefinitions); err != nil {
			return nil, err
		}
		pruneDefinitions(&meta.Desc)
	}
	if err := keepVectorsOnDemand(&meta.Desc); err != nil {
		return nil, err
	}
	if err := e.publish(t, meta, ch.dropID); err != nil {
		return nil, err
	}
	if ch.created != 0 {
		e.startBackfill(meta.Desc.TableName, meta.ID, ch.created)
	}
	tr := updating(in.GlobalSecondaryIndexUpdates, in.VectorIndexUpdates, ch)
	e.beginTransition(e.tables[meta.Desc.TableName], tr)
	return &protocol.UpdateTableOutput{TableDescription: e.updatedDesc(meta.Desc.TableName, tr)}, nil
}

// changingTable is lockedTable for requests that change a table: one
// still being created, updated or deleted is refused. Callers hold e.mu.
func (e *Engine) changingTable(ref string) (*table, error) {
	if err := e.stillDeleting(e.nameOf(ref)); err != nil {
		return nil, err
	}
	t, err := e.lockedTable(ref)
	if err == nil {
		err = e.changeable(t)
	}
	if err != nil {
		return nil, err
	}
	return t, nil
}

// updating is the transient status of a table an UpdateTable changed:
// the indexes it creates, updates and deletes are shown so too.
func updating(ups []protocol.GlobalSecondaryIndexUpdate, vups []protocol.VectorIndexUpdate, ch indexChange) transient {
	tr := transient{status: statusUpdating, indexes: map[string]string{}}
	for _, u := range ups {
		switch {
		case u.Create != nil:
			tr.indexes[*u.Create.IndexName] = statusCreating
		case u.Update != nil:
			tr.indexes[*u.Update.IndexName] = statusUpdating
		}
	}
	for _, u := range vups {
		if u.Create != nil {
			tr.indexes[*u.Create.IndexName] = statusCreating
		}
	}
	if ch.dropped != nil {
		tr.gone = append(tr.gone, *ch.dropped)
	}
	if ch.droppedVector != nil {
		tr.goneVectors = append(tr.goneVectors, *ch.droppedVector)
	}
	return tr
}

// updatedDesc describes the table after an update as the response shows
// it, whatever the delay: UPDATING, with the indexes the update touched
// in their new status and a deleted index still listed as DELETING.
func (e *Engine) updatedDesc(name string, tr transient) *protocol.TableDescription {
	desc := e.describe(e.tables[name])
	desc.TableStatus = statusUpdating
	showIndexes(desc, &tr)
	return desc
}

func (e *Engine) applyUpdate(d *protocol.TableDescription, in *protocol.UpdateTableInput) error {
	now := epoch(e.now())
	if err := updateCapacity(d, in, now); err != nil {
		return err
	}
	if err := e.updateStream(d, in.StreamSpecification); err != nil {
		return err
	}
	if in.DeletionProtectionEnabled != nil {
		d.DeletionProtectionEnabled = *in.DeletionProtectionEnabled
	}
	if in.SSESpecification != nil {
		setSSE(d, in.SSESpecification, e.region, e.account)
	}
	setTableClass(d, in.TableClass, now)
	return nil
}

// updateCapacity applies the request's billing mode, provisioned,
// maximum on-demand and warm throughput, in that order: the others are
// judged by the billing mode the table ends up with.
func updateCapacity(d *protocol.TableDescription, in *protocol.UpdateTableInput, now float64) error {
	if err := updateBilling(d, in, now); err != nil {
		return err
	}
	if err := validate.OnDemandThroughput(in.OnDemandThroughput, billingMode(d), ""); err != nil {
		return err
	}
	d.OnDemandThroughput = mergeMax(d.OnDemandThroughput, in.OnDemandThroughput)
	warm, err := raiseWarm(d.WarmThroughput, in.WarmThroughput, "")
	if err != nil {
		return err
	}
	d.WarmThroughput = followProvisioned(warm, d.ProvisionedThroughput)
	return nil
}

// updateBilling switches billing mode and sets throughput, refusing what
// DynamoDB refuses: throughput on an on-demand table and a change to the
// throughput it already has.
func updateBilling(d *protocol.TableDescription, in *protocol.UpdateTableInput, now float64) error {
	mode := billingMode(d)
	if in.BillingMode != nil {
		mode = *in.BillingMode
	}
	if mode == "PAY_PER_REQUEST" {
		return toOnDemand(d, in, now)
	}
	if in.ProvisionedThroughput == nil {
		if billingMode(d) == "PAY_PER_REQUEST" {
			return apierr.Validationf("One or more parameter values were invalid: ProvisionedThroughput must be specified when BillingMode is PROVISIONED")
		}
		return nil
	}
	return setThroughput(d, in.ProvisionedThroughput, now)
}

func toOnDemand(d *protocol.TableDescription, in *protocol.UpdateTableInput, now float64) error {
	if in.ProvisionedThroughput != nil {
		return validate.TableThroughput(in.ProvisionedThroughput, "PAY_PER_REQUEST")
	}
	if billingMode(d) != "PAY_PER_REQUEST" {
		d.BillingModeSummary = &protocol.BillingModeSummary{BillingMode: "PAY_PER_REQUEST", LastUpdateToPayPerRequestDateTime: &now}
		d.ProvisionedThroughput = throughputDesc(nil)
	}
	return nil
}

func setThroughput(d *protocol.TableDescription, pt *protocol.ProvisionedThroughput, now float64) error {
	cur := *d.ProvisionedThroughput
	r, w := *pt.ReadCapacityUnits, *pt.WriteCapacityUnits
	if billingMode(d) == "PROVISIONED" && r == cur.ReadCapacityUnits && w == cur.WriteCapacityUnits {
		return apierr.Validationf("The provisioned throughput for the table will not change. The requested value equals the current value. "+
			"Current ReadCapacityUnits provisioned for the table: %d. Requested ReadCapacityUnits: %d. "+
			"Current WriteCapacityUnits provisioned for the table: %d. Requested WriteCapacityUnits: %d. "+
			"Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits.",
			cur.ReadCapacityUnits, r, cur.WriteCapacityUnits, w)
	}
	next := protocol.ProvisionedThroughputDescription{ReadCapacityUnits: r, WriteCapacityUnits: w,
		LastIncreaseDateTime: cur.LastIncreaseDateTime, LastDecreaseDateTime: cur.LastDecreaseDateTime,
		NumberOfDecreasesToday: cur.NumberOfDecreasesToday}
	if r > cur.ReadCapacityUnits || w > cur.WriteCapacityUnits {
		next.LastIncreaseDateTime = &now
	}
	if r < cur.ReadCapacityUnits || w < cur.WriteCapacityUnits {
		next.LastDecreaseDateTime = &now
		next.NumberOfDecreasesToday++
	}
	d.ProvisionedThroughput = &next
	if d.BillingModeSummary != nil {
		d.BillingModeSummary = &protocol.BillingModeSummary{BillingMode: "PROVISIONED"}
		dropMaximums(d)
	}
	return nil
}

// dropMaximums removes the maximum on-demand throughput of a table that
// becomes provisioned, and of its indexes: DynamoDB is reported to drop
// them then, and not to restore them when the table is on-demand again.
// d's index list is its own (see ownedMeta).
func dropMaximums(d *protocol.TableDescription) {
	d.OnDemandThroughput = nil
	for i := range d.GlobalSecondaryIndexes {
		d.GlobalSecondaryIndexes[i].OnDemandThroughput = nil
	}
}

// updateStream enables or disables the table's stream. Enabling an enabled
// stream and disabling a disabled one are refused, as DynamoDB refuses them.
func (e *Engine) updateStream(d *protocol.TableDescription, spec *protocol.StreamSpecification) error {
	if spec == nil || spec.StreamEnabled == nil {
		return nil
	}
	enabled := d.StreamSpecification != nil
	switch {
	case *spec.StreamEnabled && enabled:
		return apierr.Validationf("Table already has an enabled stream: TableName: %s", d.TableName)
	case !*spec.StreamEnabled && !enabled:
		return apierr.Validationf("Table has no stream to disable: TableName: %s", d.TableName) // facts 31.3
	}
	setStream(d, spec, e.now())
	return nil
}
