package engine

import (
	"context"
	"encoding/json"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/storage"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// CreateTable creates a table. It is usable at once; the response says
// CREATING, as DynamoDB's does, and DescribeTable says ACTIVE from then on
// (after the transient delay, if there is one: see transient.go).
func (e *Engine) CreateTable(_ context.Context, in *protocol.CreateTableInput) (*protocol.CreateTableOutput, error) {
	if err := checkCreate(in); err != nil {
		return nil, err
	}
	if in.ResourcePolicy != nil {
		if err := e.checkPolicyDoc([]byte(*in.ResourcePolicy)); err != nil {
			return nil, err
		}
	}
	return e.createTable(in)
}

// createTable creates the table of a request already checked.
func (e *Engine) createTable(in *protocol.CreateTableInput) (*protocol.CreateTableOutput, error) {
	name, err := e.resolveName(*in.TableName)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, ok := e.tables[name]; ok {
		return nil, apierr.New(apierr.ResourceInUse, "Table already exists: %s", name)
	}
	if err := e.stillDeleting(name); err != nil {
		return nil, err
	}
	meta := e.newMeta(name, in)
	raw, err := e.persistNew(&meta)
	if err != nil {
		return nil, err
	}
	t := newTable(meta, new(lifecycle), raw)
	e.tables[name] = t
	e.beginTransition(t, transient{status: statusCreating})
	return &protocol.CreateTableOutput{TableDescription: creating(e.describe(t))}, nil
}

// checkCreate judges a CreateTable request on its own, in the service's
// order: validation (shape, model, the semantic rules), warm throughput,
// then the throughput quotas. The name's table comes after.
func checkCreate(in *protocol.CreateTableInput) error {
	if err := validate.CreateTable(in); err != nil {
		return err
	}
	if err := createWarm(in); err != nil {
		return err
	}
	return validate.CreateTableQuotas(in)
}

// creating is a new table's description as CreateTable answers it: the
// table and its global secondary indexes are CREATING together. Indexes
// born with their table never report Backfilling.
func creating(d *protocol.TableDescription) *protocol.TableDescription {
	d.TableStatus = "CREATING"
	for i := range d.GlobalSecondaryIndexes {
		d.GlobalSecondaryIndexes[i].IndexStatus = "CREATING"
	}
	for i := range d.VectorIndexes {
		d.VectorIndexes[i].IndexStatus = "CREATING"
	}
	return d
}

// persistNew writes a new table's definition and the advanced id sequence
// in one batch. Callers hold e.mu.
func (e *Engine) persistNew(meta *tableMeta) ([]byte, error) {
	b := e.db.NewBatch()
	raw, err := putMeta(b, meta)
	if err != nil {
		b.Discard()
		return nil, err
	}
	// On a shared store, another node may have created the name, or
	// issued the id, since this one last read the catalog.
	b.Guard(storage.CatalogKey(meta.Desc.TableName), false, nil)
	e.guardSequence(b)
	seq, _ := json.Marshal(meta.ID)
	b.Set(storage.SequenceKey(), seq)
	if err := b.Commit(); err != nil {
		return nil, e.staleCatalog(err)
	}
	e.lastID, e.seqRaw = meta.ID, seq
	return raw, nil
}

// createWarm refuses warm throughput below what the new table and its
// indexes would start with.
func createWarm(in *protocol.CreateTableInput) error {
	d := &protocol.TableDescription{}
	setBilling(d, in.BillingMode, in.ProvisionedThroughput, 0)
	if _, err := tableWarm(d, in.WarmThroughput); err != nil {
		return err
	}
	for i := range in.GlobalSecondaryIndexes {
		if _, err := indexWarm(billingMode(d), &in.GlobalSecondaryIndexes[i]); err != nil {
			return err
		}
	}
	return nil
}

func (e *Engine) newMeta(name string, in *protocol.CreateTableInput) tableMeta {
	now := epoch(e.now())
	e.lastID++
	d := protocol.TableDescription{
		TableName:                 name,
		TableId:                   newUUID(),
		TableArn:                  e.tableArn(name),
		TableStatus:               "ACTIVE",
		CreationDateTime:          now,
		AttributeDefinitions:      in.AttributeDefinitions,
		KeySchema:                 in.KeySchema,
		DeletionProtectionEnabled: in.DeletionProtectionEnabled != nil && *in.DeletionProtectionEnabled,
	}
	setBilling(&d, in.BillingMode, in.ProvisionedThroughput, now)
	d.OnDemandThroughput = mergeMax(nil, in.OnDemandThroughput)
	d.WarmThroughput, _ = tableWarm(&d, in.WarmThroughput) // createWarm checked it
	meta := tableMeta{ID: e.lastID, Desc: d, Tags: in.Tags, Policy: newPolicy(in.ResourcePolicy)}
	e.addIndexes(&meta, in)
	setStream(&meta.Desc, in.StreamSpecification, e.now())
	e.syncStreams(&meta)
	for i := range meta.Streams { // a new table has no records: its stream starts at 0
		meta.Streams[i].Stamped = true
	}
	setSSE(&meta.Desc, in.SSESpecification, e.region, e.account)
	setTableClass(&meta.Desc, in.TableClass, now)
	return meta
}
