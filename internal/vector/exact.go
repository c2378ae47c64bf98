package vector

import (
	"container/heap"
	"iter"
	"slices"
)

// Hit is one search result.
type Hit struct {
	ID    uint64
	Score float32
}

// Exact returns the k candidates closest to q under d, best first, among
// those the filter accepts (a nil filter accepts all). Equal scores are
// ordered by ascending id, so the result does not depend on the order the
// candidates arrive in. It keeps a bounded heap of k hits: memory is O(k)
// however many candidates there are.
func Exact(q []float32, k int, d Distance, candidates iter.Seq2[uint64, []float32], filter func(id uint64) bool) []Hit {
	if k <= 0 {
		return nil
	}
	h := &hitHeap{d: d}
	for id, v := range candidates {
		if filter != nil && !filter(id) {
			continue
		}
		h.offer(Hit{ID: id, Score: Score(d, q, v)}, k)
	}
	return h.sorted()
}

// hitHeap is a max-heap on "worse": its root is the hit to drop first.
type hitHeap struct {
	d    Distance
	hits []Hit
}

// better orders hits best first: by score, then by ascending id.
func better(d Distance, a, b Hit) bool {
	if a.Score != b.Score {
		return Closer(d, a.Score, b.Score)
	}
	return a.ID < b.ID
}

func (h *hitHeap) Len() int           { return len(h.hits) }
func (h *hitHeap) Less(i, j int) bool { return better(h.d, h.hits[j], h.hits[i]) }
func (h *hitHeap) Swap(i, j int)      { h.hits[i], h.hits[j] = h.hits[j], h.hits[i] }
func (h *hitHeap) Push(x any)         { h.hits = append(h.hits, x.(Hit)) }
func (h *hitHeap) Pop() any {
	x := h.hits[len(h.hits)-1]
	h.hits = h.hits[:len(h.hits)-1]
	return x
}

// offer keeps hit if it is among the k best seen so far. It returns the
// hit no longer kept (hit itself when it is not good enough), if any.
func (h *hitHeap) offer(hit Hit, k int) (Hit, bool) {
	if len(h.hits) < k {
		heap.Push(h, hit)
		return Hit{}, false
	}
	if !better(h.d, hit, h.hits[0]) {
		return hit, true
	}
	out := h.hits[0]
	h.hits[0] = hit
	heap.Fix(h, 0)
	return out, true
}

// Top keeps the k best of the hits offered to it, for a caller that
// holds something per kept hit (a search's items) and must let go of
// what falls out.
type Top struct {
	h hitHeap
	k int
}

// NewTop keeps the k best hits under d.
func NewTop(d Distance, k int) *Top { return &Top{h: hitHeap{d: d}, k: k} }

// Offer considers hit; it returns the hit dropped, if one was.
func (t *Top) Offer(hit Hit) (Hit, bool) { return t.h.offer(hit, t.k) }

// Hits is the hits kept, best first.
func (t *Top) Hits() []Hit { return t.h.sorted() }

func (h *hitHeap) sorted() []Hit {
	sortHits(h.d, h.hits)
	return h.hits
}

func sortHits(d Distance, hits []Hit) {
	slices.SortFunc(hits, func(a, b Hit) int {
		switch {
		case better(d, a, b):
			return -1
		case better(d, b, a):
			return 1
		}
		return 0
	})
}
