package vector

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestBinaryRoundTrip(t *testing.T) {
	v := []float32{1.5, -0.25, 3.4e38, 1e-45, 0}
	b := AppendBinary([]byte("x"), v)
	got, rest, ok := ReadBinary(nil, append(b[1:], 'r', 's'), len(v))
	if !ok || !slices.Equal(got, v) || string(rest) != "rs" {
		t.Fatalf("read %v, rest %q, ok %v; want %v", got, rest, ok, v)
	}
	if _, _, ok := ReadBinary(nil, b[1:len(b)-1], len(v)); ok {
		t.Fatal("a short vector was read")
	}
}

func TestScorerIsScore(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, d := range []Distance{Cosine, Euclidean, DotProduct} {
		q := randomVec(r, 37)
		s := NewScorer(d, q)
		for range 100 {
			v := randomVec(r, 37)
			if got, want := s.Score(v), Score(d, q, v); got != want {
				t.Fatalf("%v: Scorer %v, Score %v", d, got, want)
			}
		}
	}
}

func randomVec(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}
