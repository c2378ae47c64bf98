package faults

import (
	"bytes"
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/engine"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/server"
)

// Config is what an Injector needs of the server it serves.
type Config struct {
	// Ops are the operation names a rule may name; nil takes any.
	Ops []string
	// Now is the clock windows are read from; nil means time.Now.
	Now func() time.Time
	// Keys resolves partition key names for keyPrefix; nil, no rule
	// with a keyPrefix matches.
	Keys KeySchemas
}

// Injector applies a rule file's rules to API calls; it is the server's
// Injector. The zero rule set (New, Clear) injects nothing.
type Injector struct {
	cfg    Config
	active atomic.Bool // rules are set: the server asks Inject
	mu     sync.Mutex  // guards the fields below
	doc    *Doc
	rules  []*state
	// holding is the transactions hold rules keep in flight; setting
	// rules releases them.
	*holding
}

// New returns an Injector with no rules.
func New(cfg Config) *Injector {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Injector{cfg: cfg, holding: newHolding()}
}

// Set replaces the rules with the rule file doc (JSON or YAML); a doc
// that is empty or only whitespace clears them. A bad doc changes
// nothing. Every rule starts afresh: counts at 0, streams at the seed.
func (i *Injector) Set(doc []byte) error {
	if len(bytes.TrimSpace(doc)) == 0 {
		i.Clear()
		return nil
	}
	d, err := Parse(doc, i.cfg.Ops)
	if err != nil {
		return err
	}
	i.SetDoc(d)
	return nil
}

// SetDoc replaces the rules with d's, which Parse has checked.
func (i *Injector) SetDoc(d *Doc) {
	start := i.cfg.Now()
	rules := make([]*state, len(d.Rules))
	for n, r := range d.Rules {
		rules[n] = newState(r, d.Seed, uint64(n), start)
	}
	i.mu.Lock()
	i.doc, i.rules = d, rules
	i.active.Store(len(rules) > 0)
	i.mu.Unlock()
	i.Release()
}

// Clear removes every rule.
func (i *Injector) Clear() { i.SetDoc(&Doc{}) }

// Active reports whether any rule is set; the server asks Inject only
// then.
func (i *Injector) Active() bool { return i.active.Load() }

// Inject is the server's hook: the fault of the first rule that matches
// the call and fires, or nil. Each matching rule before it counts the
// call and draws from its own stream.
func (i *Injector) Inject(_ context.Context, op string, in any, principal string) *server.Fault {
	i.mu.Lock()
	defer i.mu.Unlock()
	q := &request{op: op, in: in, principal: principal, keys: i.cfg.Keys}
	for _, s := range i.rules {
		if s.inWindow(i.cfg.Now) && s.matches(q) && s.trigger() {
			return s.fault(q, i.holding)
		}
	}
	return nil
}

// request is one call as rules see it; refs are listed once, when a rule
// first needs them.
type request struct {
	op, principal string
	in            any
	keys          KeySchemas
	listed        bool
	refs          []ref
}

func (q *request) targets() []ref {
	if !q.listed {
		q.refs, q.listed = refs(q.in), true
	}
	return q.refs
}

// state is one rule in force: its parsed values, its stream and counts.
type state struct {
	r            Rule
	latency      time.Duration
	holdFor      time.Duration
	from, until  time.Time // zero: open on that side
	rng          *rand.Rand
	matched      int64
	fired        int64
	limitedToOps []string
}

func newState(r Rule, seed, n uint64, start time.Time) *state {
	s := &state{r: r, rng: rand.New(rand.NewPCG(seed, n))}
	s.latency, _ = time.ParseDuration(r.Latency)
	s.holdFor, _ = time.ParseDuration(r.Hold)
	s.limitedToOps, _ = r.effectOps()
	if w := r.Window; w != nil {
		s.from, _ = time.Parse(time.RFC3339, w.From)
		s.until, _ = time.Parse(time.RFC3339, w.Until)
		if w.For != "" {
			d, _ := time.ParseDuration(w.For)
			s.until = start.Add(d)
			if !s.from.IsZero() {
				s.until = s.from.Add(d)
			}
		}
	}
	return s
}

// inWindow reports whether now is in the rule's window; the clock is
// read only for a rule that has one.
func (s *state) inWindow(clock func() time.Time) bool {
	if s.from.IsZero() && s.until.IsZero() {
		return true
	}
	now := clock()
	return (s.from.IsZero() || !now.Before(s.from)) && (s.until.IsZero() || now.Before(s.until))
}

// matches reports whether the rule names the call: every member set
// must hold, and table, index and key prefix must hold of one thing the
// call touches.
func (s *state) matches(q *request) bool {
	r := &s.r
	switch {
	case r.Operation != "" && r.Operation != q.op:
		return false
	case s.limitedToOps != nil && !slices.Contains(s.limitedToOps, q.op):
		return false
	case r.Principal != "" && r.Principal != q.principal:
		return false
	case r.Table == "" && r.Index == "" && r.KeyPrefix == "":
		return true
	}
	return slices.ContainsFunc(q.targets(), func(f ref) bool { return s.wants(q.keys, f) })
}

func (s *state) wants(keys KeySchemas, f ref) bool {
	r := &s.r
	if (r.Table != "" && tableName(f.table) != r.Table) || (r.Index != "" && f.index != r.Index) {
		return false
	}
	if r.KeyPrefix == "" {
		return true
	}
	pk, ok := partitionString(keys, f)
	return ok && len(pk) >= len(r.KeyPrefix) && pk[:len(r.KeyPrefix)] == r.KeyPrefix
}

// trigger counts a matching call and decides whether the rule fires on
// it: past After, on every Every-th, below Count, and then by
// Probability, drawn only when the rest allow it.
func (s *state) trigger() bool {
	s.matched++
	n := s.matched - s.r.After
	switch {
	case n <= 0:
		return false
	case s.r.Every != nil && n%*s.r.Every != 0:
		return false
	case s.r.Count != nil && s.fired >= *s.r.Count:
		return false
	case s.r.Probability != nil && s.rng.Float64() >= *s.r.Probability:
		return false
	}
	s.fired++
	return true
}

// fault is what the rule does to q, which it fired on.
func (s *state) fault(q *request, h *holding) *server.Fault {
	var f *server.Fault
	switch {
	case s.holdFor > 0:
		f = h.fault(s.holdFor)
	case s.r.Drop:
		f = &server.Fault{Drop: true}
	case s.r.Error != "":
		f = &server.Fault{Err: s.err(q.in)}
	case s.r.Unprocessed != nil:
		f = s.hold(q)
	default:
		f = &server.Fault{}
	}
	f.Delay = s.latency
	return f
}

func (s *state) err(in any) error {
	code := apierr.Code(s.r.Error)
	if code == apierr.TransactionCanceled {
		return engine.TransactionCanceled(s.reasons(transactSize(in)))
	}
	return apierr.New(code, "%s", errorMessages[s.r.Error])
}

// reasons marks the members Conflict lists (all when it lists none) as
// TransactionConflict and the others None, in request order.
func (s *state) reasons(n int) []protocol.CancellationReason {
	out := make([]protocol.CancellationReason, n)
	for i := range out {
		out[i].Code = "None"
		if len(s.r.Conflict) == 0 || slices.Contains(s.r.Conflict, i) {
			out[i] = protocol.CancellationReason{Code: "TransactionConflict", Message: conflictMessage}
		}
	}
	return out
}

// transactSize is how many actions a transaction has.
func transactSize(in any) int {
	switch v := in.(type) {
	case *protocol.TransactWriteItemsInput:
		return len(v.TransactItems)
	case *protocol.TransactGetItemsInput:
		return len(v.TransactItems)
	case *protocol.ExecuteTransactionInput:
		return len(v.TransactStatements)
	}
	return 0
}

func (s *state) hold(q *request) *server.Fault {
	wants := func(f ref) bool { return s.wants(q.keys, f) }
	switch v := q.in.(type) {
	case *protocol.BatchWriteItemInput:
		return holdWrites(v, s.rng, *s.r.Unprocessed, wants)
	case *protocol.BatchGetItemInput:
		return holdKeys(v, s.rng, *s.r.Unprocessed, wants)
	}
	return &server.Fault{}
}
