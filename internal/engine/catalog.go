package engine

import (
	"errors"
	"fmt"
	"github.com/sortkeydb/sortkey/internal/auth/access"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/storage"
)

// tableMeta is what the catalog stores for a table. The description holds
// everything DescribeTable returns except the live counts, which come from
// the stats keys.
type tableMeta struct {
	ID      uint64                    `json:"id"`
	Desc    protocol.TableDescription `json:"desc"`
	Tags    []protocol.Tag            `json:"tags,omitempty"`
	Indexes map[string]uint16         `json:"indexes,omitempty"`
	// LastIndex is the last index id issued. Ids are never reused, so a
	// backfill that outlives its index cannot fill a successor.
	LastIndex uint16 `json:"lastIndex,omitempty"`
	// TTL is the table's Time to Live setting; nil if never set.
	TTL *ttlConfig `json:"ttl,omitempty"`
	// Streams is every stream the table has had, oldest first; the last is
	// enabled unless it is closed.
	Streams []streamMeta `json:"streams,omitempty"`
	// Policy is the table's resource-based policy, nil if none (see
	// policy.go).
	Policy *policyMeta `json:"policy,omitempty"`
	// Restoring marks a table whose restore has not finished loading (see
	// restore.go); PITR is its point-in-time recovery, nil if never on.
	Restoring bool      `json:"restoring,omitempty"`
	PITR      *pitrMeta `json:"pitr,omitempty"`
	// Global is the replication group of a replica of a global table
	// (replication.go); nil for a table of one region.
	Global *globalMeta `json:"global,omitempty"`
}

// table is a loaded table. Its meta and key are never modified once
// published: a change builds a new table and swaps it in under Engine.mu.
type table struct {
	meta    tableMeta
	key     keySchema
	indexes []indexSchema
	// alive outlives updates of meta: every version of a table shares it.
	alive *lifecycle
	// raw is this version's stored record (nil until stored); writes on
	// a shared store guard it by its key and digest (catalogshare.go),
	// digested once here rather than by every write.
	raw       []byte
	defKey    []byte
	defDigest string
	// authSchema is this version's keys as access control reads them,
	// built at the first request that needs them (see authcatalog.go).
	authSchema atomic.Pointer[access.Schema]
}

// lifecycle is held shared by every item write and exclusively by
// DeleteTable, so no write lands after the table's range is deleted;
// dropped tells a writer that waited that the table is gone.
type lifecycle struct {
	sync.RWMutex
	dropped bool
	// current is the table's latest published version; commits read it
	// under the shared lock (see Engine.commitAll).
	current atomic.Pointer[table]
	// seq numbers the table's stream records (see stream.go); hist its
	// history records on a shared store (pitr.go).
	seq, hist streamSeq
	// shown is the table's transient status, nil when it is ACTIVE (see
	// transient.go); stored under Engine.mu.
	shown atomic.Pointer[transient]
	// ttlDeleted counts the items the TTL sweeper deleted (backlog.go).
	ttlDeleted atomic.Uint64
}

type keyAttr struct {
	name string
	kind attr.Kind
}

type keySchema struct {
	hash keyAttr
	rng  keyAttr // rng.name is "" for a hash-only table
	// hashes and rngs are every key attribute in schema order: a GSI with
	// multi-attribute keys has up to four of each; hash and rng are their
	// first elements, which is all a table's or an LSI's key has.
	hashes, rngs []keyAttr
}

// has reports whether name is one of the key's attributes.
func (k *keySchema) has(name string) bool {
	for _, a := range k.hashes {
		if a.name == name {
			return true
		}
	}
	for _, a := range k.rngs {
		if a.name == name {
			return true
		}
	}
	return false
}

func newTable(meta tableMeta, alive *lifecycle, raw []byte) *table {
	t := &table{
		raw:     raw,
		meta:    meta,
		key:     schemaOf(meta.Desc.KeySchema, meta.Desc.AttributeDefinitions),
		indexes: indexSchemas(&meta),
		alive:   alive,
	}
	if raw != nil {
		t.defKey, t.defDigest = storage.CatalogKey(meta.Desc.TableName), storage.Digest(raw)
	}
	alive.current.Store(t)
	return t
}

// schemaOf resolves a key schema's names to their defined types.
func schemaOf(ks []protocol.KeySchemaElement, defs []protocol.AttributeDefinition) keySchema {
	types := map[string]attr.Kind{}
	for _, d := range defs {
		types[*d.AttributeName] = attr.KindOf(*d.AttributeType)
	}
	var s keySchema
	for _, k := range ks {
		a := keyAttr{name: *k.AttributeName, kind: types[*k.AttributeName]}
		if *k.KeyType == "HASH" {
			s.hashes = append(s.hashes, a)
		} else {
			s.rngs = append(s.rngs, a)
		}
	}
	if len(s.hashes) > 0 {
		s.hash = s.hashes[0]
	}
	if len(s.rngs) > 0 {
		s.rng = s.rngs[0]
	}
	return s
}

// loadCatalog reads every table definition and the id sequence.
func (e *Engine) loadCatalog() error {
	lo, hi := storage.CatalogRange()
	var stored []catalogRecord
	var bad error
	err := e.db.Scan(lo, hi, func(k, v []byte) bool {
		m, err := decodeTable(v)
		if err != nil {
			bad = fmt.Errorf("table definition %q: %w", k[1:], err)
		}
		stored = append(stored, catalogRecord{meta: m, raw: append([]byte(nil), v...)})
		return bad == nil
	})
	if err != nil || bad != nil {
		return errors.Join(err, bad)
	}
	for _, st := range stored {
		m := st.meta
		if m.Restoring {
			if e.db.Shared() {
				continue // the restore may be another node's, alive
			}
			if err := e.dropRestoring(&m); err != nil {
				return err
			}
			continue
		}
		upgradeThroughput(&m.Desc)
		e.rebaseArns(&m.Desc)
		e.tables[m.Desc.TableName] = newTable(m, new(lifecycle), st.raw)
	}
	return e.loadSequence()
}

func (e *Engine) loadSequence() error {
	v, _, err := e.db.Get(storage.SequenceKey())
	if err != nil {
		return err
	}
	return e.setSequence(v)
}

// putMeta records a table definition in b, in the catalog's stored format
// (catalogformat.go). Callers hold e.mu.
func putMeta(b *storage.Batch, m *tableMeta) ([]byte, error) {
	v, err := encodeTable(m)
	if err != nil {
		return nil, err
	}
	b.Set(storage.CatalogKey(m.Desc.TableName), v)
	return v, nil
}

// lookup returns the named table, or nil.
func (e *Engine) lookup(name string) *table {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.tables[name]
}

// itemTable returns the table a data-plane request names, with DynamoDB's
// error for a table that does not exist.
func (e *Engine) itemTable(ref string) (*table, error) {
	name, err := e.resolveName(ref)
	if err != nil {
		return nil, err
	}
	t := e.lookup(name)
	if t == nil {
		t = e.missing(name)
	}
	if t == nil {
		return nil, apierr.New(apierr.ResourceNotFound, msgNotFound)
	}
	if err := e.usable(t); err != nil {
		return nil, err
	}
	return t, nil
}

// controlTable is itemTable for control-plane requests, whose message names
// the table.
func (e *Engine) controlTable(ref string) (*table, error) {
	name, err := e.resolveName(ref)
	if err != nil {
		return nil, err
	}
	e.freshCatalog()
	if t := e.lookup(name); t != nil {
		return t, nil
	}
	return nil, tableNotFound(name)
}

// lockedTable is controlTable for callers that hold e.mu.
func (e *Engine) lockedTable(ref string) (*table, error) {
	name, err := e.resolveName(ref)
	if err != nil {
		return nil, err
	}
	if t := e.tables[name]; t != nil {
		return t, nil
	}
	if t := e.missingLocked(name); t != nil {
		return t, nil
	}
	return nil, tableNotFound(name)
}

func tableNotFound(name string) error {
	return apierr.New(apierr.ResourceNotFound, msgNotFound+": Table: %s not found", name)
}

// tableNames lists the tables in name order, those still shown as
// DELETING included.
func (e *Engine) tableNames() []string {
	e.mu.RLock()
	names := make([]string, 0, len(e.tables))
	for n := range e.tables {
		names = append(names, n)
	}
	for n := range e.deleting {
		if e.deletedDesc(n) != nil {
			names = append(names, n)
		}
	}
	e.mu.RUnlock()
	sort.Strings(names)
	return names
}
