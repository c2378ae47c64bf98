package vector

import (
	"bufio"
	"errors"
	"flag"
	"os"
	"path/filepath"

	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// BenchmarkScale measures the index at a chosen scale: build rate, the
// save and load of a restart (the searches then run on the index read
// back), and, per search width, recall@10 against Exact, mean and p99 search time,
// beside Exact's own time. It calibrates searchEf; it runs only with
// -scale.n, e.g.
//
//	go test ./internal/vector -run '^$' -bench Scale -benchtime 1x -args -scale.n=1000000 -scale.data=isotropic
var (
	scaleN    = flag.Int("scale.n", 0, "vectors in BenchmarkScale (0 skips it)")
	scaleDims = flag.Int("scale.dims", 128, "dimensions in BenchmarkScale")
	scaleData = flag.String("scale.data", "subspace", "BenchmarkScale's clusters: subspace (16 intrinsic dimensions) or isotropic")
)

func BenchmarkScale(b *testing.B) {
	if *scaleN == 0 {
		b.Skip("needs -scale.n: a build at scale takes minutes")
	}
	vecs, queries := scaleVectors(*scaleN, *scaleDims)
	before := heapBytes()
	start := time.Now()
	x := buildBatch(b, Cosine, vecs)
	took := time.Since(start)
	b.ReportMetric(float64(heapBytes()-before)/float64(len(vecs)), "heap-B/vector")
	b.ReportMetric(float64(len(vecs))/took.Seconds(), "vectors/s")
	x = restart(b, x)
	truth, exact := exactAnswers(vecs, queries)
	b.ReportMetric(float64(exact.Microseconds())/float64(len(queries)), "exact-µs")
	for _, ef := range []int{0, 64, 128, 256, 512} {
		x.ef = ef
		r, mean, p99 := searchAll(x, queries, truth)
		rule := map[bool]string{true: " (searchEf's rule)"}[ef == 0]
		b.Logf("ef %d%s: recall@10 %.3f, mean %v, p99 %v", x.searchEf(10), rule, r, mean, p99)
	}
}

func scaleVectors(n, dims int) (vecs, queries [][]float32) {
	if *scaleData == "isotropic" {
		return isotropic(n, 100, dims)
	}
	return split(n, 100, dims, 100, 21)
}

// isotropic draws vectors around 100 centres with Gaussian noise in every
// dimension: the engine benchmark's data, the hard case for a graph.
func isotropic(n, q, dims int) (vecs, queries [][]float32) {
	r := rand.New(rand.NewPCG(5, 6))
	centres := make([][]float32, 100)
	for i := range centres {
		centres[i] = gaussian(r, dims, nil, 1)
	}
	for range n + q {
		vecs = append(vecs, gaussian(r, dims, centres[r.IntN(len(centres))], 0.35))
	}
	return vecs[:n], vecs[n:]
}

func exactAnswers(vecs, queries [][]float32) ([][]Hit, time.Duration) {
	var truth [][]Hit
	start := time.Now()
	for _, q := range queries {
		truth = append(truth, Exact(q, 10, Cosine, all(vecs), nil))
	}
	return truth, time.Since(start)
}

func searchAll(x *Index, queries [][]float32, truth [][]Hit) (float64, time.Duration, time.Duration) {
	sum := 0.0
	var took []time.Duration
	for i, q := range queries {
		start := time.Now()
		got := x.Search(q, 10, nil)
		took = append(took, time.Since(start))
		sum += recall(got, truth[i])
	}
	slices.Sort(took)
	var total time.Duration
	for _, t := range took {
		total += t
	}
	return sum / float64(len(queries)), total / time.Duration(len(took)), took[len(took)*99/100]
}

// restart writes x to a file and reads it back, as a clean restart of
// the engine does, reporting the file's size and both times, and returns
// the index read.
func restart(b *testing.B, x *Index) *Index {
	path := filepath.Join(b.TempDir(), "index")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	w := bufio.NewWriterSize(f, 1<<20)
	size, err := x.WriteTo(w)
	if err = errors.Join(err, w.Flush(), f.Sync(), f.Close()); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(time.Since(start).Seconds(), "save-s")
	b.ReportMetric(float64(size)/float64(x.Len()), "file-B/vector")
	start = time.Now()
	f, err = os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	y, err := ReadIndexWithin(bufio.NewReaderSize(f, 1<<20), size)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(time.Since(start).Seconds(), "load-s")
	return y
}
