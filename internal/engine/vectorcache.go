package engine

import (
	"bytes"
	"cmp"
	"log/slog"
	"sync"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/vector"
)

// A vector index's entries are the truth; vectorCache keeps beside them,
// per vector index and per HASH partition, an in-memory HNSW graph
// (internal/vector) that answers searches without reading the store. It
// is built in the background on an index's first search (until then, and
// whenever it cannot be trusted, searches read the entries) and kept
// current by this process's writes, each applied to it once its batch is
// applied (storage.Batch.AfterApply), while the writer still holds the
// item's lock, so it follows the store in the store's order.
//
// It is used only when this process alone writes the store: on a store
// shared by several nodes, another node's write would not reach it, so
// searches there read the entries (exact, and current on every node). It
// is not used with index lag either, which the entries' reads apply.

// vectorCache maps a vector index (table id, index id) to its graphs.
type vectorCache struct {
	indexes sync.Map // vcKey -> *annIndex
}

type vcKey struct {
	table uint64
	index uint16
}

// annIndex is one vector index's graphs. mu guards everything: searches
// hold it shared, a write's change or the end of a build exclusively.
type annIndex struct {
	mu      sync.RWMutex
	spec    *vectorSpec
	ready   bool    // built: searches may use it
	pending []annOp // the changes applied while it was being built
	parts   map[string]*annPart
	where   map[string]annRef // by entry key
	nextID  uint64
}

// annRef is where an entry's vector is: its graph and id there.
type annRef struct {
	part *annPart
	id   uint64
}

// annPart is one HASH value's graph ("" for an index without HASH), with
// the entry key of each vector id and, for an index with INLINE_FILTER
// attributes, the entry's values of them, which a search's filter reads
// during the walk.
type annPart struct {
	graph *vector.Index
	keys  map[uint64][]byte
	attrs map[uint64]attr.Item
}

// annOp is one change of an entry: del, or set to vec.
type annOp struct {
	key   []byte
	part  string
	del   bool
	vec   []float32
	attrs attr.Item
}

// graphsUsable reports whether searches may use graphs: only this process
// writes the store, and reads do not lag.
func (e *Engine) graphsUsable() bool { return !e.db.Shared() && e.lag == nil }

// graph returns ix's graphs once built; on the first call it starts
// their build, and returns nil until it is done.
func (e *Engine) graph(t *table, ix *indexSchema) *annIndex {
	if !e.graphsUsable() {
		return nil
	}
	k := vcKey{t.meta.ID, ix.id}
	v, loaded := e.vectors.indexes.Load(k)
	if !loaded {
		v, loaded = e.vectors.indexes.LoadOrStore(k, &annIndex{spec: ix.vec, parts: map[string]*annPart{}, where: map[string]annRef{}})
	}
	a := v.(*annIndex)
	if !loaded {
		e.startGraphBuild(t, ix, a)
		return nil
	}
	a.mu.RLock()
	defer a.mu.RUnlock()
	if !a.ready {
		return nil
	}
	return a
}

// noteVectorChange arranges for b's change of an entry of ix (oldKey
// removed, newKey set from new, whose vector is vec; either key nil) to
// reach ix's graphs, if they exist, once b is applied.
func (e *Engine) noteVectorChange(b interface{ AfterApply(func()) }, t *table, ix *indexSchema, oldKey, newKey []byte, new attr.Item, vec []float32) {
	v, ok := e.vectors.indexes.Load(vcKey{t.meta.ID, ix.id})
	if !ok {
		return
	}
	a := v.(*annIndex)
	var ops []annOp
	if oldKey != nil && !bytes.Equal(oldKey, newKey) {
		ops = append(ops, annOp{key: oldKey, del: true})
	}
	if newKey != nil {
		ops = append(ops, a.setOp(newKey, new, vec))
	}
	b.AfterApply(func() { a.apply(ops) })
}

// setOp is the change that sets key's entry from item it, whose vector is
// vec.
func (a *annIndex) setOp(key []byte, it attr.Item, vec []float32) annOp {
	op := annOp{key: key, vec: vec, part: a.partOf(it)}
	if len(a.spec.filters) > 0 {
		op.attrs = attr.Item{}
		for _, f := range append([]string{a.spec.hash}, a.spec.filters...) {
			if v, ok := it[f]; ok {
				op.attrs[f] = v
			}
		}
	}
	return op
}

// partOf is the graph an item's entry belongs to: its HASH value's key.
func (a *annIndex) partOf(it attr.Item) string {
	if a.spec.hash == "" {
		return ""
	}
	v := it[a.spec.hash]
	return string(attr.AppendKey(nil, &v))
}

// apply makes ops, or, while the graphs are being built, queues them.
func (a *annIndex) apply(ops []annOp) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.ready {
		a.pending = append(a.pending, ops...)
		return
	}
	for _, op := range ops {
		a.change(op)
	}
}

// change applies one op; the caller holds mu or is the only user.
func (a *annIndex) change(op annOp) {
	a.remove(op.key)
	if op.del {
		return
	}
	p, id := a.place(op)
	if err := p.graph.Add(id, op.vec); err != nil {
		slog.Error("vector graph refused a vector the index holds", "err", err)
		a.remove(op.key)
	}
}

// place gives op's entry an id in its partition's graph (made if new),
// recording where it is; the caller adds the vector under that id.
func (a *annIndex) place(op annOp) (*annPart, uint64) {
	p := a.parts[op.part]
	if p == nil {
		g, _ := vector.NewIndex(a.spec.distance, a.spec.dims, uint64(len(a.parts))+1) // dims >= 1: validated
		p = &annPart{graph: g, keys: map[uint64][]byte{}, attrs: map[uint64]attr.Item{}}
		a.parts[op.part] = p
	}
	a.nextID++
	id := a.nextID
	a.where[string(op.key)], p.keys[id] = annRef{p, id}, op.key
	if op.attrs != nil {
		p.attrs[id] = op.attrs
	}
	return p, id
}

// addAll adds a build page's entries (distinct keys, none in the graphs
// yet), each partition's in one AddBatch, which finds neighbours on
// every core.
func (a *annIndex) addAll(ops []annOp) error {
	type batch struct {
		ids  []uint64
		vecs [][]float32
	}
	batches := map[*annPart]*batch{}
	for _, op := range ops {
		p, id := a.place(op)
		b := batches[p]
		if b == nil {
			b = &batch{}
			batches[p] = b
		}
		b.ids, b.vecs = append(b.ids, id), append(b.vecs, op.vec)
	}
	for p, b := range batches {
		if err := p.graph.AddBatch(b.ids, b.vecs); err != nil {
			return err
		}
	}
	return nil
}

// remove takes key's entry out of the graph that holds it.
func (a *annIndex) remove(key []byte) {
	r, ok := a.where[string(key)]
	if !ok {
		return
	}
	r.part.graph.Delete(r.id)
	delete(r.part.keys, r.id)
	delete(r.part.attrs, r.id)
	delete(a.where, string(key))
}

// dropGraphs forgets the graphs of table tableID's indexes ids, deleted.
func (e *Engine) dropGraphs(tableID uint64, ids ...uint16) {
	for _, id := range ids {
		e.vectors.indexes.Delete(vcKey{tableID, id})
	}
}

// graphPage is how many entries a build reads per scan, so that it never
// holds an iterator long.
const graphPage = 512

func (e *Engine) startGraphBuild(t *table, ix *indexSchema, a *annIndex) {
	e.bg.Add(1)
	go func() {
		defer e.bg.Done()
		if err := e.buildGraph(t, ix, a); err != nil {
			slog.Error("vector graph build failed; searches read the index entries", "index", ix.name, "err", err)
			e.dropGraphs(t.meta.ID, ix.id) // the next search starts another
		}
	}()
}

// buildGraph adds every entry of ix to a, a page at a time, then the
// changes writers queued meanwhile, in their order, and marks a ready.
// An entry a write changed after the scan read it is read again from the
// queue, so the graphs end as the store is.
func (e *Engine) buildGraph(t *table, ix *indexSchema, a *annIndex) error {
	lo, hi := t.indexRange(ix)
	for lo != nil {
		if e.stopped() || t.alive.current.Load().indexByID(ix.id) == nil {
			return nil // closing, or the index is gone: nothing to serve
		}
		var err error
		if lo, err = e.buildPage(a, lo, hi); err != nil {
			return err
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, op := range a.pending {
		a.change(op)
	}
	a.pending, a.ready = nil, true
	return nil
}

// buildPage adds up to graphPage entries from lo on; it returns where the
// next page starts, nil after the last.
func (e *Engine) buildPage(a *annIndex, lo, hi []byte) ([]byte, error) {
	var ops []annOp
	var next []byte
	var bad error
	err := e.db.Scan(lo, hi, func(k, v []byte) bool {
		if len(ops) == graphPage {
			next = bytes.Clone(k)
			return false
		}
		op, err := a.entryOp(k, v)
		if err != nil {
			bad = err
			return false
		}
		ops = append(ops, op)
		return true
	})
	if err = cmp.Or(err, bad); err != nil {
		return nil, err
	}
	return next, a.addAll(ops)
}

// entryOp is the change that sets a stored entry (key k, value v).
func (a *annIndex) entryOp(k, v []byte) (annOp, error) {
	vec, rest, ok := vector.ReadBinary(nil, v, a.spec.dims)
	if !ok {
		return annOp{}, errBadEntry
	}
	op := annOp{key: bytes.Clone(k), vec: vec}
	if a.spec.hash == "" && len(a.spec.filters) == 0 {
		return op, nil
	}
	it, err := attr.DecodeItem(rest)
	if err != nil {
		return annOp{}, err
	}
	return a.setOp(op.key, it, vec), nil
}

func (e *Engine) stopped() bool {
	select {
	case <-e.closing:
		return true
	default:
		return false
	}
}

// fromGraph answers a search from a's graph of the search's partition:
// the nearest entries by the graph (exact below vector.ExactThreshold
// entries), the INLINE_FILTER condition applied during the walk, then
// each result's entry read from the store for its item. An entry deleted
// between the two is left out.
func (s *search) fromGraph(e *Engine, a *annIndex) (*protocol.SearchVectorsOutput, error) {
	hits, keys, size := s.walk(a)
	sc := &scored{top: vector.NewTop(s.ix.vec.distance, s.k), items: map[uint64][]byte{}, seen: uint64(size)}
	for i, h := range hits {
		v, ok, err := e.db.Get(keys[i])
		if err != nil {
			return nil, err
		}
		if _, enc, whole := vector.ReadBinary(nil, v, s.ix.vec.dims); ok && whole {
			sc.top.Offer(h)
			sc.items[h.ID] = enc
		}
	}
	return s.output(sc)
}

// walk searches the partition's graph under a's read lock, returning the
// hits, their entry keys and the partition's size.
func (s *search) walk(a *annIndex) ([]vector.Hit, [][]byte, int) {
	a.mu.RLock()
	defer a.mu.RUnlock()
	part := ""
	if h := s.cond.HashValue(); h != nil {
		part = string(attr.AppendKey(nil, h))
	}
	p := a.parts[part]
	if p == nil {
		return nil, nil, 0
	}
	var filter func(uint64) bool
	if s.cond.Filters() {
		filter = func(id uint64) bool { return s.cond.Match(p.attrs[id]) }
	}
	hits := p.graph.Search(s.q, s.k, filter)
	keys := make([][]byte, len(hits))
	for i, h := range hits {
		keys[i] = p.keys[h.ID]
	}
	return hits, keys, len(p.keys)
}
