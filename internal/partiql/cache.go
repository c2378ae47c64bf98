package partiql

import (
	"sync"
	"sync/atomic"

	"github.com/sortkeydb/sortkey/internal/attr"
)

// maxCached bounds the statement cache; when full it starts over, which
// keeps a client sending endless distinct literals from growing memory.
const maxCached = 1024

// cache holds parsed statements by text. Only statements without
// parameters are kept whole, since Parse binds parameters into the tree; a
// Statement is never modified after Parse, so one may serve many calls.
// Statements with parameters keep their tokens, and are parsed from them
// on each call with that call's parameters.
type cache struct {
	mu   sync.Mutex
	m    map[string]*entry
	toks map[string][]token
}

// entry is a cached statement and, once planned, its read plan: planning
// a SELECT by key costs as much as parsing it.
type entry struct {
	st      *Statement
	planned atomic.Pointer[planned]
}

// planned is a plan with the key schema it was made for, since a table
// dropped and created again may key differently.
type planned struct {
	k    keys
	plan *Plan
}

// parse is Parse through the cache; the entry is nil when the statement
// is not cached.
func (c *cache) parse(src string, params []attr.Value) (*Statement, *entry, error) {
	if len(params) > 0 {
		st, err := c.parseBound(src, params)
		return st, nil, err
	}
	c.mu.Lock()
	e := c.m[src]
	c.mu.Unlock()
	if e != nil {
		return e.st, e, nil
	}
	st, err := Parse(src, nil)
	if err != nil {
		return nil, nil, err
	}
	return st, c.store(src, st), nil
}

// parseBound parses a statement with parameters from its cached tokens.
func (c *cache) parseBound(src string, params []attr.Value) (*Statement, error) {
	c.mu.Lock()
	toks, ok := c.toks[src]
	c.mu.Unlock()
	if !ok {
		var err error
		if toks, err = tokenize(src); err != nil {
			return nil, err
		}
	}
	st, err := parseTokens(toks, params)
	if err == nil && !ok {
		c.storeTokens(src, toks)
	}
	return st, err
}

func (c *cache) storeTokens(src string, toks []token) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.toks == nil || len(c.toks) >= maxCached {
		c.toks = make(map[string][]token, maxCached)
	}
	c.toks[src] = toks
}

func (c *cache) store(src string, st *Statement) *entry {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxCached {
		c.m = make(map[string]*entry, maxCached)
	}
	e := &entry{st: st}
	c.m[src] = e
	return e
}

// plan is PlanStatement, reusing the read plan cached in e (when not nil)
// if the key schema is the one it was made for. Only reads are kept:
// their requests are copied before each use, while a write's item and key
// go to the engine, which may keep them.
func (e *entry) plan(st *Statement, k keys) (*Plan, error) {
	if e == nil {
		return PlanStatement(st, k)
	}
	if p := e.planned.Load(); p != nil && p.k == k {
		return p.plan.copy(), nil
	}
	p, err := PlanStatement(st, k)
	if err != nil || !p.read() {
		return p, err
	}
	e.planned.Store(&planned{k: k, plan: p})
	return p.copy(), nil
}

// read reports whether the plan is a GetItem, Query or Scan.
func (p *Plan) read() bool { return p.Get != nil || p.Query != nil || p.Scan != nil }

// copy is a read plan with its request copied, so that the request's
// options can be set without touching the cached plan; what the request
// points to is shared and never written.
func (p *Plan) copy() *Plan {
	c := *p
	switch {
	case p.Get != nil:
		g := *p.Get
		c.Get = &g
	case p.Query != nil:
		q := *p.Query
		c.Query = &q
	case p.Scan != nil:
		s := *p.Scan
		c.Scan = &s
	}
	return &c
}
