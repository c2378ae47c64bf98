package engine

import (
	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/expr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// readExprs are a Query's or Scan's parsed expressions (or their legacy
// equivalents); each is nil when absent.
type readExprs struct {
	key    expr.Cond
	filter expr.Cond
	proj   expr.Projection
}

// parseRead parses every expression of a read (or translates its legacy
// equivalents) once, before any data is read, then reports unused names
// and values, then makes the checks that need no table (see validate):
// DynamoDB's order.
func parseRead(o *protocol.ReadOptions, keyExpr *string, keyConds, filterConds map[string]protocol.Condition) (r readExprs, err error) {
	attrs := expr.NewAttrs(o.ExpressionAttributeNames, o.ExpressionAttributeValues)
	if keyExpr != nil {
		r.key, err = attrs.ParseCondition(expr.KeyCondition, *keyExpr)
	} else {
		r.key, err = legacyConditions(keyConds, nil)
	}
	if err != nil {
		return r, err
	}
	if o.FilterExpression != nil {
		r.filter, err = attrs.ParseCondition(expr.Filter, *o.FilterExpression)
	} else {
		r.filter, err = legacyConditions(filterConds, o.ConditionalOperator)
	}
	if err != nil {
		return r, err
	}
	if r.proj, err = readProjection(attrs, o); err != nil {
		return r, err
	}
	if err := attrs.CheckUnused(); err != nil {
		return r, err
	}
	return r, r.validate()
}

func readProjection(attrs *expr.Attrs, o *protocol.ReadOptions) (expr.Projection, error) {
	if o.ProjectionExpression != nil {
		return attrs.ParseProjection(*o.ProjectionExpression)
	}
	var p expr.Projection
	for _, name := range o.AttributesToGet {
		p = append(p, expr.Path{{Name: name}})
	}
	return p, nil
}

// validate makes the checks that need neither table nor item: no key
// condition on a nested path (a key attribute is top-level), and the
// types of constant operands.
func (r readExprs) validate() error {
	if r.key != nil {
		if err := keyNotNested(r.key); err != nil {
			return err
		}
		if err := expr.ValidateCond(r.key, expr.KeyCondition); err != nil {
			return err
		}
	}
	if r.filter != nil {
		return expr.ValidateCond(r.filter, expr.Filter)
	}
	return nil
}

// plan resolves the table, the index and Select into a read plan over the
// whole table or index; Query and Scan then narrow its range.
func (e *Engine) plan(o *protocol.ReadOptions, r readExprs) (*readPlan, error) {
	t, err := e.itemTable(*o.TableName)
	if err != nil {
		return nil, err
	}
	p := &readPlan{t: t, filter: r.filter, proj: r.proj, capMode: o.ReturnConsumedCapacity, tableRef: *o.TableName,
		consistent: o.ConsistentRead != nil && *o.ConsistentRead}
	if o.Limit != nil {
		p.limit = *o.Limit
	}
	if p.ix, err = e.readableIndex(t, o.IndexName); err != nil && o.IndexName != nil && e.db.Shared() {
		// Another node may have added the index, or finished its
		// backfill, since this one last read the catalog.
		e.freshCatalog()
		p.t = t.alive.current.Load()
		p.ix, err = e.readableIndex(p.t, o.IndexName)
	}
	if err != nil {
		return nil, err
	}
	t = p.t
	if p.ix != nil && p.ix.global && p.consistent {
		return nil, apierr.Validationf("Consistent reads are not supported on global secondary indexes")
	}
	if err := p.selectAttrs(o.Select); err != nil {
		return nil, err
	}
	p.lo, p.hi = t.indexRange(p.ix)
	return p, nil
}

// index finds the named index; nil name means the table itself.
func (t *table) index(name *string) (*indexSchema, error) {
	if name == nil {
		return nil, nil
	}
	for i := range t.indexes {
		if ix := &t.indexes[i]; ix.name == *name && ix.vec == nil {
			if ix.backfilling {
				return nil, backfillingIndex(ix.name)
			}
			return ix, nil
		}
	}
	return nil, apierr.Validationf("The table does not have the specified index: %s", *name)
}

// readableIndex is t.index, refusing too an index still shown as being
// created (see transient.go).
func (e *Engine) readableIndex(t *table, name *string) (*indexSchema, error) {
	ix, err := t.index(name)
	if ix != nil && e.indexCreating(t, ix.name) {
		return nil, backfillingIndex(ix.name)
	}
	return ix, err
}

func backfillingIndex(name string) error {
	return apierr.Validationf("Cannot read from backfilling global secondary index: %s", name)
}

// selectAttrs applies Select. On an index that does not project every
// attribute, ALL_ATTRIBUTES is refused for a GSI and fetched from the table
// for an LSI, as DynamoDB does; so is a projection naming attributes an LSI
// does not hold.
func (p *readPlan) selectAttrs(sel *string) error {
	switch {
	case sel != nil && *sel == "COUNT":
		p.count = true
	case sel != nil && *sel == "ALL_ATTRIBUTES" && p.ix != nil && p.ix.projType != "ALL":
		if p.ix.global {
			return apierr.Validationf("One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global secondary index %s because its projection type is not ALL", p.ix.name)
		}
		p.fetchTable = true
	case p.proj != nil && p.ix != nil && !p.ix.global:
		p.fetchTable = !p.projects(p.proj)
	case p.proj != nil && p.ix != nil && p.ix.projType != "ALL":
		return p.unprojected()
	}
	return nil
}

// unprojected refuses a projection that names an attribute a GSI does not
// hold: a GSI cannot fetch from its table.
func (p *readPlan) unprojected() error {
	for _, path := range p.proj {
		if name := path[0].Name; !p.t.isKeyAttr(p.ix, name) && !p.ix.include[name] {
			return apierr.Validationf("One or more parameter values were invalid: Global secondary index %s does not project the attribute %s", p.ix.name, name)
		}
	}
	return nil
}

// projects reports whether the index holds every attribute paths name.
func (p *readPlan) projects(paths expr.Projection) bool {
	if p.ix.projType == "ALL" {
		return true
	}
	for _, path := range paths {
		if name := path[0].Name; !p.t.isKeyAttr(p.ix, name) && !p.ix.include[name] {
			return false
		}
	}
	return true
}
