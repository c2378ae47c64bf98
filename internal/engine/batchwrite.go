package engine

import (
	"cmp"
	"context"
	"maps"
	"slices"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/storage"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// BatchWriteItem puts and deletes up to 25 items across tables. Every
// request is checked before any item is read, and all the changes commit
// in one batch, so a batch is written whole or not at all. Only capacity
// enforcement and transactions leave items unprocessed: the requests
// refused capacity, and those for items an in-flight transaction holds,
// are answered in UnprocessedItems, unwritten, and a batch whose every
// request is refused capacity fails as DynamoDB fails it.
func (e *Engine) BatchWriteItem(_ context.Context, in *protocol.BatchWriteItemInput) (*protocol.BatchWriteItemOutput, error) {
	if err := validate.BatchWriteItem(in); err != nil {
		return nil, err
	}
	plan, err := e.planWrites(in.RequestItems)
	if err != nil {
		return nil, err
	}
	unprocessed := map[string][]protocol.WriteRequest{}
	units, err := e.applyAll(plan, unprocessed)
	if err != nil {
		return nil, err
	}
	return &protocol.BatchWriteItemOutput{
		UnprocessedItems:      unprocessed,
		ConsumedCapacity:      units.report(in.ReturnConsumedCapacity),
		ItemCollectionMetrics: e.batchCollections(plan, in.ReturnItemCollectionMetrics),
	}, nil
}

// batchCollections lists, per table, each item collection the batch wrote
// to, once.
func (e *Engine) batchCollections(plan []batchWrite, mode *string) map[string][]protocol.ItemCollectionMetrics {
	var out map[string][]protocol.ItemCollectionMetrics
	seen := map[string]bool{}
	for _, p := range plan {
		if p.refused {
			continue
		}
		m := e.collectionMetrics(p.t, mode, p.ref)
		ck := string(p.t.collectionKey(p.ref))
		if m == nil || seen[ck] {
			continue
		}
		seen[ck] = true
		if out == nil {
			out = map[string][]protocol.ItemCollectionMetrics{}
		}
		name := p.t.meta.Desc.TableName
		out[name] = append(out[name], *m)
	}
	return out
}

// batchWrite is one checked request of a batch: a put of item, or a
// delete when item is nil.
type batchWrite struct {
	t     *table
	table string // the table as the request named it (name or ARN)
	key   itemKey
	item  attr.Item
	ref   attr.Item // the put's item or the delete's key
	// free is an import's write, which consumes no capacity
	// (importtable.go).
	free bool
	// refused is set when capacity refused the request or a transaction
	// held its item: it is returned unprocessed, and no collection metrics
	// speak of it.
	refused bool
}

// planWrites resolves every table, then checks every request against its
// table as PutItem and DeleteItem would, then refuses an item written twice.
func (e *Engine) planWrites(items map[string][]protocol.WriteRequest) ([]batchWrite, error) {
	refs := slices.Sorted(maps.Keys(items))
	tables, err := e.itemTables(refs)
	if err != nil {
		return nil, err
	}
	var plan []batchWrite
	keys := make([]itemKey, 0, validate.MaxBatchWrites)
	for i, ref := range refs {
		for _, w := range items[ref] {
			bw, err := tables[i].checkWrite(w)
			if err != nil {
				return nil, err
			}
			bw.table = ref
			plan = append(plan, bw)
			keys = append(keys, bw.key)
		}
	}
	return plan, distinct(keys)
}

// itemTables resolves several table names or ARNs, in order.
func (e *Engine) itemTables(refs []string) ([]*table, error) {
	tables := make([]*table, len(refs))
	for i, ref := range refs {
		t, err := e.itemTable(ref)
		if err != nil {
			return nil, err
		}
		tables[i] = t
	}
	return tables, nil
}

// checkWrite checks one request against its table, as PutItem or
// DeleteItem checks its item or key.
func (t *table) checkWrite(w protocol.WriteRequest) (batchWrite, error) {
	if w.PutRequest != nil {
		k, err := t.checkPut(w.PutRequest.Item)
		return batchWrite{t: t, key: k, item: w.PutRequest.Item, ref: w.PutRequest.Item}, err
	}
	k, err := t.keyFromKey(w.DeleteRequest.Key)
	return batchWrite{t: t, key: k, ref: w.DeleteRequest.Key}, err
}

// applyAll locks every item of the batch, reads each one's current version
// and commits every change in one batch. It returns the capacity consumed
// per table, each request charged as PutItem or DeleteItem would be: a
// delete of a missing item still costs one unit. Requests for items a
// transaction holds go to unprocessed, as do requests refused capacity;
// when every request is refused capacity, the batch fails with the first
// refusal.
func (e *Engine) applyAll(plan []batchWrite, unprocessed map[string][]protocol.WriteRequest) (*usages, error) {
	release, held := e.strongHolds(plan)
	defer release()
	units, err := e.applyAllHere(plan, unprocessed, held)
	if err != nil {
		return nil, err
	}
	for _, p := range plan {
		if !p.refused && p.t.strong() {
			if err := e.sendStrong(p.t, p.key, p.t.keyOf(p.ref), p.item); err != nil {
				return nil, err
			}
		}
	}
	return units, nil
}

// applyAllHere is applyAll in this region's replicas; the requests
// another region holds (held, by plan index) are left unprocessed.
func (e *Engine) applyAllHere(plan []batchWrite, unprocessed map[string][]protocol.WriteRequest, held []bool) (*usages, error) {
	hashes := make([]uint64, len(plan))
	for i, p := range plan {
		hashes[i] = p.key.hash
	}
	var units *usages
	err := e.retryStale(func() error {
		clear(unprocessed) // a try that lost leaves nothing behind
		for i := range plan {
			plan[i].refused = false
		}
		unlock := e.locks.lockAll(hashes)
		var b *storage.Batch
		var err error
		units, b, err = e.applyAllLocked(plan, unprocessed, held)
		unlock() // once applied, before the sync (see applyBatch)
		return durable(b, err)
	})
	if err != nil {
		return nil, err
	}
	return units, nil
}

func (e *Engine) applyAllLocked(plan []batchWrite, unprocessed map[string][]protocol.WriteRequest, held []bool) (*usages, *storage.Batch, error) {
	units := batchUsages()
	ws := make([]write, 0, len(plan))
	var refused error
	for i, p := range plan {
		if held[i] || e.holds.held(p.key.storage) {
			plan[i].leave(unprocessed)
			continue
		}
		d, err := e.admitBatch(p)
		if err != nil {
			refused = cmp.Or(refused, err)
			plan[i].leave(unprocessed)
			continue
		}
		old, mark, err := e.readForWrite(p.key)
		if err != nil {
			return nil, nil, err
		}
		e.spendWrite(d, p.t, old, p.item, nil)
		p.t.chargeWrite(units.of(p.table, false), old, p.item, 1)
		if old != nil || p.item != nil {
			ws = append(ws, write{t: p.t, key: p.key, old: old, new: p.item, read: mark})
		}
	}
	if refused != nil && len(units.by) == 0 {
		return nil, nil, refused
	}
	if len(ws) == 0 {
		return units, nil, nil
	}
	b, err := e.applyBatch(ws, nil)
	return units, b, err
}

// leave returns p unprocessed, unwritten.
func (p *batchWrite) leave(unprocessed map[string][]protocol.WriteRequest) {
	unprocessed[p.table] = append(unprocessed[p.table], p.request())
	p.refused = true
}

// request is the write request p came from, as UnprocessedItems returns it.
func (p *batchWrite) request() protocol.WriteRequest {
	if p.item != nil {
		return protocol.WriteRequest{PutRequest: &protocol.PutRequest{Item: p.item}}
	}
	return protocol.WriteRequest{DeleteRequest: &protocol.DeleteRequest{Key: p.ref}}
}
