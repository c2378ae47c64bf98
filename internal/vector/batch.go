package vector

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// A build adds vectors in waves: a wave's nodes are appended unlinked,
// their neighbours found in parallel against the graph as it was before
// the wave (find only reads), then linked one by one in order. A node
// does not see the others of its wave, so waves stay a small fraction of
// the graph (waveSize), and the first parallelFrom nodes go one at a
// time; the graph's quality is then that of one-by-one insertion (the
// recall tests run on both).
const parallelFrom = 2048

func waveSize(n int) int { return max(16, min(512, n/64)) }

// AddBatch adds vecs[i] under ids[i] for every i, as that many Adds
// would, using every core for the neighbour search. Nothing is added if
// any vector is refused.
func (x *Index) AddBatch(ids []uint64, vecs [][]float32) error {
	for _, v := range vecs {
		if err := x.check(v); err != nil {
			return err
		}
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, id := range ids {
		x.kill(id)
	}
	ids, vecs = lastOfEach(ids, vecs)
	x.insertAll(ids, vecs)
	x.maybeRebuild()
	return nil
}

// lastOfEach drops all but the last vector of an id given twice, as
// successive Adds would leave it.
func lastOfEach(ids []uint64, vecs [][]float32) ([]uint64, [][]float32) {
	last := make(map[uint64]int, len(ids))
	for i, id := range ids {
		last[id] = i
	}
	if len(last) == len(ids) {
		return ids, vecs
	}
	var keepIDs []uint64
	var keepVecs [][]float32
	for i, id := range ids {
		if last[id] == i {
			keepIDs, keepVecs = append(keepIDs, id), append(keepVecs, vecs[i])
		}
	}
	return keepIDs, keepVecs
}

// insertAll inserts ids (none live) in order; the caller holds mu.
func (x *Index) insertAll(ids []uint64, vecs [][]float32) {
	i := 0
	for ; i < len(ids) && len(x.ids) < parallelFrom; i++ {
		x.insert(ids[i], vecs[i])
	}
	for i < len(ids) {
		w := min(len(ids)-i, waveSize(len(x.ids)))
		x.insertWave(ids[i:i+w], vecs[i:i+w])
		i += w
	}
}

func (x *Index) insertWave(ids []uint64, vecs [][]float32) {
	nodes := make([]int32, len(ids))
	layers := make([]int, len(ids))
	for i := range ids {
		nodes[i], layers[i] = x.appendNode(ids[i], vecs[i])
	}
	found := make([][][]cand, len(ids))
	parallel(len(ids), func(i int) { found[i] = x.find(nodes[i], layers[i]) })
	for i, n := range nodes {
		x.link(n, layers[i], found[i])
	}
}

// parallel calls f(0..n-1) from one goroutine per core.
func parallel(n int, f func(int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(n, runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				f(i)
			}
		})
	}
	wg.Wait()
}
