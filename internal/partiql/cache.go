package partiql

import (
	"sync"

	"github.com/sortkeydb/sortkey/internal/attr"
)

// maxCached bounds the statement cache; when full it starts over, which
// keeps a client sending endless distinct literals from growing memory.
const maxCached = 1024

// cache holds parsed statements by text. Only statements without
// parameters are kept, since Parse binds parameters into the tree; a
// Statement is never modified after Parse, so one may serve many calls.
type cache struct {
	mu sync.Mutex
	m  map[string]*Statement
}

// parse is Parse through the cache.
func (c *cache) parse(src string, params []attr.Value) (*Statement, error) {
	if len(params) > 0 {
		return Parse(src, params)
	}
	c.mu.Lock()
	st := c.m[src]
	c.mu.Unlock()
	if st != nil {
		return st, nil
	}
	st, err := Parse(src, nil)
	if err == nil {
		c.store(src, st)
	}
	return st, err
}

func (c *cache) store(src string, st *Statement) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxCached {
		c.m = make(map[string]*Statement, maxCached)
	}
	c.m[src] = st
}
