package vector

import (
	"encoding/binary"
	"math"
)

// AppendBinary appends v as little-endian float32s. A vector index entry
// starts with its vector so written: a search scores an entry from these
// bytes without decoding the item behind them.
func AppendBinary(dst []byte, v []float32) []byte {
	for _, f := range v {
		dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(f))
	}
	return dst
}

// ReadBinary reads a vector of dims float32s from the start of b into
// dst's storage, and returns it with the bytes after it; ok is false when
// b is too short.
func ReadBinary(dst []float32, b []byte, dims int) (v []float32, rest []byte, ok bool) {
	if len(b) < 4*dims {
		return nil, b, false
	}
	v = dst[:0]
	for i := range dims {
		v = append(v, math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])))
	}
	return v, b[4*dims:], true
}

// Scorer scores vectors against one query vector, with what every score
// shares (the query's norm) computed once.
type Scorer struct {
	d    Distance
	q    []float32
	norm float64
}

// NewScorer is a Scorer of q under d.
func NewScorer(d Distance, q []float32) Scorer { return Scorer{d: d, q: q, norm: norm(q)} }

// Score is Score(d, q, v).
func (s Scorer) Score(v []float32) float32 {
	switch s.d {
	case Cosine:
		return toScore(cosineDistance(dot(s.q, v), s.norm, norm(v)))
	case Euclidean:
		return toScore(math.Sqrt(squaredL2(s.q, v)))
	default:
		return toScore(dot(s.q, v))
	}
}
