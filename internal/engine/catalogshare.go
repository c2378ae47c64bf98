package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"time"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/storage"
)

// Nodes sharing a store each cache the catalog. A node's cache may lag
// another node's change, but never for a write: every write guards its
// tables' definitions as it read them (shared), every catalog change
// guards the one it replaces (exclusive), so a write on a stale
// definition writes nothing and runs again on the new one (retryStale).
// Requests that describe tables (DescribeTable, ListTables, …) reload it
// first. Item reads take the catalog as this node last loaded it,
// reloading it at once for a table or index it does not know, and
// otherwise within catalogInterval.

// catalogInterval is how often a node on a shared store reloads the
// catalog, and its lease holder resumes backfills nobody runs.
const catalogInterval = time.Second

// guardDefinition makes b commit only while t is its table's current
// definition on the store.
func (t *table) guardDefinition(b *storage.Batch) {
	if t.raw != nil {
		b.GuardSharedDigest(t.defKey, t.defDigest)
	}
}

// replaceDefinition makes b commit only if t is still the stored
// definition it replaces or deletes.
func (t *table) replaceDefinition(b *storage.Batch) {
	if t.raw != nil {
		b.Guard(t.defKey, true, t.raw)
	}
}

// catalogLoop reloads the catalog until Close; on the lease holder it
// also resumes backfills (of a node that died, or lost the lease).
func (e *Engine) catalogLoop(interval time.Duration) {
	defer e.sweeping.Done()
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-e.closing:
			return
		case <-tick.C:
			if err := e.refreshCatalog(); err != nil {
				slog.Error("catalog reload failed; it is retried at the next interval", "err", err)
				continue
			}
			e.resumeBackfills()
		}
	}
}

// catalogRecord is one catalog record as read.
type catalogRecord struct {
	meta tableMeta
	raw  []byte
}

// refreshCatalog brings the cache to the stored catalog: new tables
// added, changed ones published, deleted ones dropped. A table this node
// is restoring is not in the stored catalog's served set yet; it keeps
// its own.
func (e *Engine) refreshCatalog() error {
	if !e.db.Shared() {
		return nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.refreshLocked()
}

// refreshLocked is refreshCatalog for callers that hold e.mu, which is
// held across the read too: a change this node makes meanwhile would
// otherwise look like one deleted elsewhere.
func (e *Engine) refreshLocked() error {
	stored, err := e.readCatalog()
	if err != nil {
		return err
	}
	seq, _, err := e.db.Get(storage.SequenceKey())
	if err != nil {
		return err
	}
	for name, st := range stored {
		e.refreshTable(name, st)
	}
	for name, t := range e.tables {
		if _, ok := stored[name]; !ok && !t.meta.Restoring {
			e.dropCached(name, t)
		}
	}
	return e.setSequence(seq)
}

func (e *Engine) readCatalog() (map[string]catalogRecord, error) {
	lo, hi := storage.CatalogRange()
	stored := map[string]catalogRecord{}
	var bad error
	err := e.db.Scan(lo, hi, func(k, v []byte) bool {
		m, err := decodeTable(v)
		if err != nil {
			bad = err
			return false
		}
		stored[m.Desc.TableName] = catalogRecord{meta: m, raw: append([]byte(nil), v...)}
		return true
	})
	if bad != nil {
		return nil, bad
	}
	return stored, err
}

// refreshTable brings one cached table to its stored record. Callers
// hold e.mu.
func (e *Engine) refreshTable(name string, st catalogRecord) {
	cur := e.tables[name]
	if cur != nil && bytes.Equal(cur.raw, st.raw) {
		return
	}
	if st.meta.Restoring {
		return // another node's restore: not served until it finishes
	}
	upgradeThroughput(&st.meta.Desc)
	e.rebaseArns(&st.meta.Desc)
	if cur != nil && cur.meta.ID == st.meta.ID {
		cur.alive.Lock()
		e.tables[name] = newTable(st.meta, cur.alive, st.raw)
		cur.alive.Unlock()
		return
	}
	if cur != nil {
		e.dropCached(name, cur)
	}
	e.tables[name] = newTable(st.meta, new(lifecycle), st.raw)
}

// dropCached forgets a table another node deleted; a writer waiting on
// it finds it dropped. Callers hold e.mu.
func (e *Engine) dropCached(name string, t *table) {
	t.alive.Lock()
	t.alive.dropped = true
	t.alive.Unlock()
	delete(e.tables, name)
}

// setSequence records the stored id sequence (nil: none yet). Callers
// hold e.mu.
func (e *Engine) setSequence(v []byte) error {
	e.seqRaw = v
	if v == nil {
		return nil
	}
	return json.Unmarshal(v, &e.lastID)
}

// guardSequence makes b commit only if the id sequence is as this node
// last read it.
func (e *Engine) guardSequence(b *storage.Batch) {
	b.Guard(storage.SequenceKey(), e.seqRaw != nil, e.seqRaw)
}

// staleCatalog answers a catalog change that lost to another node's: it
// changed nothing, and the catalog is reloaded before the client's retry
// (in the background, since the caller holds e.mu).
func (e *Engine) staleCatalog(err error) error {
	if !errors.Is(err, storage.ErrConflict) {
		return err
	}
	go func() {
		if rerr := e.refreshCatalog(); rerr != nil {
			slog.Error("catalog reload failed", "err", rerr)
		}
	}()
	return apierr.New(apierr.InternalServerError, msgCatalogRace)
}

// msgCatalogRace is a catalog change's answer when another node changed
// the same table, or created one, at the same moment: a 500, which SDKs
// retry, by then against the reloaded catalog.
const msgCatalogRace = "The table's definition was changed by another request at the same time; retry"

// freshCatalog reloads the catalog on a shared store, for a request that
// describes tables: what another node changed is seen at the next such
// request, as it is on one node.
func (e *Engine) freshCatalog() {
	if err := e.refreshCatalog(); err != nil {
		slog.Error("catalog reload failed", "err", err)
	}
}

// missing is lookup's second chance on a shared store: a table this node
// does not know may be another node's new one. Callers do not hold e.mu.
func (e *Engine) missing(name string) *table {
	if !e.db.Shared() {
		return nil
	}
	e.freshCatalog()
	return e.lookup(name)
}

// missingLocked is missing for callers that hold e.mu.
func (e *Engine) missingLocked(name string) *table {
	if !e.db.Shared() {
		return nil
	}
	if err := e.refreshLocked(); err != nil {
		slog.Error("catalog reload failed", "err", err)
	}
	return e.tables[name]
}
