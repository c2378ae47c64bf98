package throttle

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey/internal/apierr"
)

// clock is a fake clock that moves only when told.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }

func newLimiter() (*Limiter, *clock) {
	c := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	return New(c.now), c
}

func provisionedWrite(units float64) *Request {
	return &Request{Write: true, Resources: []Resource{{Table: 1, Mode: Provisioned, Units: units}}}
}

// writes sends 1-unit writes until one is refused and returns how many
// were admitted, failing past limit.
func writes(t *testing.T, l *Limiter, r *Request, limit int) int {
	t.Helper()
	for n := 0; n <= limit; n++ {
		if err := l.Admit(r); err != nil {
			return n
		}
		l.Charge(r, []float64{1, 1, 1})
	}
	t.Fatalf("more than %d writes admitted", limit)
	return 0
}

func code(err error) apierr.Code {
	var ae *apierr.Error
	if errors.As(err, &ae) {
		return ae.Code
	}
	return ""
}

func TestNewTableHasOneSecondOfCapacity(t *testing.T) {
	l, _ := newLimiter()
	r := provisionedWrite(5)
	if n := writes(t, l, r, 100); n != 5 {
		t.Fatalf("admitted %d writes, want 5", n)
	}
	if err := l.Admit(r); code(err) != apierr.ProvisionedThroughputExceeded || err.(*apierr.Error).Message != msgTable {
		t.Fatalf("refusal = %v", err)
	}
}

func TestRefillAtTheProvisionedRate(t *testing.T) {
	l, c := newLimiter()
	r := provisionedWrite(5)
	writes(t, l, r, 100)
	c.advance(time.Second)
	if n := writes(t, l, r, 100); n != 5 {
		t.Fatalf("after 1 s: %d writes, want 5", n)
	}
	c.advance(200 * time.Millisecond)
	if n := writes(t, l, r, 100); n != 1 {
		t.Fatalf("after 0.2 s: %d writes, want 1", n)
	}
}

func TestBurstHoldsAtMost300Seconds(t *testing.T) {
	l, c := newLimiter()
	r := provisionedWrite(5)
	writes(t, l, r, 100)
	c.advance(time.Hour)
	if n := writes(t, l, r, 10000); n != 5*BurstSeconds {
		t.Fatalf("after an hour: %d writes, want %d", n, 5*BurstSeconds)
	}
}

func TestOneRequestMayDriveTheBucketIntoDebt(t *testing.T) {
	l, c := newLimiter()
	r := provisionedWrite(5)
	if err := l.Admit(r); err != nil {
		t.Fatal(err)
	}
	l.Charge(r, []float64{20}) // 5 held, 15 owed
	c.advance(2 * time.Second)
	if err := l.Admit(r); err == nil {
		t.Fatal("admitted while 5 units in debt")
	}
	c.advance(time.Second)
	if err := l.Admit(r); err == nil {
		t.Fatal("admitted at exactly zero")
	}
	c.advance(time.Second)
	if n := writes(t, l, r, 100); n != 5 {
		t.Fatalf("after repaying: %d writes, want 5", n)
	}
}

func TestPartitionCeiling(t *testing.T) {
	l, c := newLimiter()
	r := &Request{Write: true, Keyed: true, Partition: 42, Resources: []Resource{{Table: 1, Mode: Provisioned, Units: 40000}}}
	if n := writes(t, l, r, 100000); n != PartitionWriteUnits {
		t.Fatalf("one key: %d writes a second, want %d", n, PartitionWriteUnits)
	}
	if err := l.Admit(r); err == nil || err.(*apierr.Error).Message != msgHotKey {
		t.Fatalf("refusal = %v", err)
	}
	other := *r
	other.Partition = 43
	if err := l.Admit(&other); err != nil {
		t.Fatalf("another key refused: %v", err)
	}
	// The partition keeps no burst: an idle minute gives one second's.
	c.advance(time.Minute)
	if n := writes(t, l, r, 100000); n != PartitionWriteUnits {
		t.Fatalf("after a minute: %d writes, want %d", n, PartitionWriteUnits)
	}
}

func TestPartitionReadCeiling(t *testing.T) {
	l, _ := newLimiter()
	r := &Request{Keyed: true, Partition: 7, Resources: []Resource{{Table: 1}}}
	n := 0
	for ; l.Admit(r) == nil; n++ {
		l.Charge(r, []float64{0.5})
	}
	if n != 2*PartitionReadUnits {
		t.Fatalf("%d eventually consistent reads, want %d", n, 2*PartitionReadUnits)
	}
}

func TestIndexThrottlesTheTablesWrites(t *testing.T) {
	l, _ := newLimiter()
	r := &Request{Write: true, Resources: []Resource{
		{Table: 1, Mode: Provisioned, Units: 100},
		{Table: 1, Index: "byEmail", Mode: Provisioned, Units: 1},
	}}
	if n := writes(t, l, r, 100); n != 1 {
		t.Fatalf("%d writes, want 1", n)
	}
	err := l.Admit(r)
	if code(err) != apierr.ProvisionedThroughputExceeded || err.(*apierr.Error).Message != msgIndex {
		t.Fatalf("refusal = %v", err)
	}
}

func TestOnDemandMaximumHasNoBurst(t *testing.T) {
	l, c := newLimiter()
	r := &Request{Write: true, Resources: []Resource{{Table: 1, Mode: OnDemandMax, Units: 3}}}
	writes(t, l, r, 100)
	c.advance(time.Minute)
	if n := writes(t, l, r, 100); n != 3 {
		t.Fatalf("after a minute: %d writes, want 3", n)
	}
	if err := l.Admit(r); code(err) != apierr.Throttling {
		t.Fatalf("refusal = %v", err)
	}
}

func TestUnlimitedNeverThrottles(t *testing.T) {
	l, _ := newLimiter()
	r := &Request{Write: true, Resources: []Resource{{Table: 1}}}
	for range 5000 {
		if err := l.Admit(r); err != nil {
			t.Fatal(err)
		}
		l.Charge(r, []float64{1})
	}
}

func TestReadsAndWritesHaveSeparateBuckets(t *testing.T) {
	l, _ := newLimiter()
	w := provisionedWrite(1)
	writes(t, l, w, 10)
	rd := &Request{Resources: []Resource{{Table: 1, Mode: Provisioned, Units: 1}}}
	if err := l.Admit(rd); err != nil {
		t.Fatalf("read refused after writes: %v", err)
	}
}

func TestCapacityChangeTakesEffect(t *testing.T) {
	l, c := newLimiter()
	writes(t, l, provisionedWrite(5), 100)
	c.advance(time.Second)
	if n := writes(t, l, provisionedWrite(10), 100); n != 10 {
		t.Fatalf("%d writes, want 10 at the new rate", n)
	}
	c.advance(time.Second)
	if n := writes(t, l, provisionedWrite(2), 100); n != 2 {
		t.Fatalf("%d writes, want 2 at the lowered rate", n)
	}
}

func TestClockMovedBackEarnsNothing(t *testing.T) {
	l, c := newLimiter()
	r := provisionedWrite(5)
	writes(t, l, r, 100)
	c.advance(-time.Hour)
	if err := l.Admit(r); err == nil {
		t.Fatal("admitted after the clock went back")
	}
	c.advance(time.Second)
	if n := writes(t, l, r, 100); n != 5 {
		t.Fatalf("%d writes, want 5", n)
	}
}

func TestFullPartitionBucketsArePruned(t *testing.T) {
	l, c := newLimiter()
	r := &Request{Write: true, Keyed: true, Resources: []Resource{{Table: 1}}}
	for p := range uint64(maxIdleParts + 10) {
		r.Partition = p
		l.Charge(r, []float64{1})
	}
	c.advance(time.Second)
	r.Partition = 1 << 40
	_ = l.Admit(r)
	if len(l.parts) > 10 {
		t.Fatalf("%d partition buckets kept after all refilled", len(l.parts))
	}
}

// TestConcurrentRequestsShareTheBuckets admits and charges from many
// goroutines: every admitted request is charged, and the table's one
// second of capacity admits at least its units (and, with requests racing
// between Admit and Charge, never fewer).
func TestConcurrentRequestsShareTheBuckets(t *testing.T) {
	l, _ := newLimiter()
	r := provisionedWrite(100)
	var admitted atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				if l.Admit(r) == nil {
					admitted.Add(1)
					l.Charge(r, []float64{1})
				}
			}
		})
	}
	wg.Wait()
	if n := admitted.Load(); n < 100 {
		t.Fatalf("%d admitted, want at least the 100 units", n)
	}
	if err := l.Admit(r); err == nil {
		t.Fatal("admitted after the second's capacity was spent")
	}
}
