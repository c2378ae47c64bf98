package engine

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey/internal/protocol"
)

// The graph benchmark's size: go test -bench SearchVectorsGraph -args
// -vectors=100000 -dims=768. The defaults keep a plain -bench run short.
var (
	benchVectors = flag.Int("vectors", 20_000, "vectors in BenchmarkSearchVectorsGraph")
	benchDims    = flag.Int("dims", 128, "dimensions in BenchmarkSearchVectorsGraph")
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
	e, err := Open(Options{InMemory: true, TTLInterval: -1})
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
	for i := range n {
		v := jitter(r, centres[r.IntN(len(centres))], 0.35)
		must[protocol.PutItemOutput](b)(call(b, e.PutItem, fmt.Sprintf(`{"TableName":"vec","Item":{"pk":{"S":"k%d"},"v":%s}}`, i, vectorJSON(v))))
	}
	queries := make([]string, 100)
	for i := range queries {
		q := strings.TrimSuffix(strings.TrimPrefix(vectorJSON(jitter(r, centres[i], 0.35)), `{"L":`), "}")
		queries[i] = `{"TableName":"vec","IndexName":"vix","TopK":10,"SearchVector":` + q + `}`
	}
	return queries
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
