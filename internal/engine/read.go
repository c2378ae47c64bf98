package engine

import (
	"time"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/expr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/storage"
)

// maxPageBytes is DynamoDB's page size: a Query or Scan stops once it has
// read 1 MB of items, before any filter.
const maxPageBytes = 1 << 20

// readPlan is a Query or Scan, validated and ready to run over [lo, hi).
type readPlan struct {
	t          *table
	ix         *indexSchema // nil reads the table itself
	lo, hi     []byte
	reverse    bool
	filter     expr.Cond
	proj       expr.Projection // nil returns every attribute read
	count      bool            // Select COUNT: count, return no items
	fetchTable bool            // an LSI read that needs attributes it does not project
	limit      int64           // 0: none
	consistent bool
	asOf       time.Time // the read sees the data as of then; zero: the present (see Engine.asOf)
	capMode    *string
	tableRef   string      // the table as the request named it (name or ARN)
	start      startBounds // what ExclusiveStartKey must lie within
	part       []byte      // a Query's partition: a key starting with its hash; nil for a Scan
}

// pageState accumulates one page while the iterator runs.
type pageState struct {
	items   []attr.Item
	count   int64
	scanned int64
	bytes   int     // what the page limit counts
	read    int     // size of the items or index entries read
	fetched float64 // read units of the table items an LSI read fetched
	last    attr.Item
	full    bool // stopped by Limit or the page size
	err     error
	json    []byte // the items as wire JSON, when the plan passes them through
}

// run reads one page.
func (e *Engine) run(p *readPlan) (*protocol.ReadOutput, error) {
	d, err := e.admit(p.t, false, p.ix, p.part)
	if err != nil {
		return nil, err
	}
	st := &pageState{items: []attr.Item{}}
	p.asOf = e.asOf(p.ix, p.consistent)
	visit := func(_, v []byte) bool { return e.visit(p, st, v) }
	if p.passesThrough() {
		st.json = []byte{}
		visit = func(_, v []byte) bool { return p.visitJSON(st, v) }
	}
	if len(p.hi) == 0 || string(p.lo) < string(p.hi) {
		if err := e.scanPlan(p, visit); err != nil {
			return nil, err
		}
	}
	if st.err != nil {
		return nil, st.err
	}
	if d != nil {
		e.spend(d, p.usage(st))
	}
	return p.output(st), nil
}

// visit handles one stored item or index entry; it returns false to stop.
func (e *Engine) visit(p *readPlan, st *pageState, v []byte) bool {
	it, err := attr.DecodeItem(v)
	st.read += it.Size()
	if err == nil && p.fetchTable {
		it, err = e.tableItem(p, it)
		st.fetched += readUnits(it, true)
	}
	if err != nil {
		st.err = err
		return false
	}
	st.last = it
	if p.matches(it, st) {
		st.count++
		if !p.count {
			st.items = append(st.items, p.project(it))
		}
	}
	return p.advance(st, it.Size())
}

// passesThrough reports whether every item read is returned whole, so
// that the page can be written as JSON straight from storage.
func (p *readPlan) passesThrough() bool {
	return p.filter == nil && p.proj == nil && !p.fetchTable && !p.count
}

// visitJSON is visit for a plan that passes items through: it decodes
// only the item a full page stops at, for its LastEvaluatedKey.
func (p *readPlan) visitJSON(st *pageState, v []byte) bool {
	if st.count > 0 {
		st.json = append(st.json, ',')
	}
	var size int
	st.json, size, st.err = attr.AppendEncodedJSON(st.json, v)
	st.read += size
	st.count++
	if p.advance(st, size) || st.err != nil {
		return st.err == nil
	}
	st.last, st.err = attr.DecodeItem(v)
	return false
}

// advance counts one item of the given size as scanned and reports
// whether the page has room for more.
func (p *readPlan) advance(st *pageState, size int) bool {
	st.scanned++
	st.bytes += size
	st.full = (p.limit > 0 && st.scanned >= p.limit) || st.bytes >= maxPageBytes
	return st.err == nil && !st.full
}

func (p *readPlan) matches(it attr.Item, st *pageState) bool {
	if p.filter == nil {
		return true
	}
	ok, err := expr.EvalCond(p.filter, it)
	if err != nil {
		st.err = err
	}
	return ok
}

func (p *readPlan) project(it attr.Item) attr.Item {
	if p.proj == nil {
		return it
	}
	return expr.Project(it, p.proj)
}

// tableItem reads the whole item an index entry stands for.
func (e *Engine) tableItem(p *readPlan, entry attr.Item) (attr.Item, error) {
	k, err := p.t.encodeKey(entry)
	if err != nil {
		return nil, err
	}
	it, err := e.readItemAt(k, p.asOf)
	if it == nil && err == nil {
		return entry, nil
	}
	return it, err
}

func (p *readPlan) output(st *pageState) *protocol.ReadOutput {
	out := &protocol.ReadOutput{Count: st.count, ScannedCount: st.scanned}
	if !p.count {
		out.Items = &st.items
		out.ItemsJSON = st.json
	}
	if st.full && st.last != nil && !p.onePerPartition() {
		out.LastEvaluatedKey = p.keyOf(st.last)
	}
	out.ConsumedCapacity = p.usage(st).report(p.capMode, p.tableRef)
	return out
}

// usage is the page's capacity, by the Developer Guide's rules for Query
// and Scan: the sizes of every item or index entry read (before any
// filter, whatever the projection) are summed and rounded up to 4 KB once,
// at least one unit, charged to the table or index read; an LSI read that
// fetches from the table also pays for each item fetched, rounded up to
// 4 KB on its own. Eventually consistent reads cost half.
func (p *readPlan) usage(st *pageState) *usage {
	u := &usage{read: true}
	units := roundUp(st.read, readUnitBytes)
	if p.ix == nil && p.wholeTable(st) {
		units = max(units, wholeScanUnits)
	}
	if p.ix == nil {
		u.table = units
	} else {
		u.addIndex(p.ix, units)
		u.table = st.fetched
	}
	if !p.consistent {
		u.halve()
	}
	return u
}

// wholeScanUnits is the least a Scan that reads a whole table costs: AWS
// charges 4 units (2 eventually consistent) for a Scan of a new table
// holding one tiny item, as if it read the four partitions a new table
// has at one unit each. Only that case is observed, so only a Scan of a
// table that reads it all in one page pays it; a Query, a parallel or
// resumed Scan and an index's Scan keep the one-unit minimum.
const wholeScanUnits = 4

// wholeTable reports whether the page is a Scan of the whole table: not
// parallel, not resumed from a start key, and ending with the table.
func (p *readPlan) wholeTable(st *pageState) bool {
	return !p.start.query && p.start.segments <= 1 && !p.start.resumed && !(st.full && st.last != nil)
}

// keyOf is the LastEvaluatedKey for it: the table's key attributes, and on
// an index the index's key attributes too.
func (p *readPlan) keyOf(it attr.Item) attr.Item {
	k := attr.Item{}
	for _, a := range p.keyAttrs() {
		if v, ok := it[a.name]; a.name != "" && ok {
			k[a.name] = v
		}
	}
	return k
}

// startAfter narrows the plan to the items after ExclusiveStartKey, which
// must name exactly the key attributes keyOf would return and lie within
// a Query's key condition kc (nil for a Scan).
func (p *readPlan) startAfter(esk attr.Item, kc *keyCond) error {
	if esk == nil {
		return nil
	}
	p.start.resumed = true
	pos, err := p.position(esk)
	if err != nil {
		return err
	}
	if err := p.startInBounds(esk, pos, kc); err != nil {
		return err
	}
	if p.reverse {
		p.hi = minKey(p.hi, pos)
	} else {
		p.lo = maxKey(p.lo, append(pos, 0))
	}
	return nil
}

func (p *readPlan) position(esk attr.Item) ([]byte, error) {
	want := p.keyOf(esk)
	if len(want) != len(esk) || !p.hasKeyTypes(esk) {
		return nil, p.startKeyError(len(want) == len(esk) && p.hasKeyNames(esk))
	}
	if p.ix == nil {
		k, err := p.t.encodeKey(esk)
		return k.storage, err
	}
	k := p.t.entryKey(p.ix, esk)
	if k == nil {
		return nil, p.startKeyError(false)
	}
	return k, nil
}

// hasKeyNames reports whether esk names every key attribute of the plan.
func (p *readPlan) hasKeyNames(esk attr.Item) bool {
	for _, k := range p.keyAttrs() {
		if _, ok := esk[k.name]; k.name != "" && !ok {
			return false
		}
	}
	return true
}

func (p *readPlan) hasKeyTypes(esk attr.Item) bool {
	for _, k := range p.keyAttrs() {
		if v, ok := esk[k.name]; k.name != "" && (!ok || v.Kind() != k.kind) {
			return false
		}
	}
	return true
}

// keyAttrs lists the table's key attributes and, on an index, every one of
// the index's (a name may repeat; an absent range key has no name).
func (p *readPlan) keyAttrs() []keyAttr {
	keys := []keyAttr{p.t.key.hash, p.t.key.rng}
	if p.ix != nil {
		keys = append(keys, p.ix.key.hashes...)
		keys = append(keys, p.ix.key.rngs...)
	}
	return keys
}

func minKey(a, b []byte) []byte {
	if len(a) == 0 || string(b) < string(a) {
		return b
	}
	return a
}

func maxKey(a, b []byte) []byte {
	if string(b) > string(a) {
		return b
	}
	return a
}

// indexRange bounds every entry of the table (ix nil) or of an index.
func (t *table) indexRange(ix *indexSchema) (lo, hi []byte) {
	var id uint16
	if ix != nil {
		id = ix.id
	}
	lo = storage.ItemPrefix(t.meta.ID, id)
	return lo, storage.PrefixEnd(lo)
}
