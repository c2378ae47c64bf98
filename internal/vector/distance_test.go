package vector

import (
	"math"
	"testing"
)

func TestScoreByHand(t *testing.T) {
	const big = math.MaxFloat32
	tests := []struct {
		d    Distance
		q, v []float32
		want float32
	}{
		{Cosine, []float32{1, 0}, []float32{0, 1}, 1},       // orthogonal
		{Cosine, []float32{1, 0}, []float32{-2, 0}, 2},      // opposite
		{Cosine, []float32{3, 4}, []float32{6, 8}, 0},       // same direction
		{Cosine, []float32{1, 1}, []float32{1, 0}, 0.29289}, // 1 − 1/√2
		{Cosine, []float32{0, 0}, []float32{1, 2}, 1},       // zero vector: defined as 1
		{Cosine, []float32{big, big}, []float32{big, big}, 0},
		{Euclidean, []float32{0, 0, 0}, []float32{1, 2, 2}, 3},
		{Euclidean, []float32{1, 1}, []float32{4, 5}, 5},
		{Euclidean, []float32{-big}, []float32{big}, big}, // saturates, not Inf
		{DotProduct, []float32{1, 2, 3}, []float32{4, -5, 6}, 12},
		{DotProduct, []float32{big, big}, []float32{big, big}, big},
		{DotProduct, []float32{big}, []float32{-big}, -big},
	}
	for _, tc := range tests {
		got := Score(tc.d, tc.q, tc.v)
		if math.Abs(float64(got-tc.want)) > 1e-5*max(1, math.Abs(float64(tc.want))) || math.IsNaN(float64(got)) {
			t.Errorf("Score(%v, %v, %v) = %v, want %v", tc.d, tc.q, tc.v, got, tc.want)
		}
	}
}

func TestCloser(t *testing.T) {
	if !Closer(Cosine, 0.1, 0.2) || !Closer(Euclidean, 1, 2) || Closer(Euclidean, 2, 1) {
		t.Error("lower must be closer for cosine and Euclidean")
	}
	if !Closer(DotProduct, 2, 1) || Closer(DotProduct, 1, 2) {
		t.Error("higher must be closer for dot product")
	}
}

func TestParseDistance(t *testing.T) {
	for _, d := range distances {
		got, err := ParseDistance(d.String())
		if err != nil || got != d {
			t.Errorf("ParseDistance(%q) = %v, %v", d.String(), got, err)
		}
	}
	for _, s := range []string{"", "cosine", "DOT", "MANHATTAN"} {
		if _, err := ParseDistance(s); err == nil {
			t.Errorf("ParseDistance(%q) succeeded", s)
		}
	}
}

// Equal scores come out by ascending id whatever the input order.
func TestExactTiesByID(t *testing.T) {
	v := []float32{1, 0}
	cands := func(yield func(uint64, []float32) bool) {
		for _, id := range []uint64{9, 3, 7, 1, 5} {
			if !yield(id, v) {
				return
			}
		}
	}
	got := Exact([]float32{1, 0}, 3, Euclidean, cands, nil)
	want := []Hit{{1, 0}, {3, 0}, {5, 0}}
	if len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("got %v, want %v", got, want)
	}
	if Exact(v, 0, Euclidean, cands, nil) != nil {
		t.Error("k = 0 returned hits")
	}
}

func TestExactOrdersBestFirst(t *testing.T) {
	vecs := [][]float32{{0, 1}, {1, 0}, {-1, 0}, {2, 0}}
	q := []float32{1, 0}
	check := func(d Distance, want []uint64) {
		t.Helper()
		got := Exact(q, 4, d, all(vecs), nil)
		for i, h := range got {
			if h.ID != want[i] {
				t.Fatalf("%v: got %v, want ids %v", d, got, want)
			}
		}
	}
	check(Cosine, []uint64{1, 3, 0, 2})
	check(Euclidean, []uint64{1, 3, 0, 2})
	check(DotProduct, []uint64{3, 1, 0, 2})
	if got := Exact(q, 4, DotProduct, all(vecs), func(id uint64) bool { return id%2 == 0 }); len(got) != 2 || got[0].ID != 0 {
		t.Errorf("filtered: got %v", got)
	}
}
