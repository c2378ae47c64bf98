package engine

import (
	"time"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// DynamoDB takes seconds to create, update or delete a table or an index,
// and reports CREATING, UPDATING or DELETING meanwhile. sortkey's changes
// are complete at once; with Options.TransientDelay they are shown as
// DynamoDB shows them for that long, and refused as DynamoDB refuses
// requests meanwhile. The transient status is never stored: what is on
// disk is always the finished change, so a restart finishes every change
// in flight (a table being created is ACTIVE, one being deleted is gone).

// The statuses a table or index passes through.
const (
	statusCreating = "CREATING"
	statusUpdating = "UPDATING"
	statusDeleting = "DELETING"
)

// DynamoDB's answers to requests that meet a table in transition.
const (
	msgNotFound      = "Requested resource not found"
	msgInUse         = "Attempt to change a resource which is still in use: "
	msgTableCreating = msgInUse + "Table is being created: %s"
	msgTableUpdating = msgInUse + "Table is being updated: %s"
	msgTableDeleting = msgInUse + "Table is being deleted: %s"
)

// transient is how a table is shown until a change's delay has passed.
// A table has one at a time: a table in transition refuses the requests
// that would start another.
type transient struct {
	status  string            // statusCreating or statusUpdating
	until   time.Time         // when the change is shown as complete
	indexes map[string]string // status of each GSI the change touched
	// gone lists the GSIs the change deleted, still shown as DELETING.
	gone []protocol.GlobalSecondaryIndexDescription
	// goneVectors lists the vector indexes it deleted, shown as DELETING.
	goneVectors []protocol.VectorIndexDescription
}

// deletedTable is a deleted table, still listed and described as DELETING
// until its delay has passed. Its items are already gone.
type deletedTable struct {
	desc  *protocol.TableDescription
	until time.Time
}

// inTransition returns t's transient status, or nil once its delay has
// passed (and forgets it then, so an ACTIVE table costs the item path
// one atomic load).
func (e *Engine) inTransition(t *table) *transient {
	tr := t.alive.shown.Load()
	if tr == nil || e.now().Before(tr.until) {
		return tr
	}
	t.alive.shown.CompareAndSwap(tr, nil)
	return nil
}

// beginTransition shows t in a transient status for the delay; a zero
// delay shows nothing. Callers hold e.mu.
func (e *Engine) beginTransition(t *table, tr transient) {
	if e.delay <= 0 {
		return
	}
	tr.until = e.now().Add(e.delay)
	t.alive.shown.Store(&tr)
}

// usable refuses a data-plane request on a table still being created:
// DynamoDB answers as if it did not exist yet. It reads the clock only
// for such a table: this is on every item request's path.
func (e *Engine) usable(t *table) error {
	tr := t.alive.shown.Load()
	if tr == nil || tr.status != statusCreating {
		return nil
	}
	if !e.now().Before(tr.until) {
		t.alive.shown.CompareAndSwap(tr, nil)
		return nil
	}
	return apierr.New(apierr.ResourceNotFound, msgNotFound)
}

// changeable refuses to change or delete a table that is still being
// created or updated.
func (e *Engine) changeable(t *table) error {
	tr := e.inTransition(t)
	switch {
	case tr == nil:
		return nil
	case tr.status == statusCreating:
		return apierr.New(apierr.ResourceInUse, msgTableCreating, t.meta.Desc.TableName)
	}
	return apierr.New(apierr.ResourceInUse, msgTableUpdating, t.meta.Desc.TableName)
}

// shown is d, t's description, as the table looks while in transition.
func (e *Engine) shown(t *table, d *protocol.TableDescription) *protocol.TableDescription {
	tr := e.inTransition(t)
	if tr == nil {
		return d
	}
	if tr.status == statusCreating {
		return creating(d)
	}
	d.TableStatus = tr.status
	showIndexes(d, tr)
	return d
}

// showIndexes applies tr to d's GSIs and vector indexes: those the change
// created or updated in their transient status, those it deleted listed
// as DELETING.
func showIndexes(d *protocol.TableDescription, tr *transient) {
	for i := range d.GlobalSecondaryIndexes {
		showIndex(&d.GlobalSecondaryIndexes[i], tr.indexes)
	}
	for i := range d.VectorIndexes {
		if v := &d.VectorIndexes[i]; tr.indexes[v.IndexName] == statusCreating {
			v.IndexStatus, v.Backfilling = statusCreating, new(true)
		}
	}
	d.GlobalSecondaryIndexes = append(d.GlobalSecondaryIndexes, tr.gone...)
	d.VectorIndexes = append(d.VectorIndexes, tr.goneVectors...)
}

// showIndex applies an index's transient status; an index being created
// by UpdateTable is backfilling until it is shown ACTIVE.
func showIndex(g *protocol.GlobalSecondaryIndexDescription, statuses map[string]string) {
	s, ok := statuses[g.IndexName]
	if !ok {
		return
	}
	g.IndexStatus = s
	if s == statusCreating {
		g.Backfilling = new(true)
	}
}

// indexCreating reports whether the named GSI or vector index of t is
// still shown as being created, so that reading it is refused.
func (e *Engine) indexCreating(t *table, name string) bool {
	tr := e.inTransition(t)
	return tr != nil && tr.indexes[name] == statusCreating
}

// deletedDesc returns the description of a table still shown as DELETING,
// or nil. Callers hold e.mu.
func (e *Engine) deletedDesc(name string) *protocol.TableDescription {
	g, ok := e.deleting[name]
	if !ok || !e.now().Before(g.until) {
		return nil
	}
	d := *g.desc
	return &d
}

// showDeleted keeps a deleted table listed as DELETING for the delay.
// Callers hold e.mu.
func (e *Engine) showDeleted(d *protocol.TableDescription) {
	for name, g := range e.deleting { // forget those whose delay has passed
		if !e.now().Before(g.until) {
			delete(e.deleting, name)
		}
	}
	if e.delay > 0 {
		e.deleting[d.TableName] = deletedTable{desc: d, until: e.now().Add(e.delay)}
	}
}

// stillDeleting refuses to create or change a table whose name is still
// shown as DELETING. Callers hold e.mu.
func (e *Engine) stillDeleting(name string) error {
	if e.deletedDesc(name) != nil {
		return apierr.New(apierr.ResourceInUse, msgTableDeleting, name)
	}
	return nil
}
