package coverage

import (
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// written is one item a write request puts, updates or deletes: its
// table and key (or whole item).
type written struct {
	table string
	key   attr.Item
	check bool // a transaction's condition check: named, not written
}

// write counts a write request: under the write pattern of its operation
// and entities when the design declares one, else under each entity
// written; an item of no entity is undeclared. Calls of other operations
// (tables, tags, streams) are no pattern's business and are not counted.
func (r *Recorder) write(c *call) {
	items, ok := writtenItems(c.in)
	if !ok {
		return
	}
	var rows []*entityRow
	for _, it := range items {
		c.written += boolInt(!it.check)
		er := r.entityOf(it.table, it.key)
		if er == nil {
			var buf termBuf
			terms, _ := keyTerms(it.key, buf[:0])
			r.note(c, describe(c.op, it.table, "", keyOnly(r, it.table, terms)), false)
			continue
		}
		if !containsRow(rows, er) {
			rows = append(rows, er)
		}
	}
	r.countWrite(c, rows)
}

func (r *Recorder) countWrite(c *call, rows []*entityRow) {
	if len(rows) == 0 {
		return
	}
	names := make([]string, len(rows))
	for i, er := range rows {
		names[i] = er.e.Name
	}
	if wp := r.writePatternFor(c.op, names); wp != nil {
		c.count(wp.stats, true)
		return
	}
	for i, er := range rows {
		if i == 1 {
			c.units, c.written = 0, 0
		}
		c.count(er.stats, true)
	}
}

func containsRow(rows []*entityRow, er *entityRow) bool {
	for _, x := range rows {
		if x == er {
			return true
		}
	}
	return false
}

// keyOnly keeps the terms of the table's key attributes, so that an
// undeclared Put is described by its key, not by every attribute.
func keyOnly(r *Recorder, table string, terms []term) []term {
	var keys []string
	for _, t := range r.d.Tables {
		if t.Name == table {
			keys = append(keys, t.PartitionKey.Name)
			if t.SortKey != nil {
				keys = append(keys, t.SortKey.Name)
			}
		}
	}
	out := terms[:0]
	for _, t := range terms {
		for _, k := range keys {
			if t.attr == k {
				out = append(out, t)
			}
		}
	}
	return out
}

// writtenItems are the items a write request names; false for a request
// that writes nothing.
func writtenItems(in any) ([]written, bool) {
	switch in := in.(type) {
	case *protocol.PutItemInput:
		return []written{{table: tableName(in.TableName), key: in.Item}}, true
	case *protocol.UpdateItemInput:
		return []written{{table: tableName(in.TableName), key: in.Key}}, true
	case *protocol.DeleteItemInput:
		return []written{{table: tableName(in.TableName), key: in.Key}}, true
	case *protocol.BatchWriteItemInput:
		return batchWritten(in), true
	case *protocol.TransactWriteItemsInput:
		return transactWritten(in), true
	}
	return nil, false
}

func batchWritten(in *protocol.BatchWriteItemInput) []written {
	var out []written
	for name, reqs := range in.RequestItems {
		for _, wr := range reqs {
			switch {
			case wr.PutRequest != nil:
				out = append(out, written{table: tableName(&name), key: wr.PutRequest.Item})
			case wr.DeleteRequest != nil:
				out = append(out, written{table: tableName(&name), key: wr.DeleteRequest.Key})
			}
		}
	}
	return out
}

// transactWritten are a transaction's items, condition checks included:
// a check on a uniqueness marker is part of what the write pattern
// declares.
func transactWritten(in *protocol.TransactWriteItemsInput) []written {
	var out []written
	for _, ti := range in.TransactItems {
		switch {
		case ti.Put != nil:
			out = append(out, written{table: tableName(ti.Put.TableName), key: ti.Put.Item})
		case ti.Update != nil:
			out = append(out, written{table: tableName(ti.Update.TableName), key: ti.Update.Key})
		case ti.Delete != nil:
			out = append(out, written{table: tableName(ti.Delete.TableName), key: ti.Delete.Key})
		case ti.ConditionCheck != nil:
			out = append(out, written{tableName(ti.ConditionCheck.TableName), ti.ConditionCheck.Key, true})
		}
	}
	return out
}
