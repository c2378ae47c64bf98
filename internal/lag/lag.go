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
	partLen  int           // length of the longer prefix that splits a group

	mu     sync.Mutex
	bytes  int
	last   time.Time // the latest change's time: times never go back
	queue  []change  // every change held, oldest first, from head on
	head   int
	groups map[string]map[string]keys // by group, then by part
}

// keys are the changes of the keys of one part: each key's, oldest first.
type keys map[string][]version

// change is one entry of the queue: which key changed, and its cost.
type change struct {
	group, part, key string
	at               time.Time
	size             int
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
// bytes of them. It groups keys by their first groupLen bytes, and splits
// each group by the first partLen (for sortkey, a partition's hash): a
// range within one part looks at that part's changes only, any other
// range at its whole group's.
func New(keep time.Duration, budget, groupLen, partLen int) *Log {
	return &Log{keep: keep, budget: budget, groupLen: groupLen, partLen: partLen, groups: map[string]map[string]keys{}}
}

func (l *Log) group(key []byte) string { return string(key[:min(l.groupLen, len(key))]) }
func (l *Log) part(key []byte) string  { return string(key[:min(l.partLen, len(key))]) }

// versions is key's history, nil if none.
func (l *Log) versions(key []byte) []version {
	return l.groups[l.group(key)][l.part(key)][string(key)]
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
	c := change{group: l.group(key), part: l.part(key), key: string(key), at: at}
	c.size = len(c.key) + len(prev) + overhead
	ks := l.keysOf(c)
	ks[c.key] = append(ks[c.key], version{at: at, val: bytes.Clone(prev), present: present})
	l.queue = append(l.queue, c)
	l.bytes += c.size
	l.prune(at)
}

// keysOf is c's part, made if need be.
func (l *Log) keysOf(c change) keys {
	g := l.groups[c.group]
	if g == nil {
		g = map[string]keys{}
		l.groups[c.group] = g
	}
	if g[c.part] == nil {
		g[c.part] = keys{}
	}
	return g[c.part]
}

// At is key's value as of cutoff: changed is false when the key has not
// changed since, and the caller reads it as stored.
func (l *Log) At(key []byte, cutoff time.Time) (val []byte, present, changed bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	v, ok := firstAfter(l.versions(key), cutoff)
	return v.val, v.present, ok
}

// Since lists the keys in [lo, hi) that changed after cutoff, with their
// values as of cutoff, in key order. hi nil means no upper bound; the
// range must lie within lo's group.
func (l *Log) Since(lo, hi []byte, cutoff time.Time) []Old {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []Old
	g := l.groups[l.group(lo)]
	if p := l.part(lo); len(p) == l.partLen && hi != nil && l.part(hi) == p {
		out = since(out, g[p], lo, hi, cutoff)
	} else {
		for _, ks := range g {
			out = since(out, ks, lo, hi, cutoff)
		}
	}
	slices.SortFunc(out, func(a, b Old) int { return bytes.Compare(a.Key, b.Key) })
	return out
}

// since appends ks's keys in [lo, hi) that changed after cutoff.
func since(out []Old, ks keys, lo, hi []byte, cutoff time.Time) []Old {
	for k, vs := range ks {
		if !inRange(k, lo, hi) {
			continue
		}
		if v, ok := firstAfter(vs, cutoff); ok {
			out = append(out, Old{Key: []byte(k), Val: v.val, Present: v.present})
		}
	}
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
	ks := g[c.part]
	if vs := ks[c.key][1:]; len(vs) > 0 {
		ks[c.key] = vs
		return
	}
	delete(ks, c.key)
	if len(ks) == 0 {
		delete(g, c.part)
	}
	if len(g) == 0 {
		delete(l.groups, c.group)
	}
}
