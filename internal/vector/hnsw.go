package vector

import (
	"math"
	"slices"
)

// The graph works on a cost where lower is always closer: cosine
// distance, squared L2 (same order as L2, no square root per step) and
// the negated dot product, from a fast single-precision dot product. A
// search then scores its candidates exactly (Score), so ANN and exact
// results agree on scores and order.

// query is a vector with the metric to measure it by and what every cost
// computation reuses.
type query struct {
	v      []float32
	norm   float64
	metric Distance
}

func (x *Index) newQuery(v []float32, metric Distance) query {
	return query{v: v, norm: norm(v), metric: metric}
}

// graphMetric is the metric the graph's links are chosen by. For dot
// product it is L2: the dot product is not a distance (a vector need not
// be its own best match), so a graph linked by it funnels every walk to a
// few long vectors and strands the rest (recall@10 was 0.70 in our test).
// A graph of L2 neighbourhoods, walked by the dot product, keeps the walk
// local to the query's direction.
func (x *Index) graphMetric() Distance {
	if x.d == DotProduct {
		return Euclidean
	}
	return x.d
}

// cost ranks node n for q. Squared L2 is |q|² + |v|² − 2q·v, so every
// metric costs one fast dot product; rounding can make it a hair
// negative for a vector's own copy, hence the clamp.
func (x *Index) cost(q query, n int32) float64 {
	d := fastDot(q.v, x.vec(n))
	switch q.metric {
	case Cosine:
		return cosineDistance(d, q.norm, x.norms[n])
	case Euclidean:
		return max(0, q.norm*q.norm+x.norms[n]*x.norms[n]-2*d)
	default:
		return -d
	}
}

// randomLayer draws floor(-ln(U)·mL), U uniform in (0, 1].
func (x *Index) randomLayer() int {
	return int(-math.Log(1-x.rng.Float64()) * x.levelMul)
}

// insert adds a node for id (not currently live); the caller holds mu.
func (x *Index) insert(id uint64, vec []float32) {
	n, layer := x.appendNode(id, vec)
	x.link(n, layer, x.find(n, layer))
}

// appendNode stores a node for id, not yet linked, and draws its layer.
func (x *Index) appendNode(id uint64, vec []float32) (int32, int) {
	n := int32(len(x.ids))
	x.ids = append(x.ids, id)
	x.vecs = append(x.vecs, vec...)
	x.dead = append(x.dead, false)
	x.norms = append(x.norms, norm(vec))
	x.byID[id] = n
	layer := x.randomLayer()
	x.links = append(x.links, newLinks(layer))
	return n, layer
}

func newLinks(layer int) [][]int32 {
	l := make([][]int32, layer+1)
	for i := range l {
		l[i] = make([]int32, 0, linkCap(i)+1)
	}
	return l
}

func linkCap(layer int) int {
	if layer == 0 {
		return maxLinks0
	}
	return maxLinks
}

// find is the candidate neighbours of node n on layers 0..min(layer,
// top), closest first. It only reads the graph, so the nodes of a wave
// (insertWave) are found in parallel.
func (x *Index) find(n int32, layer int) [][]cand {
	if x.entry < 0 {
		return nil
	}
	q := x.newQuery(x.vec(n), x.graphMetric())
	ep := x.descend(q, layer)
	found := make([][]cand, min(layer, x.top)+1)
	for l := len(found) - 1; l >= 0; l-- {
		found[l] = x.searchLayer(q, ep, efConstruction, l, nil)
		ep = found[l][0].node
	}
	return found
}

// link joins node n to the neighbours find chose, and makes it the entry
// when it reaches above the top layer (or the graph was empty).
func (x *Index) link(n int32, layer int, found [][]cand) {
	for l, w := range found {
		nbrs := x.selectNeighbors(n, w, maxLinks)
		x.links[n][l] = append(x.links[n][l], nbrs...)
		for _, m := range nbrs {
			x.linkBack(m, n, l)
		}
	}
	if x.entry < 0 || layer > x.top {
		x.entry, x.top = n, layer
	}
}

// descend walks greedily from the entry down to layer+1 and returns the
// node closest to q found there.
func (x *Index) descend(q query, layer int) int32 {
	ep := x.entry
	best := x.cost(q, ep)
	for l := x.top; l > layer; l-- {
		for changed := true; changed; {
			changed = false
			for _, m := range x.links[ep][l] {
				if c := x.cost(q, m); c < best {
					ep, best, changed = m, c, true
				}
			}
		}
	}
	return ep
}

// selectNeighbors is the HNSW paper's heuristic (algorithm 4): take a
// candidate only if it is closer to the base than to every neighbour
// already taken. Spreading links across directions is what keeps
// clustered data connected; plain nearest-M links strand clusters.
// Dead candidates are skipped so new links point at live nodes.
func (x *Index) selectNeighbors(base int32, w []cand, m int) []int32 {
	out := make([]int32, 0, m)
	for _, c := range w {
		if len(out) == m {
			break
		}
		if c.node == base || x.dead[c.node] {
			continue
		}
		if x.diverse(c, out) {
			out = append(out, c.node)
		}
	}
	return out
}

func (x *Index) diverse(c cand, taken []int32) bool {
	q := x.nodeQuery(c.node)
	for _, s := range taken {
		if x.cost(q, s) < c.cost {
			return false
		}
	}
	return true
}

func (x *Index) nodeQuery(n int32) query {
	return query{v: x.vec(n), norm: x.norms[n], metric: x.graphMetric()}
}

// linkBack adds n to m's links on layer l, re-selecting m's links with
// the heuristic when they overflow.
func (x *Index) linkBack(m, n int32, l int) {
	links := append(x.links[m][l], n)
	if len(links) <= linkCap(l) {
		x.links[m][l] = links
		return
	}
	q := x.nodeQuery(m)
	w := make([]cand, len(links))
	for i, o := range links {
		w[i] = cand{cost: x.cost(q, o), node: o}
	}
	slices.SortFunc(w, cmpCand)
	x.links[m][l] = append(links[:0], x.selectNeighbors(m, w, linkCap(l))...)
}

// annSearch walks the graph; the caller holds mu for reading.
func (x *Index) annSearch(v []float32, k int, filter func(uint64) bool) []Hit {
	q := x.newQuery(v, x.d)
	ep := x.descend(q, 0)
	accept := func(n int32) bool { return !x.dead[n] && (filter == nil || filter(x.ids[n])) }
	w := x.searchLayer(q, ep, x.searchEf(k), 0, accept)
	return x.rescore(v, k, w)
}

// rescore is the k best of the walk's candidates by their exact score.
// The walk's single-precision costs can swap near ties; all ef
// candidates are rescored (ef ≥ 4k, a few hundred float64 dot products)
// so the order returned is Exact's order.
func (x *Index) rescore(v []float32, k int, w []cand) []Hit {
	h := &hitHeap{d: x.d}
	for _, c := range w {
		h.offer(Hit{ID: x.ids[c.node], Score: Score(x.d, v, x.vec(c.node))}, k)
	}
	return h.sorted()
}

// searchEf is how many candidates a search keeps: max(64, 4k), times
// (n/100,000)^(2/3) above 100,000 live vectors, doubled for dot product,
// whose walk on an L2 graph needs a wider beam (recall@10 on 5,000
// clustered 32-dim vectors: 0.92 at 64, 0.96 at 128). A fixed width
// loses recall as the graph grows: on 1,000,000 isotropic clustered
// 128-dim vectors (BenchmarkScale), recall@10 was 0.79 at 64, 0.91 at
// 128, 0.97 at 256 and 0.99 at 512, where 100,000 reach 0.99 at 64.
func (x *Index) searchEf(k int) int {
	if x.ef > 0 {
		return max(x.ef, k)
	}
	ef := max(minSearchEf, 4*k)
	if n := len(x.byID); n > efGrowsFrom {
		r := float64(n) / efGrowsFrom
		ef = int(float64(ef) * math.Cbrt(r*r))
	}
	if x.d == DotProduct {
		return 2 * ef
	}
	return ef
}

// searchLayer is the HNSW paper's algorithm 2 with a filter: every node
// reached is a stepping stone, but only accepted ones (accept nil accepts
// all) enter the ef best results. Until ef nodes are accepted the walk
// has no bound, so a filter that matches little degrades to a full walk
// of the reachable graph rather than returning too few hits. The result
// is sorted closest first.
func (x *Index) searchLayer(q query, ep int32, ef, l int, accept func(int32) bool) []cand {
	seen := x.getVisits()
	defer x.visits.Put(seen)
	seen.mark(ep)
	start := cand{cost: x.cost(q, ep), node: ep}
	todo := candHeap{}
	todo.push(start)
	best := candHeap{worstFirst: true}
	if accept == nil || accept(ep) {
		best.push(start)
	}
	for len(todo.a) > 0 {
		c := todo.pop()
		if len(best.a) >= ef && c.cost > best.top().cost {
			break
		}
		for _, m := range x.links[c.node][l] {
			if !seen.mark(m) {
				continue
			}
			mc := cand{cost: x.cost(q, m), node: m}
			if len(best.a) >= ef && mc.cost >= best.top().cost {
				continue
			}
			todo.push(mc)
			if accept == nil || accept(m) {
				best.push(mc)
				if len(best.a) > ef {
					best.pop()
				}
			}
		}
	}
	slices.SortFunc(best.a, cmpCand)
	return best.a
}
