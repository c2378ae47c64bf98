package engine

import (
	"cmp"
	"context"
	"maps"
	"slices"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/expr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// maxBatchGetBytes is the response size past which BatchGetItem leaves the
// remaining keys in UnprocessedKeys, summing the sizes of the items it
// returns by the Developer Guide's item-size rules. The API Reference's
// "16 MB" is 16,000,000 bytes here: that is the reading under which its
// own example holds (100 items of 300 KB give 52 items), which 16 MiB
// would not (54).
const maxBatchGetBytes = 16_000_000

// BatchGetItem reads up to 100 items from one or more tables. Every table
// and key is checked before any item is read, so a bad request reads
// nothing. Like GetItem, every read is strongly consistent unless stale
// reads are on and the table's part has ConsistentRead false.
func (e *Engine) BatchGetItem(_ context.Context, in *protocol.BatchGetItemInput) (*protocol.BatchGetItemOutput, error) {
	if err := validate.BatchGetItem(in); err != nil {
		return nil, err
	}
	plan, err := e.planGets(in.RequestItems)
	if err != nil {
		return nil, err
	}
	r := newBatchRead(len(plan))
	for i := range plan {
		if err := e.readTable(&plan[i], r); err != nil {
			return nil, err
		}
	}
	if r.refused != nil && len(r.units.by) == 0 {
		return nil, r.refused
	}
	r.out.ConsumedCapacity = r.units.report(in.ReturnConsumedCapacity)
	return r.out, nil
}

// tableGets is one table's part of a BatchGetItem, checked and resolved.
type tableGets struct {
	ref  string // the table name or ARN as the request gave it: it keys the response
	req  protocol.KeysAndAttributes
	t    *table
	proj expr.Projection
	keys []itemKey // one per req.Keys, in order
}

// planGets checks every table's part of the request in table order:
// first every projection, which needs no table, then each table and its
// keys; then it refuses an item asked for twice, even under two names for
// its table.
func (e *Engine) planGets(items map[string]protocol.KeysAndAttributes) ([]tableGets, error) {
	refs := slices.Sorted(maps.Keys(items))
	plan := make([]tableGets, len(refs))
	for i, ref := range refs {
		plan[i] = tableGets{ref: ref, req: items[ref]}
		var err error
		if plan[i].proj, err = parseProjection(plan[i].req.ProjectionExpression, plan[i].req.ExpressionAttributeNames); err != nil {
			return nil, err
		}
	}
	var all []itemKey
	for i := range plan {
		if err := e.resolveGets(&plan[i]); err != nil {
			return nil, err
		}
		all = append(all, plan[i].keys...)
	}
	return plan, distinct(all)
}

// resolveGets looks up one part's table and checks its keys there.
func (e *Engine) resolveGets(g *tableGets) (err error) {
	if g.t, err = e.itemTable(g.ref); err != nil {
		return err
	}
	g.keys = make([]itemKey, len(g.req.Keys))
	for i, k := range g.req.Keys {
		if g.keys[i], err = g.t.keyFromKey(k); err != nil {
			return err
		}
	}
	return nil
}

// distinct refuses a batch naming one item twice.
func distinct(keys []itemKey) error {
	seen := make(map[string]bool, len(keys))
	for _, k := range keys {
		if seen[string(k.storage)] {
			return validate.DuplicateKeys()
		}
		seen[string(k.storage)] = true
	}
	return nil
}

// batchRead is a BatchGetItem's response as it fills up.
type batchRead struct {
	out   *protocol.BatchGetItemOutput
	bytes int     // size of the items in the response so far
	full  bool    // the size limit was reached: the rest is unprocessed
	units *usages // read units consumed, by table as the request named it
	// refused is the first refusal of capacity; a table refused leaves
	// the rest of its keys unprocessed.
	refused error
}

// newBatchRead starts an empty response: DynamoDB always sends both maps.
func newBatchRead(tables int) *batchRead {
	return &batchRead{
		out: &protocol.BatchGetItemOutput{
			Responses:       make(map[string][]protocol.Item, tables),
			UnprocessedKeys: map[string]protocol.KeysAndAttributes{},
		},
		units: batchUsages(),
	}
}

// readTable reads one table's keys in order into the response. Once the
// response is full, this key and the rest go to UnprocessedKeys with the
// table's projection and consistency, ready to be sent again as they are.
func (e *Engine) readTable(g *tableGets, r *batchRead) error {
	items := make([]protocol.Item, 0, len(g.keys))
	for i := range g.keys {
		it, ok, err := e.readOne(g, i, r)
		if err != nil {
			return err
		}
		if !ok {
			r.out.UnprocessedKeys[g.ref] = g.from(i)
			break
		}
		if it != nil {
			items = append(items, it)
		}
	}
	r.out.Responses[g.ref] = items
	return nil
}

// readOne reads the table's i-th item as the response shows it (nil when
// it does not exist); ok is false when the response has no room for it.
// Capacity is charged on the stored item, whatever the projection keeps.
func (e *Engine) readOne(g *tableGets, i int, r *batchRead) (it attr.Item, ok bool, err error) {
	if r.full {
		return nil, false, nil
	}
	d, err := e.admit(g.t, false, nil, g.keys[i].storage)
	if err != nil {
		r.refused = cmp.Or(r.refused, err)
		return nil, false, nil
	}
	consistent := g.req.ConsistentRead != nil && *g.req.ConsistentRead
	stored, err := e.readItemAt(g.keys[i], e.asOf(nil, consistent))
	if err != nil {
		return nil, false, err
	}
	if stored != nil {
		it = project(stored, g.req.AttributesToGet, g.proj)
	}
	if r.bytes+it.Size() > maxBatchGetBytes {
		r.full = true
		return nil, false, nil
	}
	r.bytes += it.Size()
	units := readUnits(stored, consistent)
	r.units.of(g.ref, true).table += units
	e.spend(d, &usage{read: true, table: units})
	return it, true, nil
}

// from is the table's part of the request from its i-th key on.
func (g *tableGets) from(i int) protocol.KeysAndAttributes {
	ka := g.req
	ka.Keys = g.req.Keys[i:]
	return ka
}
