package vector

import (
	"runtime"
	"sync"
	"testing"
	"time"
)

// The benchmarks run at the scale of a real vector index: 100,000
// clustered 128-dim vectors under cosine. Data, index and exact answers
// are made once and shared, so `go test -bench . -benchtime 1x` pays for
// one build. They are not run by go test without -bench.
const (
	benchN       = 100_000
	benchDims    = 128
	benchQueries = 100
	benchK       = 10
)

var bench struct {
	once    sync.Once
	vecs    [][]float32
	queries [][]float32
	truth   [][]Hit // Exact's answer per query
	index   *Index
}

func benchSetup(b *testing.B) {
	bench.once.Do(func() {
		bench.vecs, bench.queries = split(benchN, benchQueries, benchDims, 100, 21)
		for _, q := range bench.queries {
			bench.truth = append(bench.truth, Exact(q, benchK, Cosine, all(bench.vecs), nil))
		}
		bench.index = buildIndex(b, Cosine, bench.vecs)
	})
}

func heapBytes() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func BenchmarkBuild(b *testing.B) {
	b.Run("one by one", func(b *testing.B) { benchBuild(b, buildIndex) })
	b.Run("in waves", func(b *testing.B) { benchBuild(b, buildBatch) })
}

func benchBuild(b *testing.B, build func(interface{ Fatal(...any) }, Distance, [][]float32) *Index) {
	benchSetup(b)
	var x *Index
	before := heapBytes()
	start := time.Now()
	for b.Loop() {
		x = build(b, Cosine, bench.vecs)
	}
	b.ReportMetric(float64(benchN*b.N)/time.Since(start).Seconds(), "vectors/s")
	b.ReportMetric(float64(heapBytes()-before)/benchN, "bytes/vector")
	runtime.KeepAlive(x)
}

func BenchmarkSearch(b *testing.B) {
	benchSetup(b)
	sum, n := 0.0, 0
	for b.Loop() {
		i := n % benchQueries
		sum += recall(bench.index.Search(bench.queries[i], benchK, nil), bench.truth[i])
		n++
	}
	b.ReportMetric(sum/float64(n), "recall@10")
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "searches/s")
}

func BenchmarkSearchFiltered(b *testing.B) {
	benchSetup(b)
	for b.Loop() {
		bench.index.Search(bench.queries[0], benchK, keep30)
	}
}

func BenchmarkExact(b *testing.B) {
	benchSetup(b)
	n := 0
	for b.Loop() {
		Exact(bench.queries[n%benchQueries], benchK, Cosine, all(bench.vecs), nil)
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "searches/s")
}
