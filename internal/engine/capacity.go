package engine

import (
	"bytes"
	"math"
	"slices"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// Consumed capacity follows the Developer Guide: reads cost a unit per
// 4 KB started, half for an eventually consistent read, double for a
// transactional one; writes cost a unit per 1 KB started, double in a
// transaction; each secondary index is charged for the entries a write
// puts, rewrites or deletes in it. docs/COMPATIBILITY.md lists the rules
// and the choices made where the guide is silent.

const (
	readUnitBytes  = 4096
	writeUnitBytes = 1024
)

// usage is what one request consumed on one table: on the table itself
// and on each of its indexes, in units already rounded. A request either
// reads or writes, so one kind of unit is enough. Only a transaction's
// answer names that kind (split): the AWS CLI's examples show
// ReadCapacityUnits or WriteCapacityUnits beside CapacityUnits for
// TransactGetItems and TransactWriteItems, and CapacityUnits alone for
// every other operation, with TOTAL and INDEXES alike.
type usage struct {
	read   bool
	split  bool
	table  float64
	global map[string]float64 // by index name
	local  map[string]float64
	vector map[string]float64 // bytes written to vector indexes, by name
}

// addIndex charges an index; an index charged nothing was not affected
// and is not reported.
func (u *usage) addIndex(ix *indexSchema, units float64) {
	if units == 0 {
		return
	}
	m := &u.local
	if ix.global {
		m = &u.global
	}
	if *m == nil {
		*m = map[string]float64{}
	}
	(*m)[ix.name] += units
}

// total is the table's units plus every index's: TOTAL reports index
// consumption too, and INDEXES breaks the same sum down.
func (u *usage) total() float64 {
	sum := u.table
	for _, v := range u.global {
		sum += v
	}
	for _, v := range u.local {
		sum += v
	}
	return sum
}

// halve makes a read eventually consistent.
func (u *usage) halve() {
	u.table /= 2
	for _, m := range []map[string]float64{u.global, u.local} {
		for k := range m {
			m[k] /= 2
		}
	}
}

// report is the ConsumedCapacity the request asked for, or nil. table is
// the table as the request named it: the API Reference returns an ARN
// when the request gave one.
func (u *usage) report(mode *string, table string) *protocol.ConsumedCapacity {
	if mode == nil || *mode == "NONE" {
		return nil
	}
	sum := u.units(u.total())
	c := &protocol.ConsumedCapacity{TableName: table, CapacityUnits: sum.CapacityUnits,
		ReadCapacityUnits: sum.ReadCapacityUnits, WriteCapacityUnits: sum.WriteCapacityUnits}
	if *mode == "INDEXES" {
		u.breakDown(c)
	}
	return c
}

// breakDown adds the table's and each affected index's share. The Table
// entry is always there, with 0 units when only an index was read: so the
// AWS CLI's example of a Query on a local secondary index shows it.
func (u *usage) breakDown(c *protocol.ConsumedCapacity) {
	t := u.units(u.table)
	c.Table = &t
	c.GlobalSecondaryIndexes = u.byIndex(u.global)
	c.LocalSecondaryIndexes = u.byIndex(u.local)
	c.VectorIndexes = u.vectorBytes()
}

func (u *usage) byIndex(m map[string]float64) map[string]protocol.Capacity {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]protocol.Capacity, len(m))
	for name, v := range m {
		out[name] = u.units(v)
	}
	return out
}

// units is one Capacity: the total and, in a transaction's answer, the
// same number as read or write units, the member naming the kind consumed.
func (u *usage) units(v float64) protocol.Capacity {
	c := protocol.Capacity{CapacityUnits: &v}
	if !u.split {
		return c
	}
	if u.read {
		c.ReadCapacityUnits = &v
	} else {
		c.WriteCapacityUnits = &v
	}
	return c
}

// usages are a batch's or transaction's usage per table, keyed by the
// table as the request named it.
type usages struct {
	by    map[string]*usage
	order []string // the tables in the order the request first names them
	txn   bool
}

// batchUsages reports one entry per table in name order: a batch names
// its tables as the members of a JSON object, which have no order.
func batchUsages() *usages { return &usages{by: map[string]*usage{}} }

// txnUsages reports one entry per table in the order of the transaction's
// items, as the API Reference orders TransactWriteItems' ConsumedCapacity,
// each with the read/write split.
func txnUsages() *usages { return &usages{by: map[string]*usage{}, txn: true} }

func (us *usages) of(table string, read bool) *usage {
	u := us.by[table]
	if u == nil {
		u = &usage{read: read, split: us.txn}
		us.by[table] = u
		us.order = append(us.order, table)
	}
	return u
}

// report is one ConsumedCapacity per table, or nil.
func (us *usages) report(mode *string) []protocol.ConsumedCapacity {
	if mode == nil || *mode == "NONE" {
		return nil
	}
	names := us.order
	if !us.txn {
		names = slices.Sorted(slices.Values(us.order))
	}
	out := make([]protocol.ConsumedCapacity, 0, len(names))
	for _, name := range names {
		out = append(out, *us.by[name].report(mode, name))
	}
	return out
}

// readUnits is one unit per 4 KB started, at least one (a missing item
// costs the minimum); half that for an eventually consistent read.
func readUnits(it attr.Item, consistent bool) float64 {
	return sizeReadUnits(it.Size(), consistent)
}

// sizeReadUnits is readUnits for an item of the given size.
func sizeReadUnits(size int, consistent bool) float64 {
	u := roundUp(size, readUnitBytes)
	if !consistent {
		u /= 2
	}
	return u
}

// writeUnits is one unit per KB started of the larger of the item before
// and after, and at least one.
func writeUnits(old, new attr.Item) float64 {
	return roundUp(max(old.Size(), new.Size()), writeUnitBytes)
}

// roundUp is size in units of unit bytes, rounded up, at least one.
func roundUp(size, unit int) float64 {
	return math.Max(1, math.Ceil(float64(size)/float64(unit)))
}

// chargeWrite adds replacing old with new (either nil when absent) to u:
// the table's units times factor (2 in a transaction, which prepares and
// commits the item), and each index's units for its entry, once (an index
// is updated after the commit, never prepared). Indexes are those of the
// table's current definition, as the commit maintains them.
func (t *table) chargeWrite(u *usage, old, new attr.Item, factor float64) {
	t = t.alive.current.Load()
	u.table += factor * writeUnits(old, new)
	for i := range t.indexes {
		ix := &t.indexes[i]
		if ix.vec != nil {
			u.addVector(ix.name, t.vectorWriteBytes(ix, old, new))
			continue
		}
		u.addIndex(ix, t.indexWriteUnits(ix, old, new))
	}
}

// indexWriteUnits is what a write costs one index, by the Developer
// Guide's provisioned throughput considerations for secondary indexes:
// an entry added or removed is one write of its size, an entry whose index
// key changed is a delete plus a put, an entry whose projected attributes
// changed is one write of the larger of its versions, and an item in the
// index neither before nor after, or whose entry is unchanged, costs
// nothing.
func (t *table) indexWriteUnits(ix *indexSchema, old, new attr.Item) float64 {
	a, b := t.entryOf(ix, old), t.entryOf(ix, new)
	if !bytes.Equal(a.key, b.key) {
		return a.units() + b.units()
	}
	if a.key == nil || sameItem(a.item, b.item) {
		return 0
	}
	return writeUnits(a.item, b.item)
}

// indexEntry is an item's entry in one index; key is nil when the item is
// not in the index.
type indexEntry struct {
	key  []byte
	item attr.Item
}

func (t *table) entryOf(ix *indexSchema, it attr.Item) indexEntry {
	k := t.entryKey(ix, it)
	if k == nil {
		return indexEntry{}
	}
	return indexEntry{key: k, item: t.projectInto(ix, it)}
}

// units is the cost of putting or deleting the entry: its projected
// attributes sized by the item-size rules, per 1 KB started.
func (e indexEntry) units() float64 {
	if e.key == nil {
		return 0
	}
	return writeUnits(e.item, nil)
}

func sameItem(a, b attr.Item) bool {
	return attr.Equal(&attr.Value{M: a}, &attr.Value{M: b})
}

// writeReport is the ConsumedCapacity of a single-item write, when asked
// for. A failed condition returns no capacity: DynamoDB charges it but
// says nothing of it in the error.
func (t *table) writeReport(mode *string, table string, old, new attr.Item) *protocol.ConsumedCapacity {
	if mode == nil || *mode == "NONE" {
		return nil
	}
	u := &usage{}
	t.chargeWrite(u, old, new, 1)
	return u.report(mode, table)
}
