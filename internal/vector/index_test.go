package vector

import (
	"fmt"
	"slices"
	"sync"
	"testing"
)

var distances = []Distance{Cosine, Euclidean, DotProduct}

func TestRecallAgainstExact(t *testing.T) {
	vecs, queries := split(5000, 50, 32, 20, 7)
	for _, d := range distances {
		for build, x := range map[string]*Index{"one by one": buildIndex(t, d, vecs), "in waves": buildBatch(t, d, vecs)} {
			testRecall(t, fmt.Sprintf("%v/%s", d, build), x, vecs, queries)
		}
	}
}

func testRecall(t *testing.T, name string, x *Index, vecs, queries [][]float32) {
	d := x.d
	for _, filter := range []func(uint64) bool{nil, keep30} {
		t.Run(fmt.Sprintf("%s/filtered=%v", name, filter != nil), func(t *testing.T) {
			sum := 0.0
			for _, q := range queries {
				got := x.Search(q, 10, filter)
				want := Exact(q, 10, d, all(vecs), filter)
				checkFilter(t, got, filter)
				checkScores(t, d, q, vecs, got)
				sum += recall(got, want)
			}
			if r := sum / float64(len(queries)); r < 0.95 {
				t.Errorf("recall@10 = %.3f, want >= 0.95", r)
			} else {
				t.Logf("recall@10 = %.3f", r)
			}
		})
	}
}

// checkScores asserts k hits, best first, each scored as Score scores it.
func checkScores(t *testing.T, d Distance, q []float32, vecs [][]float32, hits []Hit) {
	t.Helper()
	if len(hits) != 10 {
		t.Fatalf("got %d hits, want 10", len(hits))
	}
	for i, h := range hits {
		if h.Score != Score(d, q, vecs[h.ID]) {
			t.Fatalf("hit %d scored %v, Score gives %v", h.ID, h.Score, Score(d, q, vecs[h.ID]))
		}
		if i > 0 && Closer(d, h.Score, hits[i-1].Score) {
			t.Fatalf("hits out of order: %v", hits)
		}
	}
}

func checkFilter(t *testing.T, hits []Hit, filter func(uint64) bool) {
	t.Helper()
	for _, h := range hits {
		if filter != nil && !filter(h.ID) {
			t.Fatalf("hit %d fails the filter", h.ID)
		}
	}
}

// Below ExactThreshold the index must answer exactly what brute force
// does, scores and order included, even after replaces and deletes.
func TestSmallIndexIsExact(t *testing.T) {
	vecs, queries := split(ExactThreshold-1, 20, 16, 5, 3)
	for _, d := range distances {
		x := buildIndex(t, d, vecs)
		vecs := slices.Clone(vecs)
		vecs[5] = queries[0]
		if err := x.Add(5, queries[0]); err != nil {
			t.Fatal(err)
		}
		x.Delete(9)
		live := func(id uint64) bool { return id != 9 }
		both := func(id uint64) bool { return live(id) && keep30(id) }
		for _, q := range queries {
			for _, f := range []func(uint64) bool{nil, keep30} {
				want := Exact(q, 10, d, all(vecs), live)
				if f != nil {
					want = Exact(q, 10, d, all(vecs), both)
				}
				if got := x.Search(q, 10, f); !slices.Equal(got, want) {
					t.Fatalf("%v: got %v, want %v", d, got, want)
				}
			}
		}
	}
}

func TestDeleteHidesAtOnce(t *testing.T) {
	vecs := clustered(3000, 16, 10, 11)
	x := buildIndex(t, Euclidean, vecs)
	for i := 0; i < 200; i++ {
		id := uint64(i * 7)
		if !x.Delete(id) {
			t.Fatalf("Delete(%d) = false for a present id", id)
		}
		// Searching for the deleted vector itself is the strongest test:
		// it is its own nearest neighbour.
		for _, h := range x.Search(vecs[id], 10, nil) {
			if h.ID%7 == 0 && h.ID <= id {
				t.Fatalf("deleted id %d returned", h.ID)
			}
		}
	}
	if x.Delete(0) {
		t.Error("Delete of an absent id reported true")
	}
	if got := x.Len(); got != 2800 {
		t.Errorf("Len = %d, want 2800", got)
	}
}

// Deleting most vectors triggers rebuilds; the survivors must still be
// found, each as its own nearest neighbour.
func TestRebuildKeepsSurvivors(t *testing.T) {
	vecs := clustered(4000, 8, 10, 12)
	x := buildIndex(t, Cosine, vecs)
	for i := range 3000 {
		x.Delete(uint64(i))
	}
	if x.nDead > x.Len() {
		t.Fatalf("%d dead nodes for %d live: no rebuild", x.nDead, x.Len())
	}
	for i := 3000; i < 4000; i += 50 {
		hits := x.Search(vecs[i], 1, nil)
		if len(hits) != 1 || hits[0].Score > 1e-6 {
			t.Fatalf("search for %d: %v", i, hits)
		}
	}
}

func TestReplaceMovesVector(t *testing.T) {
	vecs := clustered(2000, 8, 4, 13)
	x := buildIndex(t, DotProduct, vecs)
	far := make([]float32, 8)
	for i := range far {
		far[i] = 100
	}
	if err := x.Add(17, far); err != nil {
		t.Fatal(err)
	}
	hits := x.Search(far, 3, nil)
	if hits[0].ID != 17 || hits[0].Score != Score(DotProduct, far, far) {
		t.Fatalf("got %v, want id 17 first with score %v", hits, Score(DotProduct, far, far))
	}
	if x.Len() != 2000 {
		t.Errorf("Len = %d after a replace, want 2000", x.Len())
	}
}

func TestIndexRefusals(t *testing.T) {
	if _, err := NewIndex(Cosine, 0, 1); err == nil {
		t.Error("NewIndex with 0 dimensions succeeded")
	}
	if _, err := NewIndex(Distance(9), 3, 1); err == nil {
		t.Error("NewIndex with an unknown distance succeeded")
	}
	x, _ := NewIndex(Cosine, 3, 1)
	if err := x.Add(1, []float32{1, 2}); err == nil {
		t.Error("Add of a short vector succeeded")
	}
	nan := float32(0)
	if err := x.Add(1, []float32{1, nan / nan, 2}); err == nil {
		t.Error("Add of a NaN succeeded")
	}
	if x.Len() != 0 || x.Search([]float32{1, 2, 3}, 5, nil) != nil {
		t.Error("a refused Add changed the index")
	}
	if x.Search([]float32{1}, 5, nil) != nil {
		t.Error("a wrong-length query returned hits")
	}
}

// Searches run while a writer adds and deletes; run with -race.
func TestConcurrentSearch(t *testing.T) {
	vecs := clustered(1500, 8, 5, 14)
	x := buildIndex(t, Euclidean, vecs[:1200])
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 100 {
				if len(x.Search(vecs[(g*100+i)%1500], 5, nil)) != 5 {
					t.Error("short result")
					return
				}
			}
		})
	}
	for i := 1200; i < 1500; i++ {
		_ = x.Add(uint64(i), vecs[i])
		x.Delete(uint64(i - 1200))
	}
	wg.Wait()
}

// The same writes with the same seed build the same graph.
func TestDeterministic(t *testing.T) {
	vecs := clustered(1500, 8, 5, 15)
	a, b := buildIndex(t, Cosine, vecs), buildIndex(t, Cosine, vecs)
	for i := 0; i < 1500; i += 100 {
		if !slices.Equal(a.Search(vecs[i], 10, keep30), b.Search(vecs[i], 10, keep30)) {
			t.Fatal("two identical builds answer differently")
		}
	}
}

// AddBatch leaves the index as the same Adds in order would: an id given
// twice keeps its last vector, an id already present is replaced, and a
// batch with one refused vector adds nothing.
func TestAddBatchAsAdds(t *testing.T) {
	vecs, queries := split(3000, 5, 8, 4, 11)
	x := buildBatch(t, Euclidean, vecs)
	bad := []float32{1, 2, 3}
	if err := x.AddBatch([]uint64{9000, 9001}, [][]float32{vecs[0], bad}); err == nil {
		t.Fatal("a batch with a short vector was accepted")
	}
	if x.Len() != len(vecs) {
		t.Fatalf("Len = %d after a refused batch, want %d", x.Len(), len(vecs))
	}
	if err := x.AddBatch([]uint64{7, 7, 8}, [][]float32{queries[0], queries[1], queries[2]}); err != nil {
		t.Fatal(err)
	}
	want := slices.Clone(vecs)
	want[7], want[8] = queries[1], queries[2]
	if x.Len() != len(vecs) {
		t.Fatalf("Len = %d after replacing two ids, want %d", x.Len(), len(vecs))
	}
	for _, q := range queries {
		got := x.Search(q, 10, nil)
		checkScores(t, Euclidean, q, want, got)
		if got[0].Score != Exact(q, 1, Euclidean, all(want), nil)[0].Score {
			t.Fatalf("nearest to a query added by the batch is %v", got[0])
		}
	}
}
