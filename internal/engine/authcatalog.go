package engine

import "github.com/sortkeydb/sortkey/internal/auth/access"

// AuthCatalog is the engine's view for access control: the key schema,
// indexes and stream of a table, and the ARNs of this region and account.
// It reads the catalog under the engine's read lock and never an item.
func (e *Engine) AuthCatalog() access.Catalog { return authCatalog{e} }

type authCatalog struct{ e *Engine }

func (c authCatalog) Schema(name string) (access.Schema, bool) {
	t := c.e.lookup(name)
	if t == nil {
		return access.Schema{}, false
	}
	if s := t.authSchema.Load(); s != nil {
		return *s, true
	}
	s := authSchemaOf(t)
	t.authSchema.Store(&s)
	return s, true
}

// authSchemaOf is t's keys as access reads them. A table version never
// changes (a change publishes a new one), so it is built once per version.
func authSchemaOf(t *table) access.Schema {
	s := access.Schema{Partition: keyNames(t.key.hashes), Sort: t.key.rng.name, StreamArn: t.meta.Desc.LatestStreamArn}
	if len(t.indexes) > 0 {
		s.Indexes = make(map[string]access.IndexSchema, len(t.indexes))
	}
	for i := range t.indexes {
		ix := &t.indexes[i]
		s.Indexes[ix.name] = access.IndexSchema{Partition: keyNames(ix.key.hashes), Sort: keyNames(ix.key.rngs), Local: !ix.global}
	}
	return s
}

func keyNames(as []keyAttr) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.name
	}
	return out
}

func (c authCatalog) TableArn(name string) string { return c.e.tableArn(name) }

func (c authCatalog) TableOfArn(arn string) (string, bool) {
	name := c.e.tableFromArn(arn)
	return name, name != ""
}

// StreamOfIterator reads the stream ARN an iterator carries, expired or
// not: an expired iterator is still authorised against its stream before
// GetRecords refuses it.
func (c authCatalog) StreamOfIterator(it string) (string, bool) {
	d, _ := c.e.decodeIterator(it)
	return d.Arn, d.Arn != ""
}
