package vector

import (
	"errors"
	"math"
)

// Distance is a vector index's distance function.
type Distance uint8

// The distance functions DynamoDB offers.
const (
	Cosine Distance = iota + 1
	Euclidean
	DotProduct
)

const msgUnknownDistance = "vector: unknown distance function"

var errUnknownDistance = errors.New(msgUnknownDistance)

var distanceNames = map[string]Distance{
	"COSINE":      Cosine,
	"EUCLIDEAN":   Euclidean,
	"DOT_PRODUCT": DotProduct,
}

// ParseDistance reads DynamoDB's VectorDistanceFunction enum value.
func ParseDistance(s string) (Distance, error) {
	if d, ok := distanceNames[s]; ok {
		return d, nil
	}
	return 0, errUnknownDistance
}

// String returns the wire name of d.
func (d Distance) String() string {
	for name, v := range distanceNames {
		if v == d {
			return name
		}
	}
	return ""
}

// Score is DynamoDB's score of v for the query q; q and v have equal length.
func Score(d Distance, q, v []float32) float32 {
	switch d {
	case Cosine:
		return toScore(cosineDistance(dot(q, v), norm(q), norm(v)))
	case Euclidean:
		return toScore(math.Sqrt(squaredL2(q, v)))
	default:
		return toScore(dot(q, v))
	}
}

// Closer reports whether score a ranks before score b under d.
func Closer(d Distance, a, b float32) bool {
	if d == DotProduct {
		return a > b
	}
	return a < b
}

// cosineDistance is 1 − cos. A zero vector has no direction, so its cosine
// is undefined (0/0); we score it 1, the score of an orthogonal vector:
// neither near nor far, and never NaN, which would break every ordering.
// Rounding can push |cos| a hair past 1, hence the clamp to 0..2.
func cosineDistance(dot, nq, nv float64) float64 {
	if nq == 0 || nv == 0 {
		return 1
	}
	return min(2, max(0, 1-dot/(nq*nv)))
}

// toScore rounds to float32, saturating: a dot product or distance of huge
// float32 vectors can exceed float32's range, and a score must stay a
// finite number that DynamoDB could return.
func toScore(x float64) float32 {
	return float32(min(math.MaxFloat32, max(-math.MaxFloat32, x)))
}

func norm(a []float32) float64 { return math.Sqrt(dot(a, a)) }

// dot sums in four lanes so the loop pipelines; the lane order is fixed,
// so equal inputs always give bit-identical sums.
func dot(a, b []float32) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += float64(a[i]) * float64(b[i])
		s1 += float64(a[i+1]) * float64(b[i+1])
		s2 += float64(a[i+2]) * float64(b[i+2])
		s3 += float64(a[i+3]) * float64(b[i+3])
	}
	for ; i < len(a); i++ {
		s0 += float64(a[i]) * float64(b[i])
	}
	return (s0 + s1) + (s2 + s3)
}

func squaredL2(a, b []float32) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(a); i += 4 {
		d0 := float64(a[i]) - float64(b[i])
		d1 := float64(a[i+1]) - float64(b[i+1])
		d2 := float64(a[i+2]) - float64(b[i+2])
		d3 := float64(a[i+3]) - float64(b[i+3])
		s0, s1, s2, s3 = s0+d0*d0, s1+d1*d1, s2+d2*d2, s3+d3*d3
	}
	for ; i < len(a); i++ {
		d := float64(a[i]) - float64(b[i])
		s0 += d * d
	}
	return (s0 + s1) + (s2 + s3)
}
