package engine

import "github.com/sortkeydb/sortkey/internal/storage"

// Health is the store's own statistics (compactions, write stalls, block
// cache), for metrics.
func (e *Engine) Health() storage.Health { return e.db.Health() }

// TableStats is one table's or index's item count and size, as
// DescribeTable reports them.
type TableStats struct {
	Table, Index string // Index "" for the table itself
	Items, Bytes int64
}

// Stats lists the item count and size of every active table and each of
// its indexes, in table order. It reads one stored counter per table and
// index, so a metrics scrape may call it.
func (e *Engine) Stats() []TableStats {
	var out []TableStats
	for _, name := range e.tableNames() {
		t := e.lookup(name)
		if t == nil {
			continue // shown as DELETING: its items are gone
		}
		out = append(out, e.tableStats(t)...)
	}
	return out
}

func (e *Engine) tableStats(t *table) []TableStats {
	name := t.meta.Desc.TableName
	s := e.stats(t.meta.ID, 0)
	out := []TableStats{{Table: name, Items: s.Items, Bytes: s.Bytes}}
	for index, id := range t.meta.Indexes {
		s := e.stats(t.meta.ID, id)
		out = append(out, TableStats{Table: name, Index: index, Items: s.Items, Bytes: s.Bytes})
	}
	return out
}

// Probe checks that the store takes a durable write and serves a read
// (storage.DB.Probe), for a health check; once Close has begun it answers
// storage.ErrClosed without touching the store.
func (e *Engine) Probe() error {
	select {
	case <-e.closing:
		return storage.ErrClosed
	default:
		return e.db.Probe()
	}
}
