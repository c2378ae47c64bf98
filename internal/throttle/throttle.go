package throttle

import (
	"sync"
	"time"
)

// DynamoDB's limits, from the Developer Guide: unused provisioned capacity
// is kept for up to 300 seconds of bursts, and one partition serves at most
// 3,000 read units or 1,000 write units a second.
const (
	BurstSeconds        = 300
	PartitionReadUnits  = 3000
	PartitionWriteUnits = 1000
)

// Mode is how a table's or index's capacity is set.
type Mode uint8

const (
	// Unlimited is an on-demand table or index without a maximum: only
	// its partitions' ceilings apply.
	Unlimited Mode = iota
	// Provisioned is provisioned capacity, with burst credit.
	Provisioned
	// OnDemandMax is an on-demand table's or index's maximum throughput
	// (MaxReadRequestUnits, MaxWriteRequestUnits), without burst credit.
	OnDemandMax
)

// Resource is a table or one of its global secondary indexes, with its
// capacity in the direction (read or write) of the request naming it.
type Resource struct {
	Table uint64 // the table's id: a table created again under its name starts afresh
	Index string // a global secondary index's name; "" for the table
	Mode  Mode
	Units float64 // capacity units a second (Provisioned) or the maximum (OnDemandMax)
	ARN   string  // the table's or index's ARN, named in the error's ThrottlingReasons
}

// Request is what one request uses. A read names the table or the global
// secondary index it reads; a write names its table, then every global
// secondary index of the table, since an index out of capacity throttles
// its table's writes.
type Request struct {
	Write     bool
	Resources []Resource
	// Keyed is set when the request reads or writes one partition key
	// value of its table, whose hash is Partition; the partition's
	// ceiling then applies too.
	Keyed     bool
	Partition uint64
}

// Limiter holds the buckets. It is safe for concurrent use; one lock is
// enough, since it is held for a few arithmetic operations per request.
type Limiter struct {
	now func() time.Time

	mu      sync.Mutex
	buckets map[bucketKey]*bucket
	parts   map[bucketKey]*bucket // per partition key value, pruned when full
}

// bucketKey names a bucket: a table or index (part 0), or one partition
// key value of a table (index "").
type bucketKey struct {
	table uint64
	index string
	part  uint64
	write bool
}

// maxIdleParts is how many partition buckets are kept before full ones,
// which a fresh bucket would equal, are dropped.
const maxIdleParts = 4096

// New returns a Limiter that reads time from now (the database's clock).
func New(now func() time.Time) *Limiter {
	if now == nil {
		now = time.Now
	}
	return &Limiter{now: now, buckets: map[bucketKey]*bucket{}, parts: map[bucketKey]*bucket{}}
}

// Admit returns the error DynamoDB answers r with when a bucket it uses is
// in debt (at or below zero), or nil. It takes nothing: Charge does, once
// the request knows what it consumed.
func (l *Limiter) Admit(r *Request) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	for i := range r.Resources {
		res := &r.Resources[i]
		if b := l.resource(res, r.Write, now); b != nil && b.tokens <= 0 {
			return refusal(res, r.Write)
		}
	}
	if b := l.partition(r, now); b != nil && b.tokens <= 0 {
		return hotKey(&r.Resources[0], r.Write)
	}
	return nil
}

// Charge takes what r consumed: units[i] from r.Resources[i], and the
// table's units (units[0] when it names the table) from the partition.
func (l *Limiter) Charge(r *Request, units []float64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	for i := range r.Resources {
		if b := l.resource(&r.Resources[i], r.Write, now); b != nil && i < len(units) {
			b.tokens -= units[i]
		}
	}
	if b := l.partition(r, now); b != nil && len(units) > 0 {
		b.tokens -= units[0]
	}
}

// resource is res's bucket, refilled to now; nil when res is unlimited.
func (l *Limiter) resource(res *Resource, write bool, now time.Time) *bucket {
	if res.Mode == Unlimited || res.Units <= 0 {
		return nil
	}
	burst := 1.0
	if res.Mode == Provisioned {
		burst = BurstSeconds
	}
	k := bucketKey{table: res.Table, index: res.Index, write: write}
	return take(l.buckets, k, res.Units, burst, now)
}

// partition is the bucket of r's partition key value, refilled to now;
// nil when r reads no single partition of a table.
func (l *Limiter) partition(r *Request, now time.Time) *bucket {
	if !r.Keyed || len(r.Resources) == 0 || r.Resources[0].Index != "" {
		return nil
	}
	rate := float64(PartitionReadUnits)
	if r.Write {
		rate = PartitionWriteUnits
	}
	if len(l.parts) >= maxIdleParts {
		pruneFull(l.parts, now)
	}
	k := bucketKey{table: r.Resources[0].Table, part: r.Partition, write: r.Write}
	return take(l.parts, k, rate, 1, now)
}

// take is m's bucket k at rate units a second holding up to burst seconds,
// created with one second of capacity (a new table has saved none), and
// refilled to now.
func take(m map[bucketKey]*bucket, k bucketKey, rate, burst float64, now time.Time) *bucket {
	b := m[k]
	if b == nil {
		b = &bucket{tokens: rate, rate: rate, max: rate * burst, at: now}
		m[k] = b
	}
	b.refill(now, rate, burst)
	return b
}

// pruneFull drops the buckets that have refilled to their maximum: a
// fresh one would be the same, so only memory is saved.
func pruneFull(m map[bucketKey]*bucket, now time.Time) {
	for k, b := range m {
		b.refill(now, b.rate, b.max/b.rate)
		if b.tokens >= b.max {
			delete(m, k)
		}
	}
}

// bucket is a token bucket in capacity units; tokens may be negative
// (debt), after a request consumed more than was left.
type bucket struct {
	tokens float64
	rate   float64 // units added a second
	max    float64 // the most it holds
	at     time.Time
}

// refill adds what the time since the last refill earned. A changed rate
// (UpdateTable) is only seen by the next request, so it counts from the
// request before: a test that raises capacity and moves its clock gets
// the new rate for that time. A clock moved backwards earns nothing and
// restarts from now.
func (b *bucket) refill(now time.Time, rate, burst float64) {
	if rate != b.rate {
		b.rate, b.max = rate, rate*burst
		b.tokens = min(b.tokens, b.max)
	}
	if d := now.Sub(b.at); d > 0 {
		b.tokens = min(b.max, b.tokens+b.rate*d.Seconds())
	}
	b.at = now
}
