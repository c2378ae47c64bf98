package lag

import (
	"bytes"
	"slices"
	"sync"
	"time"
)

// overhead is what one change costs beyond its key and value bytes: its
// queue slot and its place in its key's history, roughly.
const overhead = 96

// Log is a bounded record of recent changes. It is safe for concurrent use.
type Log struct {
	keep     time.Duration // how long a change matters: the longest window read through
	budget   int           // bytes of changes held at most
	groupLen int           // length of the key prefix that groups keys

	mu     sync.Mutex
	bytes  int
	last   time.Time // the latest change's time: times never go back
	queue  []change  // every change held, oldest first, from head on
	head   int
	groups map[string]map[string][]version
}

// change is one entry of the queue: which key changed, and its cost.
type change struct {
	group, key string
	at         time.Time
	size       int
}

// version is a key's value before one of its changes.
type version struct {
	at      time.Time // when the change was made
	val     []byte
	present bool // false: the key did not exist before the change
}

// Old is a key's value as of a cutoff, when it has changed since.
type Old struct {
	Key, Val []byte
	Present  bool // false: the key did not exist then
}

// New returns an empty log that keeps changes for keep and at most budget
// bytes of them, grouping keys by their first groupLen bytes.
func New(keep time.Duration, budget, groupLen int) *Log {
	return &Log{keep: keep, budget: budget, groupLen: groupLen, groups: map[string]map[string][]version{}}
}

// Record notes that key changed at time at, from prev (present false:
// from not existing). A time before the last change's counts as the last
// change's, so that a clock stepping back cannot reorder a key's history.
// key and prev are copied.
func (l *Log) Record(at time.Time, key, prev []byte, present bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if at.Before(l.last) {
		at = l.last
	}
	l.last = at
	c := change{group: string(key[:min(l.groupLen, len(key))]), key: string(key), at: at}
	c.size = len(c.key) + len(prev) + overhead
	g := l.groups[c.group]
	if g == nil {
		g = map[string][]version{}
		l.groups[c.group] = g
	}
	g[c.key] = append(g[c.key], version{at: at, val: bytes.Clone(prev), present: present})
	l.queue = append(l.queue, c)
	l.bytes += c.size
	l.prune(at)
}

// At is key's value as of cutoff: changed is false when the key has not
// changed since, and the caller reads it as stored.
func (l *Log) At(key []byte, cutoff time.Time) (val []byte, present, changed bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	g := l.groups[string(key[:min(l.groupLen, len(key))])]
	v, ok := firstAfter(g[string(key)], cutoff)
	return v.val, v.present, ok
}

// Since lists the keys in [lo, hi) that changed after cutoff, with their
// values as of cutoff, in key order. hi nil means no upper bound; the
// range must lie within lo's group.
func (l *Log) Since(lo, hi []byte, cutoff time.Time) []Old {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []Old
	for k, vs := range l.groups[string(lo[:min(l.groupLen, len(lo))])] {
		if !inRange(k, lo, hi) {
			continue
		}
		if v, ok := firstAfter(vs, cutoff); ok {
			out = append(out, Old{Key: []byte(k), Val: v.val, Present: v.present})
		}
	}
	slices.SortFunc(out, func(a, b Old) int { return bytes.Compare(a.Key, b.Key) })
	return out
}

func inRange(k string, lo, hi []byte) bool {
	return k >= string(lo) && (hi == nil || k < string(hi))
}

// firstAfter is the value before the earliest change after cutoff.
func firstAfter(vs []version, cutoff time.Time) (version, bool) {
	for _, v := range vs {
		if v.at.After(cutoff) {
			return v, true
		}
	}
	return version{}, false
}

// Len is how many changes the log holds.
func (l *Log) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.queue) - l.head
}

// Forget drops the changes no read can reach any more as of now: those
// older than keep.
func (l *Log) Forget(now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.prune(now)
}

// prune drops the oldest changes while they are older than keep or the
// log is over budget. A key's history is in queue order, so the oldest
// change in the queue is the first of its key's.
func (l *Log) prune(now time.Time) {
	horizon := now.Add(-l.keep)
	for l.head < len(l.queue) && (!l.queue[l.head].at.After(horizon) || l.bytes > l.budget) {
		l.drop(l.queue[l.head])
		l.queue[l.head] = change{}
		l.head++
	}
	// Compacting only once half the queue is spent keeps each drop O(1)
	// amortized.
	if l.head > len(l.queue)/2 {
		l.queue = slices.Delete(l.queue, 0, l.head)
		l.head = 0
	}
}

func (l *Log) drop(c change) {
	l.bytes -= c.size
	g := l.groups[c.group]
	if vs := g[c.key][1:]; len(vs) > 0 {
		g[c.key] = vs
		return
	}
	delete(g, c.key)
	if len(g) == 0 {
		delete(l.groups, c.group)
	}
}
