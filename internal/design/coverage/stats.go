package coverage

import (
	"math"
	"math/bits"
	"sync/atomic"
	"time"
)

// stats are one pattern's counters. Capacity is kept in thousandths of a
// unit, so that halves and the sums of many calls stay exact in an
// integer.
type stats struct {
	calls, errors, later    atomic.Int64
	items, scanned, written atomic.Int64
	readMilli, writeMilli   atomic.Int64
	latency                 histogram
}

func milli(units float64) int64 { return int64(math.Round(units * 1000)) }

// histogram counts latencies in buckets whose width grows with their
// value (four per power of two), so that quantiles are within about a
// fifth of the truth in fixed memory, whatever the number of calls.
type histogram struct {
	buckets [histBuckets]atomic.Int64
}

const (
	subBuckets  = 4
	histBuckets = 62 * subBuckets // up to the largest int64
)

// bucket is the bucket of a duration in nanoseconds: the power of two
// below it, then which quarter of that octave.
func bucket(ns int64) int {
	if ns < subBuckets {
		return int(max(ns, 0))
	}
	hi := bits.Len64(uint64(ns)) - 1
	sub := int(uint64(ns)>>(hi-2)) & (subBuckets - 1)
	return (hi-1)*subBuckets + sub
}

// lower is the smallest duration of bucket i, the inverse of bucket.
func lower(i int) int64 {
	if i < subBuckets {
		return int64(i)
	}
	hi, sub := i/subBuckets+1, i%subBuckets
	return int64(subBuckets+sub) << (hi - 2)
}

func (h *histogram) add(d time.Duration) { h.buckets[bucket(int64(d))].Add(1) }

// quantile is the duration below which fraction q of the calls fell,
// as the middle of its bucket (a bucket is an eighth of its lower bound
// wide, past the first ones); 0 with no calls.
func (h *histogram) quantile(q float64) time.Duration {
	var counts [histBuckets]int64
	var total int64
	for i := range h.buckets {
		counts[i] = h.buckets[i].Load()
		total += counts[i]
	}
	if total == 0 {
		return 0
	}
	rank := int64(math.Ceil(q * float64(total)))
	var seen int64
	for i, c := range counts {
		if seen += c; seen >= max(rank, 1) {
			return time.Duration(lower(i) + lower(i)/8)
		}
	}
	return 0
}
