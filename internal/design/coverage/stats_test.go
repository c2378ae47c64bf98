package coverage

import (
	"testing"
	"time"
)

func TestBucketsAreOrderedAndInverse(t *testing.T) {
	for i := 0; i < histBuckets-1; i++ {
		if bucket(lower(i)) >= histBuckets {
			t.Fatalf("bucket %d out of range", i)
		}
		if got := bucket(lower(i)); got != i {
			t.Fatalf("bucket(lower(%d)) = %d", i, got)
		}
		if lower(i+1) <= lower(i) {
			t.Fatalf("lower(%d) = %d is not above lower(%d) = %d", i+1, lower(i+1), i, lower(i))
		}
	}
}

func TestQuantilesAreWithinABucket(t *testing.T) {
	var h histogram
	for i := 1; i <= 100; i++ {
		h.add(time.Duration(i) * time.Millisecond)
	}
	for _, c := range []struct {
		q    float64
		want time.Duration
	}{{0.5, 50 * time.Millisecond}, {0.99, 99 * time.Millisecond}} {
		got := h.quantile(c.q)
		if got < c.want*4/5 || got > c.want*5/4 {
			t.Errorf("quantile(%v) = %v, want about %v", c.q, got, c.want)
		}
	}
	var empty histogram
	if got := empty.quantile(0.5); got != 0 {
		t.Errorf("empty quantile = %v", got)
	}
}
