package engine

import (
	"math"
	"time"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/throttle"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// ImportTable's table is CREATING for as long as its import runs, as
// DynamoDB's is, not for the transient delay: importUntil is "until
// FinishImport says otherwise", whatever the clock.
var importUntil = time.Unix(math.MaxInt64/4, 0)

// CheckImportTable judges the table an import would create as CreateTable
// judges it, before anything is read or created.
func CheckImportTable(in *protocol.CreateTableInput) error { return checkCreate(in) }

// CreateImportTable creates the table of an ImportTable request, already
// checked, and holds it CREATING until FinishImport: items cannot be read
// or written by requests, and the table cannot be changed or deleted,
// until the import is over.
func (e *Engine) CreateImportTable(in *protocol.CreateTableInput) (*protocol.TableDescription, error) {
	out, err := e.createTable(in)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	t := e.tables[out.TableDescription.TableName]
	t.alive.shown.Store(&transient{status: statusCreating, until: importUntil})
	return out.TableDescription, nil
}

// ImportItems writes items into a table CreateImportTable created. Each
// item is checked as BatchWriteItem checks a put; refused[i] is the error
// of items[i] when it was refused, and the others are written in one
// batch. A key given twice is written once, the last one winning, as an
// import's duplicates are. Imports consume no capacity.
func (e *Engine) ImportItems(table string, items []attr.Item) (refused []error, err error) {
	t := e.lookup(table)
	if t == nil {
		return nil, apierr.New(apierr.ResourceNotFound, msgNotFound)
	}
	refused = make([]error, len(items))
	plan := e.importPlan(t, items, refused)
	for len(plan) > 0 {
		unprocessed := map[string][]protocol.WriteRequest{}
		if _, err := e.applyAll(plan, unprocessed); err != nil {
			return nil, err
		}
		plan = unwritten(plan)
	}
	return refused, nil
}

// importPlan checks each item and keeps the last of each key.
func (e *Engine) importPlan(t *table, items []attr.Item, refused []error) []batchWrite {
	at := map[string]int{}
	var plan []batchWrite
	for i, it := range items {
		w := protocol.WriteRequest{PutRequest: &protocol.PutRequest{Item: it}}
		in := &protocol.BatchWriteItemInput{RequestItems: map[string][]protocol.WriteRequest{t.meta.Desc.TableName: {w}}}
		if refused[i] = validate.BatchWriteItem(in); refused[i] != nil {
			continue
		}
		bw, err := t.checkWrite(w)
		if refused[i] = err; err != nil {
			continue
		}
		bw.table, bw.free = t.meta.Desc.TableName, true
		if j, ok := at[string(bw.key.storage)]; ok {
			plan[j] = bw
			continue
		}
		at[string(bw.key.storage)] = len(plan)
		plan = append(plan, bw)
	}
	return plan
}

// unwritten are the writes of plan a transaction held: none can hold an
// item of a table being created, but a plan is not dropped on a guess.
func unwritten(plan []batchWrite) []batchWrite {
	var left []batchWrite
	for _, p := range plan {
		if p.refused {
			p.refused = false
			left = append(left, p)
		}
	}
	return left
}

// FinishImport ends an import's hold on its table: a complete import's
// table is ACTIVE from now on; a failed one's is deleted with whatever
// the import wrote, so that no half-filled table is left behind.
func (e *Engine) FinishImport(table string, complete bool) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	t, ok := e.tables[table]
	if !ok {
		return nil
	}
	t.alive.shown.Store(nil)
	if complete {
		return nil
	}
	if err := e.dropTable(t); err != nil {
		return err
	}
	delete(e.tables, table)
	return nil
}

// admitBatch admits a batch's write at its table's capacity, but an
// import's, which consumes none.
func (e *Engine) admitBatch(p batchWrite) (*throttle.Request, error) {
	if p.free {
		return nil, nil
	}
	return e.admit(p.t, true, nil, p.key.storage)
}

// Now is the database's clock, which imports are timed by.
func (e *Engine) Now() time.Time { return e.now() }
