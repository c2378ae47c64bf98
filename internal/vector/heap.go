package vector

// cand is a graph node and its cost to the query. The typed heap avoids
// container/heap's interface boxing in the search's innermost loop.
type cand struct {
	cost float64
	node int32
}

// before orders by cost, then node, so sorting is deterministic. Costs
// are never NaN, so plain comparisons suffice (cmp.Compare's NaN handling
// cost a tenth of the build time).
func before(a, b cand) bool {
	return a.cost < b.cost || (a.cost == b.cost && a.node < b.node)
}

func cmpCand(a, b cand) int {
	switch {
	case before(a, b):
		return -1
	case before(b, a):
		return 1
	}
	return 0
}

// candHeap is a min-heap on cost, or a max-heap when worstFirst.
type candHeap struct {
	a          []cand
	worstFirst bool
}

func (h *candHeap) less(i, j int) bool {
	if h.worstFirst {
		return before(h.a[j], h.a[i])
	}
	return before(h.a[i], h.a[j])
}

func (h *candHeap) top() cand { return h.a[0] }

func (h *candHeap) push(c cand) {
	h.a = append(h.a, c)
	for i := len(h.a) - 1; i > 0; {
		p := (i - 1) / 2
		if !h.less(i, p) {
			break
		}
		h.a[i], h.a[p] = h.a[p], h.a[i]
		i = p
	}
}

func (h *candHeap) pop() cand {
	top := h.a[0]
	last := len(h.a) - 1
	h.a[0] = h.a[last]
	h.a = h.a[:last]
	h.down(0)
	return top
}

func (h *candHeap) down(i int) {
	for {
		c := 2*i + 1
		if c >= len(h.a) {
			return
		}
		if c+1 < len(h.a) && h.less(c+1, c) {
			c++
		}
		if !h.less(c, i) {
			return
		}
		h.a[i], h.a[c] = h.a[c], h.a[i]
		i = c
	}
}

// visits marks nodes seen by one walk. Epochs make clearing O(1): a node
// is seen when its mark equals the current epoch.
type visits struct {
	marks []uint32
	epoch uint32
}

// mark reports whether n was unseen, marking it seen.
func (v *visits) mark(n int32) bool {
	if v.marks[n] == v.epoch {
		return false
	}
	v.marks[n] = v.epoch
	return true
}

// getVisits takes a cleared set from the pool, sized for every node;
// concurrent searches each get their own.
func (x *Index) getVisits() *visits {
	v, _ := x.visits.Get().(*visits)
	if v == nil {
		v = &visits{}
	}
	if len(v.marks) < len(x.ids) {
		v.marks = make([]uint32, len(x.ids)+len(x.ids)/4)
		v.epoch = 0
	}
	v.epoch++
	if v.epoch == 0 {
		clear(v.marks)
		v.epoch = 1
	}
	return v
}
