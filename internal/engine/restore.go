package engine

import (
	"math"
	"time"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/storage"
)

// restoreRequest is the CreateTable request a restore amounts to: the
// source's keys, indexes, billing and encryption, each replaced by its
// override when the request gives one. It is checked as CreateTable
// checks its requests, so an override is held to the same rules.
func restoreRequest(src *tableMeta, target string, o *protocol.RestoreOverrides) (*protocol.CreateTableInput, error) {
	d := &src.Desc
	mode := billingMode(d)
	in := &protocol.CreateTableInput{TableName: &target, AttributeDefinitions: d.AttributeDefinitions,
		KeySchema: d.KeySchema, BillingMode: &mode, OnDemandThroughput: d.OnDemandThroughput,
		GlobalSecondaryIndexes: sourceGSIs(d), LocalSecondaryIndexes: sourceLSIs(d), SSESpecification: sourceSSE(d),
		VectorIndexes: sourceVectors(d)}
	if mode == "PROVISIONED" {
		in.ProvisionedThroughput = throughputOf(d.ProvisionedThroughput)
	}
	override(in, o)
	if err := overrideVectors(in, d, o.VectorIndexOverride); err != nil {
		return nil, err
	}
	if err := checkCreate(in); err != nil {
		return nil, err
	}
	return in, nil
}

func override(in *protocol.CreateTableInput, o *protocol.RestoreOverrides) {
	if o.BillingModeOverride != nil {
		in.BillingMode = o.BillingModeOverride
		if *o.BillingModeOverride == "PAY_PER_REQUEST" {
			in.ProvisionedThroughput = nil
			for i := range in.GlobalSecondaryIndexes {
				in.GlobalSecondaryIndexes[i].ProvisionedThroughput = nil
			}
		}
	}
	if o.ProvisionedThroughputOverride != nil {
		in.ProvisionedThroughput = o.ProvisionedThroughputOverride
	}
	if o.OnDemandThroughputOverride != nil {
		in.OnDemandThroughput = o.OnDemandThroughputOverride
	}
	if o.GlobalSecondaryIndexOverride != nil {
		in.GlobalSecondaryIndexes = o.GlobalSecondaryIndexOverride
	}
	if o.LocalSecondaryIndexOverride != nil {
		in.LocalSecondaryIndexes = o.LocalSecondaryIndexOverride
	}
	if o.SSESpecificationOverride != nil {
		in.SSESpecification = o.SSESpecificationOverride
	}
}

func sourceGSIs(d *protocol.TableDescription) []protocol.GlobalSecondaryIndex {
	var out []protocol.GlobalSecondaryIndex
	for _, g := range d.GlobalSecondaryIndexes {
		ix := protocol.GlobalSecondaryIndex{IndexName: &g.IndexName, KeySchema: g.KeySchema, Projection: g.Projection,
			OnDemandThroughput: g.OnDemandThroughput}
		if billingMode(d) == "PROVISIONED" {
			ix.ProvisionedThroughput = throughputOf(g.ProvisionedThroughput)
		}
		out = append(out, ix)
	}
	return out
}

func sourceLSIs(d *protocol.TableDescription) []protocol.LocalSecondaryIndex {
	var out []protocol.LocalSecondaryIndex
	for _, l := range d.LocalSecondaryIndexes {
		out = append(out, protocol.LocalSecondaryIndex{IndexName: &l.IndexName, KeySchema: l.KeySchema, Projection: l.Projection})
	}
	return out
}

func sourceSSE(d *protocol.TableDescription) *protocol.SSESpecification {
	s := d.SSEDescription
	if s == nil || s.Status != "ENABLED" {
		return nil
	}
	on := true
	spec := &protocol.SSESpecification{Enabled: &on, SSEType: &s.SSEType}
	if s.KMSMasterKeyArn != "" {
		spec.KMSMasterKeyId = &s.KMSMasterKeyArn
	}
	return spec
}

// restoreChunk is how many items one synced batch of a restore writes.
const restoreChunk = 256

// forever is the end of the CREATING status a restore shows while it
// loads; it is replaced when the load is done.
var forever = time.Unix(math.MaxInt32, 0)

// restore creates the table in, marked restoring, loads it with the items
// source gives (their encodings), and then publishes it. A table still
// restoring refuses item requests (it is CREATING); one found restoring at
// start, after a crash, is deleted, so a half-made table is never seen as
// done. A failed load deletes the table.
func (e *Engine) restore(in *protocol.CreateTableInput, sum *protocol.RestoreSummary, source func(func(v []byte) error) error) (*protocol.RestoreTableOutput, error) {
	t, err := e.createRestoring(in, sum)
	if err != nil {
		return nil, err
	}
	if err := e.load(t, source); err != nil {
		e.abandon(t)
		return nil, err
	}
	if err := e.finishRestore(t); err != nil {
		return nil, err
	}
	return &protocol.RestoreTableOutput{TableDescription: creating(e.describe(e.lookup(t.meta.Desc.TableName)))}, nil
}

func (e *Engine) createRestoring(in *protocol.CreateTableInput, sum *protocol.RestoreSummary) (*table, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	name := *in.TableName
	if _, ok := e.tables[name]; ok {
		return nil, apierr.New(apierr.TableAlreadyExists, msgTableExists, name)
	}
	if err := e.stillDeleting(name); err != nil {
		return nil, err
	}
	meta := e.newMeta(name, in)
	meta.Tags = nil
	sum.RestoreInProgress = true
	meta.Desc.RestoreSummary, meta.Restoring = sum, true
	raw, err := e.persistNew(&meta)
	if err != nil {
		return nil, err
	}
	t := newTable(meta, new(lifecycle), raw)
	t.alive.shown.Store(&transient{status: statusCreating, until: forever})
	e.tables[name] = t
	return t, nil
}

// load writes the items through the ordinary commit path, so indexes,
// stats and item collections are kept as for any write.
func (e *Engine) load(t *table, source func(func(v []byte) error) error) error {
	var ws []write
	err := source(func(v []byte) error {
		it, err := attr.DecodeItem(v)
		if err != nil {
			return err
		}
		k, err := t.keyFromItem(it)
		if err != nil {
			return err
		}
		if ws = append(ws, write{t: t, key: k, new: it}); len(ws) == restoreChunk {
			err, ws = e.commitAll(ws), ws[:0]
		}
		return err
	})
	if err != nil || len(ws) == 0 {
		return err
	}
	return e.commitAll(ws)
}

// finishRestore publishes the loaded table: no longer restoring, CREATING
// for the transient delay as a new table is.
func (e *Engine) finishRestore(t *table) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	meta := t.meta
	sum := *meta.Desc.RestoreSummary
	sum.RestoreInProgress = false
	meta.Desc.RestoreSummary, meta.Restoring = &sum, false
	if err := e.publish(t, meta, 0); err != nil {
		return err
	}
	t.alive.shown.Store(nil)
	e.beginTransition(e.tables[meta.Desc.TableName], transient{status: statusCreating})
	return nil
}

// abandon deletes a table whose restore failed.
func (e *Engine) abandon(t *table) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.dropTable(t) == nil {
		delete(e.tables, t.meta.Desc.TableName)
	}
}

// dropRestoring deletes, at start, a table a crash left restoring.
func (e *Engine) dropRestoring(m *tableMeta) error {
	b := e.db.NewBatch()
	b.Delete(storage.CatalogKey(m.Desc.TableName))
	b.DeleteRange(storage.TableRange(m.ID))
	b.DeleteRange(storage.StatsRange(m.ID))
	return b.Commit()
}
