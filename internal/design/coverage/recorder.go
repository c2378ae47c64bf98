package coverage

import (
	"encoding/json"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/design"
	"github.com/sortkeydb/sortkey/internal/partiql"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// Recorder counts a design's patterns as requests exercise them. The zero
// value is not usable; call New.
type Recorder struct {
	d        *design.Design
	reads    []*readPattern
	writes   []*writePattern
	entities []*entityRow
	shapes   shapes
	planner  *partiql.Planner

	mu         sync.Mutex
	undeclared map[string]*undeclared
	order      []string // undeclared descriptions, first seen first
	dropped    atomic.Int64
}

// writePattern is a declared write pattern and its counters.
type writePattern struct {
	w     *design.WritePattern
	stats *stats
}

// entityRow counts the writes of one entity that no write pattern names:
// an item of a known entity is declared by the entity itself.
type entityRow struct {
	e     *design.Entity
	stats *stats
}

// undeclared is a kind of request no pattern serves.
type undeclared struct {
	scan    bool
	calls   atomic.Int64
	example string
}

// maxUndeclared bounds the kinds of undeclared requests kept, so that an
// application sending a different key every call cannot grow the
// report without end; past it they are only counted.
const maxUndeclared = 200

// New returns a Recorder for d, with every pattern at zero.
func New(d *design.Design) *Recorder {
	r := &Recorder{d: d, undeclared: map[string]*undeclared{}, planner: partiql.NewPlanner(schemaOf(d))}
	for i := range d.Patterns {
		p := &d.Patterns[i]
		r.reads = append(r.reads, &readPattern{p: p, family: family(p.Operation), stats: &stats{}})
	}
	for i := range d.Writes {
		r.writes = append(r.writes, &writePattern{w: &d.Writes[i], stats: &stats{}})
	}
	for i := range d.Entities {
		r.entities = append(r.entities, &entityRow{e: &d.Entities[i], stats: &stats{}})
	}
	return r
}

// Observe counts one call: op is its operation name, in its decoded
// input, out the engine's output (nil on error).
func (r *Recorder) Observe(op string, in, out any, err error, took time.Duration) {
	c := call{op: op, in: in, err: err, took: took}
	switch in := in.(type) {
	case *protocol.ExecuteStatementInput:
		r.statement(&c, in, out)
	case *protocol.BatchExecuteStatementInput:
		r.batchStatements(&c, in, out)
	case *protocol.ExecuteTransactionInput:
		r.transaction(&c, in, out)
	default:
		c.read(out)
		r.classify(&c)
	}
}

// classify counts a native request under the pattern it serves.
func (r *Recorder) classify(c *call) {
	switch in := c.in.(type) {
	case *protocol.GetItemInput:
		r.getItem(c, in)
	case *protocol.QueryInput:
		r.query(c, in)
	case *protocol.ScanInput:
		r.scan(c, in)
	case *protocol.BatchGetItemInput:
		r.batchGet(c, in)
	case *protocol.TransactGetItemsInput:
		r.transactGet(c, in)
	case *protocol.SearchVectorsInput:
		r.searchVectors(c, in)
	default:
		r.write(c)
	}
}

// call is what one observed call contributes to a pattern.
type call struct {
	op             string
	in             any
	err            error
	took           time.Duration
	items, scanned int64
	written        int64
	units          float64
	later          bool
	// via is the PartiQL request a native request was planned from, and
	// viaOp its operation; nil for a native request.
	via   any
	viaOp string
}

// read takes the counts and the capacity from an output.
func (c *call) read(out any) {
	switch o := out.(type) {
	case *protocol.GetItemOutput:
		c.items = boolInt(o.Item != nil || o.ItemJSON != nil)
		c.units = units(o.ConsumedCapacity)
	case *protocol.ReadOutput:
		c.items, c.scanned, c.units = o.Count, o.ScannedCount, units(o.ConsumedCapacity)
	case *protocol.BatchGetItemOutput:
		for _, items := range o.Responses {
			c.items += int64(len(items))
		}
		c.units = unitsList(o.ConsumedCapacity)
	case *protocol.TransactGetItemsOutput:
		for _, r := range o.Responses {
			c.items += boolInt(r.Item != nil)
		}
		c.units = unitsList(o.ConsumedCapacity)
	case *protocol.SearchVectorsOutput:
		c.items = searchItems(o)
	default:
		c.readWrite(out)
	}
}

func (c *call) readWrite(out any) {
	switch o := out.(type) {
	case *protocol.PutItemOutput:
		c.units = units(o.ConsumedCapacity)
	case *protocol.UpdateItemOutput:
		c.units = units(o.ConsumedCapacity)
	case *protocol.DeleteItemOutput:
		c.units = units(o.ConsumedCapacity)
	case *protocol.BatchWriteItemOutput:
		c.units = unitsList(o.ConsumedCapacity)
	case *protocol.TransactWriteItemsOutput:
		c.units = unitsList(o.ConsumedCapacity)
	case *protocol.ExecuteStatementOutput:
		c.items, c.scanned, c.units = o.Count, o.ScannedCount, units(o.ConsumedCapacity)
	case *protocol.ExecuteTransactionOutput:
		for _, r := range o.Responses {
			c.items += boolInt(r.Item != nil)
		}
		c.units = unitsList(o.ConsumedCapacity)
	}
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func units(c *protocol.ConsumedCapacity) float64 {
	if c == nil || c.CapacityUnits == nil {
		return 0
	}
	return *c.CapacityUnits
}

func unitsList(cs []protocol.ConsumedCapacity) float64 {
	var sum float64
	for i := range cs {
		sum += units(&cs[i])
	}
	return sum
}

// count adds c to s; reads and writes are told apart by the stats'
// pattern kind.
func (c *call) count(s *stats, write bool) {
	s.calls.Add(1)
	if c.err != nil {
		s.errors.Add(1)
	}
	if c.later {
		s.later.Add(1)
	}
	s.items.Add(c.items)
	s.scanned.Add(c.scanned)
	s.written.Add(c.written)
	if write {
		s.writeMilli.Add(milli(c.units))
	} else {
		s.readMilli.Add(milli(c.units))
	}
	s.latency.add(c.took)
}

// note counts c as undeclared under what, keeping the first such call's
// input as the example.
func (r *Recorder) note(c *call, what string, scan bool) {
	shown := c.in
	if c.via != nil {
		what, shown = c.viaOp+": "+what, c.via
	}
	r.mu.Lock()
	u := r.undeclared[what]
	if u == nil && len(r.undeclared) < maxUndeclared {
		u = &undeclared{scan: scan, example: example(shown)}
		r.undeclared[what] = u
		r.order = append(r.order, what)
	}
	r.mu.Unlock()
	if u == nil {
		r.dropped.Add(1)
		return
	}
	u.calls.Add(1)
}

// maxExample bounds an example request kept in the report.
const maxExample = 400

func example(in any) string {
	b, err := json.Marshal(in)
	if err != nil {
		return ""
	}
	if len(b) > maxExample {
		return string(b[:maxExample]) + "…"
	}
	return string(b)
}

// entityOf is the entity of table whose key templates fit key, the most
// specific when several do; nil when none does.
func (r *Recorder) entityOf(table string, key attr.Item) *entityRow {
	var best *entityRow
	top := -1
	for _, er := range r.entities {
		kt, ok := er.e.Keys[table]
		if !ok || er.e.Table != table {
			continue
		}
		if n, ok := fits(kt, key); ok && n > top {
			best, top = er, n
		}
	}
	return best
}

// fits reports whether every key template of kt matches the item's
// value, and how much constant text they hold.
func fits(kt design.KeyTemplates, item attr.Item) (int, bool) {
	n := 0
	for name, t := range kt {
		v, ok := item[name]
		if !ok {
			return 0, false
		}
		s, ok := text(v)
		if !ok || !t.Matches(s) {
			return 0, false
		}
		n += literalLen(t)
	}
	return n, true
}

// writePatternFor is the declared write pattern of operation op whose
// entities are those written, in any order; nil when none is.
func (r *Recorder) writePatternFor(op string, entities []string) *writePattern {
	for _, wp := range r.writes {
		if wp.w.Operation == op && sameSet(wp.w.Entities, entities) {
			return wp
		}
	}
	return nil
}

func sameSet(a, b []string) bool {
	for _, s := range a {
		if !slices.Contains(b, s) {
			return false
		}
	}
	for _, s := range b {
		if !slices.Contains(a, s) {
			return false
		}
	}
	return true
}
