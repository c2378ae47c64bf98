package vector

import (
	"iter"
	"math"
	"math/rand/v2"
)

// clustered returns n vectors of dims around clusters random centres,
// from a fixed seed. Each cluster spreads along its own 16-dimensional
// subspace plus a little isotropic noise: real embeddings have a low
// intrinsic dimension, and isotropic 128-dim Gaussian clusters (where
// every point is almost equally far from every other) are a worst case no
// ANN index handles well (ours: recall@10 0.38 at 100,000 × 128).
func clustered(n, dims, clusters int, seed uint64) [][]float32 {
	r := rand.New(rand.NewPCG(seed, 1))
	centres := make([][]float32, clusters)
	bases := make([][][]float32, clusters)
	for i := range centres {
		centres[i] = gaussian(r, dims, nil, 1)
		for range intrinsicDims {
			bases[i] = append(bases[i], gaussian(r, dims, nil, 0.35/math.Sqrt(intrinsicDims)))
		}
	}
	out := make([][]float32, n)
	for i := range out {
		c := r.IntN(clusters)
		v := gaussian(r, dims, centres[c], 0.02)
		for _, b := range bases[c] {
			addScaled(v, b, r.NormFloat64())
		}
		out[i] = v
	}
	return out
}

const intrinsicDims = 16

func addScaled(v, b []float32, s float64) {
	for i := range v {
		v[i] += float32(s * float64(b[i]))
	}
}

// split draws n vectors and q queries from the same clusters.
func split(n, q, dims, clusters int, seed uint64) (vecs, queries [][]float32) {
	all := clustered(n+q, dims, clusters, seed)
	return all[:n], all[n:]
}

func gaussian(r *rand.Rand, dims int, centre []float32, sd float64) []float32 {
	v := make([]float32, dims)
	for i := range v {
		v[i] = float32(r.NormFloat64() * sd)
		if centre != nil {
			v[i] += centre[i]
		}
	}
	return v
}

// all yields vecs keyed by their position.
func all(vecs [][]float32) iter.Seq2[uint64, []float32] {
	return func(yield func(uint64, []float32) bool) {
		for i, v := range vecs {
			if !yield(uint64(i), v) {
				return
			}
		}
	}
}

// recall is the fraction of want's ids that got contains.
func recall(got, want []Hit) float64 {
	if len(want) == 0 {
		return 1
	}
	in := map[uint64]bool{}
	for _, h := range got {
		in[h.ID] = true
	}
	n := 0
	for _, h := range want {
		if in[h.ID] {
			n++
		}
	}
	return float64(n) / float64(len(want))
}

func buildIndex(tb interface{ Fatal(...any) }, d Distance, vecs [][]float32) *Index {
	x, err := NewIndex(d, len(vecs[0]), 42)
	if err != nil {
		tb.Fatal(err)
	}
	for i, v := range vecs {
		if err := x.Add(uint64(i), v); err != nil {
			tb.Fatal(err)
		}
	}
	return x
}

// keep30 accepts about 30% of ids, spread over every cluster.
func keep30(id uint64) bool { return (id*2654435761)%10 < 3 }

// buildBatch builds the index as the engine does, with AddBatch, a page
// of 512 vectors at a time.
func buildBatch(tb interface{ Fatal(...any) }, d Distance, vecs [][]float32) *Index {
	x, err := NewIndex(d, len(vecs[0]), 42)
	if err != nil {
		tb.Fatal(err)
	}
	for lo := 0; lo < len(vecs); lo += 512 {
		hi := min(len(vecs), lo+512)
		ids := make([]uint64, 0, hi-lo)
		for i := lo; i < hi; i++ {
			ids = append(ids, uint64(i))
		}
		if err := x.AddBatch(ids, vecs[lo:hi]); err != nil {
			tb.Fatal(err)
		}
	}
	return x
}
