package engine

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/storage"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// indexChange is what UpdateTable's GlobalSecondaryIndexUpdates did to a
// table's definition: an index to backfill, an index to drop.
type indexChange struct {
	created uint16                                    // id of a new index, or 0
	dropped *protocol.GlobalSecondaryIndexDescription // deleted index, or nil
	// droppedVector is a deleted vector index, or nil.
	droppedVector *protocol.VectorIndexDescription
	dropID        uint16
}

// applyIndexUpdates applies each Create, Update and Delete to meta, which
// the caller owns (see ownedMeta).
func (e *Engine) applyIndexUpdates(m *tableMeta, ups []protocol.GlobalSecondaryIndexUpdate, defs []protocol.AttributeDefinition) (indexChange, error) {
	var ch indexChange
	for _, u := range ups {
		var err error
		switch {
		case u.Create != nil:
			ch.created, err = e.createIndex(m, u.Create, defs)
		case u.Update != nil:
			err = updateIndex(m, u.Update)
		default:
			ch.dropped, ch.dropID, err = dropIndex(m, *u.Delete.IndexName)
		}
		if err != nil {
			return indexChange{}, err
		}
	}
	pruneDefinitions(&m.Desc)
	return ch, nil
}

// ownedMeta copies the parts of a definition that index updates change, so
// the published table's meta is never modified.
func ownedMeta(m tableMeta) tableMeta {
	m.Indexes = maps.Clone(m.Indexes)
	if m.Indexes == nil { // a table stored without indexes
		m.Indexes = map[string]uint16{}
	}
	m.Desc.GlobalSecondaryIndexes = slices.Clone(m.Desc.GlobalSecondaryIndexes)
	m.Desc.VectorIndexes = slices.Clone(m.Desc.VectorIndexes)
	m.Desc.AttributeDefinitions = slices.Clone(m.Desc.AttributeDefinitions)
	return m
}

func (e *Engine) createIndex(m *tableMeta, g *protocol.GlobalSecondaryIndex, defs []protocol.AttributeDefinition) (uint16, error) {
	if err := canCreateIndex(m, g); err != nil {
		return 0, err
	}
	if err := mergeDefinitions(&m.Desc, defs, g.KeySchema); err != nil {
		return 0, err
	}
	if err := newIndexCapacity(billingMode(&m.Desc), g); err != nil {
		return 0, err
	}
	d := e.gsiDesc(m, *g)
	d.IndexStatus, d.Backfilling = "CREATING", new(true)
	m.Desc.GlobalSecondaryIndexes = append(m.Desc.GlobalSecondaryIndexes, d)
	return m.Indexes[d.IndexName], nil
}

// newIndexCapacity checks a new index's throughput settings against the
// table's billing mode, and its warm throughput against its default.
func newIndexCapacity(billing string, g *protocol.GlobalSecondaryIndex) error {
	if err := validate.IndexThroughput(*g.IndexName, g.ProvisionedThroughput, billing, false); err != nil {
		return err
	}
	if err := validate.OnDemandThroughput(g.OnDemandThroughput, billing, *g.IndexName); err != nil {
		return err
	}
	_, err := indexWarm(billing, g)
	return err
}

// canCreateIndex applies the rules that depend on the table's indexes:
// unique names, at most 20 GSIs, one index built at a time, the limit on
// projected attributes.
func canCreateIndex(m *tableMeta, g *protocol.GlobalSecondaryIndex) error {
	if _, ok := m.Indexes[*g.IndexName]; ok {
		return apierr.Validationf("One or more parameter values were invalid: Index with name %s already exists on table %s", *g.IndexName, m.Desc.TableName)
	}
	if len(m.Desc.GlobalSecondaryIndexes) >= validate.MaxGSIs {
		return apierr.New(apierr.LimitExceeded, "The number of global secondary indexes for table %s exceeds the limit of %d", m.Desc.TableName, validate.MaxGSIs)
	}
	for _, d := range m.Desc.GlobalSecondaryIndexes {
		if d.IndexStatus == "CREATING" {
			return apierr.New(apierr.LimitExceeded, validate.MsgOneOnlineIndex)
		}
	}
	return validate.ProjectedAttributes(projectedAttrs(&m.Desc) + len(g.Projection.NonKeyAttributes))
}

func projectedAttrs(d *protocol.TableDescription) int {
	n := 0
	for _, g := range d.GlobalSecondaryIndexes {
		n += len(g.Projection.NonKeyAttributes)
	}
	for _, l := range d.LocalSecondaryIndexes {
		n += len(l.Projection.NonKeyAttributes)
	}
	for _, v := range d.VectorIndexes {
		n += validate.VectorProjected(&protocol.VectorIndex{Projection: v.Projection, SearchSchema: v.SearchSchema})
	}
	return n
}

// mergeDefinitions adds the request's attribute definitions to the
// table's. Redefining an attribute with another type is refused: items
// already stored were checked against the old one. ks is the new index's
// key schema, which the refusal prints (facts 17.1).
func mergeDefinitions(d *protocol.TableDescription, defs []protocol.AttributeDefinition, ks []protocol.KeySchemaElement) error {
	have := map[string]string{}
	for _, a := range d.AttributeDefinitions {
		have[*a.AttributeName] = *a.AttributeType
	}
	for _, a := range defs {
		t, ok := have[*a.AttributeName]
		if ok && t != *a.AttributeType {
			return redefined(d, *a.AttributeName, defs, ks)
		}
		if !ok {
			d.AttributeDefinitions = append(d.AttributeDefinitions, a)
			have[*a.AttributeName] = *a.AttributeType
		}
	}
	return nil
}

// redefined is DynamoDB's refusal of a definition that changes an
// attribute's type: it prints the key schema that already uses the
// attribute with its types, and the new index's with the request's.
func redefined(d *protocol.TableDescription, name string, defs []protocol.AttributeDefinition, ks []protocol.KeySchemaElement) error {
	return apierr.Validationf("One or more parameter values were invalid: Attributes cannot be redefined. "+
		"Please check that your attribute has the same type as previously defined. Existing schema: %s New schema: %s",
		schemaText(schemaUsing(d, name), d.AttributeDefinitions), schemaText(ks, append(slices.Clone(defs), d.AttributeDefinitions...)))
}

// schemaUsing returns the first key schema of the table or its indexes
// that uses the attribute name.
func schemaUsing(d *protocol.TableDescription, name string) []protocol.KeySchemaElement {
	schemas := [][]protocol.KeySchemaElement{d.KeySchema}
	for _, g := range d.GlobalSecondaryIndexes {
		schemas = append(schemas, g.KeySchema)
	}
	for _, l := range d.LocalSecondaryIndexes {
		schemas = append(schemas, l.KeySchema)
	}
	for _, ks := range schemas {
		if slices.ContainsFunc(ks, func(k protocol.KeySchemaElement) bool { return *k.AttributeName == name }) {
			return ks
		}
	}
	return nil
}

// schemaText prints a key schema as Schema:[SchemaElement: key{a:S:HASH}, ...],
// each attribute typed by the first definition of its name.
func schemaText(ks []protocol.KeySchemaElement, defs []protocol.AttributeDefinition) string {
	parts := make([]string, len(ks))
	for i, k := range ks {
		typ := ""
		if j := slices.IndexFunc(defs, func(a protocol.AttributeDefinition) bool { return *a.AttributeName == *k.AttributeName }); j >= 0 {
			typ = *defs[j].AttributeType
		}
		parts[i] = fmt.Sprintf("SchemaElement: key{%s:%s:%s}", *k.AttributeName, typ, *k.KeyType)
	}
	return "Schema:[" + strings.Join(parts, ", ") + "]"
}

// pruneDefinitions keeps only the definitions some key schema uses, as a
// table's description lists only key attributes.
func pruneDefinitions(d *protocol.TableDescription) {
	used := map[string]bool{}
	mark := func(ks []protocol.KeySchemaElement) {
		for _, k := range ks {
			used[*k.AttributeName] = true
		}
	}
	mark(d.KeySchema)
	for _, g := range d.GlobalSecondaryIndexes {
		mark(g.KeySchema)
	}
	for _, l := range d.LocalSecondaryIndexes {
		mark(l.KeySchema)
	}
	markSearchSchemas(d, used)
	d.AttributeDefinitions = slices.DeleteFunc(d.AttributeDefinitions, func(a protocol.AttributeDefinition) bool {
		return !used[*a.AttributeName]
	})
}

func gsiPosition(d *protocol.TableDescription, name string) int {
	return slices.IndexFunc(d.GlobalSecondaryIndexes, func(g protocol.GlobalSecondaryIndexDescription) bool {
		return g.IndexName == name
	})
}

func indexNotFound(name string) error {
	return apierr.New(apierr.ResourceNotFound, msgNotFound+": Index: %s not found", name)
}

// updateIndex changes an index's provisioned throughput (refused on an
// on-demand table), maximum on-demand throughput (refused on a
// provisioned one) and warm throughput. m's index list is its own (see
// ownedMeta), so the entry is changed in place.
func updateIndex(m *tableMeta, u *protocol.UpdateGlobalSecondaryIndexAction) error {
	i := gsiPosition(&m.Desc, *u.IndexName)
	if i < 0 {
		return indexNotFound(*u.IndexName)
	}
	g, billing := &m.Desc.GlobalSecondaryIndexes[i], billingMode(&m.Desc)
	if err := updateIndexThroughput(g, u, billing); err != nil {
		return err
	}
	warm, err := raiseWarm(g.WarmThroughput, u.WarmThroughput, g.IndexName)
	if err != nil {
		return err
	}
	g.WarmThroughput = followProvisioned(warm, g.ProvisionedThroughput)
	return nil
}

func updateIndexThroughput(g *protocol.GlobalSecondaryIndexDescription, u *protocol.UpdateGlobalSecondaryIndexAction, billing string) error {
	if u.ProvisionedThroughput != nil && billing == "PAY_PER_REQUEST" {
		return validate.IndexThroughput(g.IndexName, u.ProvisionedThroughput, billing, false)
	}
	if u.ProvisionedThroughput != nil {
		g.ProvisionedThroughput = throughputDesc(u.ProvisionedThroughput)
	}
	if err := validate.OnDemandThroughput(u.OnDemandThroughput, billing, g.IndexName); err != nil {
		return err
	}
	g.OnDemandThroughput = mergeMax(g.OnDemandThroughput, u.OnDemandThroughput)
	return nil
}

func dropIndex(m *tableMeta, name string) (*protocol.GlobalSecondaryIndexDescription, uint16, error) {
	d, id, err := removeIndex(m, &m.Desc.GlobalSecondaryIndexes, name, func(g *protocol.GlobalSecondaryIndexDescription) string { return g.IndexName })
	if err == nil {
		d.IndexStatus, d.Backfilling = "DELETING", nil
	}
	return d, id, err
}

// removeIndex takes the index called name out of list and m's index ids,
// returning its description (the caller marks it DELETING) and storage id.
func removeIndex[T any](m *tableMeta, list *[]T, name string, nameOf func(*T) string) (*T, uint16, error) {
	i := slices.IndexFunc(*list, func(x T) bool { return nameOf(&x) == name })
	if i < 0 {
		return nil, 0, indexNotFound(name)
	}
	d := (*list)[i]
	*list = slices.Delete(*list, i, i+1)
	id := m.Indexes[name]
	delete(m.Indexes, name)
	return &d, id, nil
}

// publish persists a changed definition (dropping a deleted index's
// entries and stats in the same batch) and swaps in the new table. It
// holds the table's lifecycle lock exclusively while it swaps, so every
// write in flight has committed against the old definition and every
// later one commits against the new (see Engine.commitAll). Callers hold
// e.mu.
func (e *Engine) publish(t *table, meta tableMeta, dropID uint16) error {
	t.alive.Lock()
	defer t.alive.Unlock()
	if err := e.stampStreams(t, &meta); err != nil {
		return err
	}
	b := e.db.NewBatch()
	raw, err := putMeta(b, &meta)
	if err != nil {
		b.Discard()
		return err
	}
	t.alive.current.Load().replaceDefinition(b)
	if dropID != 0 {
		e.dropGraphs(meta.ID, dropID)
		p := storage.ItemPrefix(meta.ID, dropID)
		b.DeleteRange(p, storage.PrefixEnd(p))
		b.Delete(storage.StatsKey(meta.ID, dropID))
	}
	if err := b.Commit(); err != nil {
		return e.staleCatalog(err)
	}
	e.tables[meta.Desc.TableName] = newTable(meta, t.alive, raw)
	return nil
}
