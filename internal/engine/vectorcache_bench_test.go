package engine

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey/internal/protocol"
)

// The graph benchmark's size: go test -bench SearchVectorsGraph -args
// -vectors=100000 -dims=768. The defaults keep a plain -bench run short.
var (
	benchVectors = flag.Int("vectors", 20_000, "vectors in BenchmarkSearchVectorsGraph")
	benchDims    = flag.Int("dims", 128, "dimensions in BenchmarkSearchVectorsGraph")
	benchOnDisk  = flag.Bool("ondisk", false, "BenchmarkSearchVectorsGraph on an on-disk store (for sizes whose items outgrow memory)")
)

// BenchmarkSearchVectorsGraph is SearchVectors (TopK 10, no condition) on
// clustered vectors (100 clusters, so that nearest neighbours mean
// something), answered by the in-memory graph. It reports the graph's
// build (what a restart costs before searches use it: build-s, vectors/s,
// B/vector of heap), its recall@10 against the exact answer over the same
// entries, the search's p99, and exact-ns/op, the exact search of the
// same query, for comparison.
func BenchmarkSearchVectorsGraph(b *testing.B) {
	n, dims := *benchVectors, *benchDims
	opts := Options{InMemory: true, TTLInterval: -1}
	if *benchOnDisk {
		opts = Options{Dir: b.TempDir(), TTLInterval: -1}
	}
	e, err := Open(opts)
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	queries := loadClustered(b, e, n, dims)
	build, perVector := timeBuild(b, e)
	recall, exactNs := compareExact(b, e, queries)
	var took []time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		out := must[protocol.SearchVectorsOutput](b)(call(b, e.SearchVectors, queries[i%len(queries)]))
		took = append(took, time.Since(start))
		if len(out.SearchResults) != 10 {
			b.Fatalf("%d results", len(out.SearchResults))
		}
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)*99/100].Microseconds()), "p99-µs")
	b.ReportMetric(build.Seconds(), "build-s")
	b.ReportMetric(float64(n)/build.Seconds(), "vectors/s")
	b.ReportMetric(perVector, "B/vector")
	b.ReportMetric(recall, "recall@10")
	b.ReportMetric(exactNs, "exact-ns/op")
}

// loadClustered writes n vectors around 100 centres to table "vec" (index
// "vix", COSINE, KEYS_ONLY, no search schema) and returns 100 search
// requests near the same centres.
func loadClustered(b *testing.B, e *Engine, n, dims int) []string {
	must[protocol.CreateTableOutput](b)(call(b, e.CreateTable, fmt.Sprintf(`{"TableName":"vec","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
		"VectorIndexes":[{"IndexName":"vix","VectorAttribute":{"AttributeName":"v"},"Dimensions":%d,"DistanceFunction":"COSINE",
		"Projection":{"ProjectionType":"KEYS_ONLY"}}]}`, dims)))
	r := rand.New(rand.NewPCG(5, 6))
	centres := make([][]float64, 100)
	for i := range centres {
		centres[i] = gaussian(r, dims, 1)
	}
	puts := make(chan string, 64)
	go func() {
		defer close(puts)
		for i := range n {
			v := jitter(r, centres[r.IntN(len(centres))], 0.35)
			puts <- fmt.Sprintf(`{"TableName":"vec","Item":{"pk":{"S":"k%d"},"v":%s}}`, i, vectorJSON(v))
		}
	}()
	putConcurrently(b, e, puts)
	queries := make([]string, 100)
	for i := range queries {
		q := strings.TrimSuffix(strings.TrimPrefix(vectorJSON(jitter(r, centres[i], 0.35)), `{"L":`), "}")
		queries[i] = `{"TableName":"vec","IndexName":"vix","TopK":10,"SearchVector":` + q + `}`
	}
	return queries
}

// putConcurrently runs the puts from several goroutines, so that on disk their
// commits share WAL syncs instead of paying one each. The puts stream in:
// a million requests of 768 numbers would not fit in memory at once.
func putConcurrently(b *testing.B, e *Engine, puts <-chan string) {
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for p := range puts {
				must[protocol.PutItemOutput](b)(call(b, e.PutItem, p))
			}
		})
	}
	wg.Wait()
}

// timeBuild starts the graph's build and waits for it: its duration and
// the heap it added per vector.
func timeBuild(b *testing.B, e *Engine) (time.Duration, float64) {
	tbl, err := e.itemTable("vec")
	if err != nil {
		b.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	for e.graph(tbl, &tbl.indexes[0]) == nil {
		time.Sleep(5 * time.Millisecond)
	}
	took := time.Since(start)
	runtime.GC()
	runtime.ReadMemStats(&after)
	return took, float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(*benchVectors)
}

// compareExact is the graph's recall@10 against the exact answer over
// queries, and the exact search's mean time.
func compareExact(b *testing.B, e *Engine, queries []string) (recall, exactNs float64) {
	found, total := 0, 0
	var exact time.Duration
	for _, q := range queries {
		in := new(protocol.SearchVectorsInput)
		if err := protocol.Decode([]byte(q), in); err != nil {
			b.Fatal(err)
		}
		s, err := e.planSearch(in)
		if err != nil {
			b.Fatal(err)
		}
		g, err := s.fromGraph(e, e.graph(s.t, s.ix))
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		x, err := e.exactSearch(s)
		exact += time.Since(start)
		if err != nil {
			b.Fatal(err)
		}
		want := resultKeys(x)
		total += len(want)
		for _, k := range resultKeys(g) {
			if slices.Contains(want, k) {
				found++
			}
		}
	}
	return float64(found) / float64(total), float64(exact.Nanoseconds()) / float64(len(queries))
}

// BenchmarkVectorGraphRestart is a clean restart of an on-disk engine
// whose vector index's graph is built (flags -vectors, -dims as above):
// each op is Close, which saves the graph (close-s, graph-MB, the file's
// size), then Open and the load of the graph in the background, until
// searches use it (open-s, load-s). build-s is the build a restart
// without the saved graph would pay instead.
func BenchmarkVectorGraphRestart(b *testing.B) {
	dir := b.TempDir()
	e, err := Open(Options{Dir: dir, TTLInterval: -1})
	if err != nil {
		b.Fatal(err)
	}
	if !e.graphsUsable() {
		e.Close()
		b.Skip("vector graphs are not used on a shared store")
	}
	loadClustered(b, e, *benchVectors, *benchDims)
	build, _ := timeBuild(b, e)
	var closing, opening, loading time.Duration
	var size int64
	for b.Loop() {
		start := time.Now()
		e.Close()
		closing += time.Since(start)
		size = graphDirSize(b, dir)
		start = time.Now()
		if e, err = Open(Options{Dir: dir, TTLInterval: -1}); err != nil {
			b.Fatal(err)
		}
		opening += time.Since(start)
		waitLoaded(b, e)
		loading += time.Since(start)
	}
	e.Close()
	b.ReportMetric(build.Seconds(), "build-s")
	b.ReportMetric(closing.Seconds()/float64(b.N), "close-s")
	b.ReportMetric(float64(size)/(1<<20), "graph-MB")
	b.ReportMetric(opening.Seconds()/float64(b.N), "open-s")
	b.ReportMetric(loading.Seconds()/float64(b.N), "load-s")
}

func graphDirSize(b *testing.B, dir string) int64 {
	entries, err := os.ReadDir(filepath.Join(dir, graphDirName))
	if err != nil || len(entries) != 1 {
		b.Fatalf("graph files after a clean close: %v, %v", entries, err)
	}
	info, err := entries[0].Info()
	if err != nil {
		b.Fatal(err)
	}
	return info.Size()
}

// waitLoaded waits for the graph Open loads, failing if Open loaded none.
func waitLoaded(b *testing.B, e *Engine) {
	tbl, err := e.itemTable("vec")
	if err != nil {
		b.Fatal(err)
	}
	for {
		v, ok := e.vectors.indexes.Load(vcKey{tbl.meta.ID, tbl.indexes[0].id})
		if !ok {
			b.Fatal("the saved graph was not loaded")
		}
		if v.(*annIndex).isReady() {
			return
		}
		time.Sleep(time.Millisecond)
	}
}
