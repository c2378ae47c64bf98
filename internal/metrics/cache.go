package metrics

import (
	"maps"
	"sync"
	"sync/atomic"
)

// cache maps a key to a value made once, read on every request without a
// lock: readers load an immutable map; a miss copies it with the new
// entry under mu. Keys are few (operations, error codes, tables), so the
// copies are rare and small.
type cache[K comparable, V any] struct {
	m     atomic.Pointer[map[K]V]
	mu    sync.Mutex
	build func(K) V
}

func newCache[K comparable, V any](build func(K) V) *cache[K, V] {
	c := &cache[K, V]{build: build}
	c.m.Store(&map[K]V{})
	return c
}

func (c *cache[K, V]) get(k K) V {
	if v, ok := (*c.m.Load())[k]; ok {
		return v
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	old := *c.m.Load()
	if v, ok := old[k]; ok {
		return v
	}
	v := c.build(k)
	next := maps.Clone(old)
	next[k] = v
	c.m.Store(&next)
	return v
}
