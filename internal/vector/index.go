package vector

import (
	"errors"
	"iter"
	"math"
	"math/rand/v2"
	"sync"
)

// HNSW parameters: the values hnswlib and the HNSW paper recommend for
// 100–1,000 dimensional embeddings, fixed so behaviour is reproducible.
const (
	maxLinks       = 16           // M: links per node on the upper layers
	maxLinks0      = 2 * maxLinks // links per node on layer 0
	efConstruction = 200
	minSearchEf    = 64
	efGrowsFrom    = 100_000 // live vectors beyond which searchEf widens
	// ExactThreshold is the live-vector count below which Search scans
	// every vector: small indexes then give exactly Exact's answer, and a
	// scan of under a thousand vectors is as fast as a graph walk.
	ExactThreshold = 1024
)

const (
	msgIndexDimensions = "vector: index dimensions must be at least 1"
	msgAddDimensions   = "vector: vector length does not match the index dimensions"
	msgNotFinite       = "vector: vector elements must be finite"
)

var (
	errIndexDimensions = errors.New(msgIndexDimensions)
	errAddDimensions   = errors.New(msgAddDimensions)
	errNotFinite       = errors.New(msgNotFinite)
)

// Index is an approximate nearest-neighbour index (HNSW) of float32
// vectors keyed by uint64 ids. Any number of Searches may run at once;
// writers (Add, Delete) take turns and exclude searches while they run.
//
// Delete marks the node dead (a tombstone) instead of repairing the graph:
// dead nodes stay in the graph as stepping stones, so neighbourhoods stay
// connected, but are never returned, so a deleted id disappears from
// results at once. When dead nodes outnumber live ones the graph is
// rebuilt from the live vectors, which bounds the wasted memory and walk
// time at 2× and amortises the rebuild over at least as many deletes.
// The rebuild runs inside the Delete or Add that tips the balance, holding
// the write lock; at 100,000 vectors that is a pause of about a build.
type Index struct {
	mu       sync.RWMutex
	d        Distance
	dims     int
	pcg      *rand.PCG // rng's source, whose state WriteTo saves
	rng      *rand.Rand
	levelMul float64 // mL = 1/ln(M)

	vecs   []float32 // node n's vector is vecs[n*dims : (n+1)*dims]
	norms  []float64 // the norm of each node's vector
	ids    []uint64
	dead   []bool
	links  [][][]int32 // links[node][layer]
	byID   map[uint64]int32
	entry  int32 // -1 when the graph is empty
	top    int   // the entry node's layer
	nDead  int
	visits sync.Pool
	ef     int // a search's width when set (benchmarks measure recall by it)
}

// NewIndex returns an empty index; seed fixes the random layer choice, so
// the same writes in the same order build the same graph.
func NewIndex(d Distance, dims int, seed uint64) (*Index, error) {
	if dims < 1 {
		return nil, errIndexDimensions
	}
	if _, err := ParseDistance(d.String()); err != nil {
		return nil, err
	}
	x := &Index{d: d, dims: dims}
	x.setSource(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	x.levelMul = 1 / math.Log(maxLinks)
	x.reset()
	return x, nil
}

func (x *Index) setSource(pcg *rand.PCG) {
	x.pcg, x.rng = pcg, rand.New(pcg)
}

func (x *Index) reset() {
	x.vecs, x.norms, x.ids, x.dead, x.links = nil, nil, nil, nil, nil
	x.byID = map[uint64]int32{}
	x.entry, x.top, x.nDead = -1, 0, 0
}

// Contains reports whether id is live in the index.
func (x *Index) Contains(id uint64) bool {
	x.mu.RLock()
	defer x.mu.RUnlock()
	_, ok := x.byID[id]
	return ok
}

// Distance is the distance function the index ranks by.
func (x *Index) Distance() Distance { return x.d }

// Dims is the vector length the index takes.
func (x *Index) Dims() int { return x.dims }

// Len is the number of live vectors.
func (x *Index) Len() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return len(x.byID)
}

// Add inserts vec under id, replacing any vector id had. vec is copied.
func (x *Index) Add(id uint64, vec []float32) error {
	if err := x.check(vec); err != nil {
		return err
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.kill(id)
	x.insert(id, vec)
	x.maybeRebuild()
	return nil
}

// Delete removes id; it reports whether id was present.
func (x *Index) Delete(id uint64) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	ok := x.kill(id)
	x.maybeRebuild()
	return ok
}

func (x *Index) check(vec []float32) error {
	if len(vec) != x.dims {
		return errAddDimensions
	}
	for _, f := range vec {
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			return errNotFinite
		}
	}
	return nil
}

func (x *Index) kill(id uint64) bool {
	n, ok := x.byID[id]
	if !ok {
		return false
	}
	delete(x.byID, id)
	x.dead[n] = true
	x.nDead++
	return true
}

func (x *Index) maybeRebuild() {
	if x.nDead <= len(x.byID) {
		return
	}
	var ids []uint64
	var vecs [][]float32
	for id, v := range x.live() {
		ids, vecs = append(ids, id), append(vecs, v)
	}
	x.reset()
	x.insertAll(ids, vecs)
}

// live yields the live vectors in insertion order; the caller holds mu.
func (x *Index) live() iter.Seq2[uint64, []float32] {
	return func(yield func(uint64, []float32) bool) {
		for n := range x.ids {
			if !x.dead[n] && !yield(x.ids[n], x.vec(int32(n))) {
				return
			}
		}
	}
}

func (x *Index) vec(n int32) []float32 {
	i := int(n) * x.dims
	return x.vecs[i : i+x.dims : i+x.dims]
}

// Search returns up to k live vectors closest to q, best first, with
// DynamoDB's score. filter (nil accepts all) is applied during the walk:
// rejected nodes are still walked through but never returned, so a
// selective filter still yields k hits when k exist. A q of the wrong
// length matches nothing; callers check it against Dims first. filter
// runs under the index's read lock, so it must not call back into x.
func (x *Index) Search(q []float32, k int, filter func(id uint64) bool) []Hit {
	if len(q) != x.dims || k <= 0 {
		return nil
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	if len(x.byID) < ExactThreshold {
		return Exact(q, k, x.d, x.live(), filter)
	}
	return x.annSearch(q, k, filter)
}
