package engine

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/bits"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/expr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/storage"
	"github.com/sortkeydb/sortkey/internal/validate"
	"github.com/sortkeydb/sortkey/internal/vector"
)

// SearchVectors finds the TopK entries of a vector index nearest to the
// search vector, among those its SearchConditionExpression accepts, best
// first. It reads the index's entries (one HASH partition's when the
// index has a HASH key) and scores each exactly: the answer is the true
// top K, never an approximation, and holds on every store and node.
func (e *Engine) SearchVectors(_ context.Context, in *protocol.SearchVectorsInput) (*protocol.SearchVectorsOutput, error) {
	if err := validate.SearchVectors(in); err != nil {
		return nil, err
	}
	s, err := e.planSearch(in)
	if err != nil {
		return nil, err
	}
	return e.runSearch(s)
}

// search is a SearchVectors request resolved against its index.
type search struct {
	t       *table
	ix      *indexSchema
	q       []float32
	k       int
	cond    *vector.Condition
	proj    expr.Projection
	capMode *string
}

// msgSearchBackfilling is the documented refusal of a search of an index
// still being built from the table's items.
const (
	msgSearchBackfilling = "Cannot search backfilling vector index: %s"
	msgSearchNoIndex     = "The table does not have the specified index: %s"
	msgSearchVector      = "One or more parameter values were invalid: Invalid SearchVector: %s"
	msgSearchProjection  = "One or more parameter values were invalid: ProjectionExpression names %s, which vector index %s does not project"
)

// planSearch parses the request's expressions (unused names and values
// are refused before the table is looked at, as for a Query), then
// resolves the table and index and checks the request against them.
func (e *Engine) planSearch(in *protocol.SearchVectorsInput) (*search, error) {
	attrs := expr.NewAttrs(in.ExpressionAttributeNames, in.ExpressionAttributeValues)
	tree, err := vector.ParseTree(attrs, in.SearchConditionExpression)
	if err != nil {
		return nil, err
	}
	s := &search{k: int(*in.TopK), capMode: in.ReturnConsumedCapacity}
	if in.ProjectionExpression != nil {
		if s.proj, err = attrs.ParseProjection(*in.ProjectionExpression); err != nil {
			return nil, err
		}
	}
	if err := attrs.CheckUnused(); err != nil {
		return nil, err
	}
	if s.t, s.ix, err = e.vectorIndex(*in.TableName, *in.IndexName); err != nil {
		return nil, err
	}
	if s.cond, err = vector.CheckTree(tree, s.ix.vec.searchSchema()); err != nil {
		return nil, err
	}
	if err := s.checkProjection(); err != nil {
		return nil, err
	}
	return s, s.readQuery(in.SearchVector)
}

// vectorIndex finds a table's vector index, refreshing a shared catalog
// once when it is not found or not ready: another node may have added it
// or finished its backfill.
func (e *Engine) vectorIndex(tableRef, name string) (*table, *indexSchema, error) {
	t, err := e.itemTable(tableRef)
	if err != nil {
		return nil, nil, err
	}
	ix, err := searchable(t, name)
	if err != nil && e.db.Shared() {
		e.freshCatalog()
		t = t.alive.current.Load()
		ix, err = searchable(t, name)
	}
	if err == nil && e.indexCreating(t, name) {
		err = apierr.Validationf(msgSearchBackfilling, name)
	}
	return t, ix, err
}

func searchable(t *table, name string) (*indexSchema, error) {
	for i := range t.indexes {
		ix := &t.indexes[i]
		if ix.name != name || ix.vec == nil {
			continue
		}
		if ix.backfilling {
			return nil, apierr.Validationf(msgSearchBackfilling, name)
		}
		return ix, nil
	}
	return nil, apierr.Validationf(msgSearchNoIndex, name)
}

// readQuery reads the search vector as the index reads its vectors.
func (s *search) readQuery(v []attr.Value) error {
	q, err := vector.FromAttribute(attr.Value{L: v}, s.ix.vec.dims)
	if err != nil {
		return apierr.Validationf(msgSearchVector, trimVectorPrefix(err))
	}
	s.q = q
	return nil
}

// checkProjection refuses a ProjectionExpression naming an attribute the
// index does not hold: a search reads the index only.
func (s *search) checkProjection() error {
	if s.ix.projType == "ALL" {
		return nil
	}
	for _, p := range s.proj {
		if n := p[0].Name; !s.t.isKeyAttr(s.ix, n) && !s.ix.include[n] {
			return apierr.Validationf(msgSearchProjection, n, s.ix.name)
		}
	}
	return nil
}

// searchRange is the entries the search reads: the HASH value's partition,
// or the whole index.
func (s *search) searchRange() (lo, hi []byte) {
	if h := s.cond.HashValue(); h != nil {
		lo = storage.AppendItemKey(nil, s.t.meta.ID, s.ix.id, attr.AppendKey(nil, h))
		return lo, storage.PrefixEnd(lo)
	}
	return s.t.indexRange(s.ix)
}

// scored is what a search keeps per candidate still in its top K: the
// encoding of its item, decoded only if it ends in the answer.
type scored struct {
	top    *vector.Top
	scorer vector.Scorer
	buf    []float32
	items  map[uint64][]byte
	seen   uint64
	err    error
}

// runSearch reads and scores the entries. A search uses no read capacity
// (DynamoDB meters it in vector bytes apart), so the throughput limits do
// not admit it.
func (e *Engine) runSearch(s *search) (*protocol.SearchVectorsOutput, error) {
	if a := e.graph(s.t, s.ix); a != nil {
		return s.fromGraph(e, a)
	}
	return e.exactSearch(s)
}

// exactSearch answers a search from the index's entries in the store.
func (e *Engine) exactSearch(s *search) (*protocol.SearchVectorsOutput, error) {
	lo, hi := s.searchRange()
	sc := &scored{top: vector.NewTop(s.ix.vec.distance, s.k), scorer: vector.NewScorer(s.ix.vec.distance, s.q),
		buf: make([]float32, 0, s.ix.vec.dims), items: map[uint64][]byte{}}
	p := &readPlan{t: s.t, ix: s.ix, lo: lo, hi: hi, asOf: e.asOf(s.ix, false)}
	if err := e.scanPlan(p, func(_, v []byte) bool { return s.visit(sc, v) }); err != nil {
		return nil, err
	}
	if sc.err != nil {
		return nil, sc.err
	}
	return s.output(sc)
}

// visit scores one index entry the condition accepts. Entries are read in
// key order, and equal scores rank by that order. The item is decoded
// here only when the condition filters on its attributes.
func (s *search) visit(sc *scored, v []byte) bool {
	vec, enc, ok := vector.ReadBinary(sc.buf, v, s.ix.vec.dims)
	if !ok {
		sc.err = errBadEntry
		return false
	}
	sc.seen++
	if s.cond.Filters() {
		it, err := attr.DecodeItem(enc)
		if err != nil {
			sc.err = err
			return false
		}
		if !s.cond.Match(it) {
			return true
		}
	}
	hit := vector.Hit{ID: sc.seen, Score: sc.scorer.Score(vec)}
	out, dropped := sc.top.Offer(hit)
	if !dropped || out.ID != hit.ID {
		sc.items[hit.ID] = bytes.Clone(enc)
	}
	if dropped {
		delete(sc.items, out.ID)
	}
	return true
}

// errBadEntry is a vector index entry too short for its vector: storage
// damaged, or written by another layout.
var errBadEntry = errors.New("vector index entry shorter than its vector")

// maxSearchResponse is DynamoDB's cap on a SearchVectors response: results
// past it are left out (there is no next page to hold them).
const maxSearchResponse = 16 << 20

func (s *search) output(sc *scored) (*protocol.SearchVectorsOutput, error) {
	out := &protocol.SearchVectorsOutput{SearchResults: []protocol.SearchResultItem{}}
	size := 0
	for _, h := range sc.top.Hits() {
		it, err := attr.DecodeItem(sc.items[h.ID])
		if err != nil {
			return nil, err
		}
		if s.proj != nil {
			it = expr.Project(it, s.proj)
		}
		if size += it.Size(); size > maxSearchResponse {
			break
		}
		out.SearchResults = append(out.SearchResults, protocol.SearchResultItem{Item: it, Score: float64(h.Score)})
	}
	if s.capMode != nil && *s.capMode != "NONE" {
		b := s.requestBytes(sc.seen, size)
		out.ConsumedCapacity = &protocol.VectorCapacity{VectorSearchRequestBytes: &b}
	}
	return out, nil
}

// requestBytes is sortkey's VectorSearchRequestBytes. DynamoDB publishes no
// formula, only that the figure grows with the dimensions, TopK and what is
// returned, and about logarithmically with the items searched: here the
// float32 vector data of TopK plus log2(entries) candidates, plus the
// bytes returned.
func (s *search) requestBytes(entries uint64, returned int) float64 {
	depth := bits.Len64(entries)
	return math.Round(float64(4*s.ix.vec.dims*(s.k+depth) + returned))
}

func trimVectorPrefix(err error) string {
	const prefix = "vector: "
	msg := err.Error()
	if len(msg) >= len(prefix) && msg[:len(prefix)] == prefix {
		return msg[len(prefix):]
	}
	return msg
}
