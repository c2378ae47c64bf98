package partiql

import "github.com/sortkeydb/sortkey/internal/protocol"

// capacities sums the capacity of several operations, one entry per table
// in the order tables are first met, as BatchExecuteStatement reports it.
type capacities struct {
	list []protocol.ConsumedCapacity
}

func (c *capacities) add(cc *protocol.ConsumedCapacity) {
	if cc == nil {
		return
	}
	for i := range c.list {
		if c.list[i].TableName == cc.TableName {
			merge(&c.list[i], cc)
			return
		}
	}
	c.list = append(c.list, *cc)
}

// merge adds b's units into a, member by member.
func merge(a, b *protocol.ConsumedCapacity) {
	a.CapacityUnits = sum(a.CapacityUnits, b.CapacityUnits)
	a.ReadCapacityUnits = sum(a.ReadCapacityUnits, b.ReadCapacityUnits)
	a.WriteCapacityUnits = sum(a.WriteCapacityUnits, b.WriteCapacityUnits)
	if b.Table != nil {
		if a.Table == nil {
			a.Table = &protocol.Capacity{}
		}
		a.Table.CapacityUnits = sum(a.Table.CapacityUnits, b.Table.CapacityUnits)
		a.Table.ReadCapacityUnits = sum(a.Table.ReadCapacityUnits, b.Table.ReadCapacityUnits)
		a.Table.WriteCapacityUnits = sum(a.Table.WriteCapacityUnits, b.Table.WriteCapacityUnits)
	}
	a.GlobalSecondaryIndexes = mergeIndexes(a.GlobalSecondaryIndexes, b.GlobalSecondaryIndexes)
	a.LocalSecondaryIndexes = mergeIndexes(a.LocalSecondaryIndexes, b.LocalSecondaryIndexes)
}

func mergeIndexes(a, b map[string]protocol.Capacity) map[string]protocol.Capacity {
	for name, cb := range b {
		if a == nil {
			a = map[string]protocol.Capacity{}
		}
		ca := a[name]
		a[name] = protocol.Capacity{CapacityUnits: sum(ca.CapacityUnits, cb.CapacityUnits),
			ReadCapacityUnits: sum(ca.ReadCapacityUnits, cb.ReadCapacityUnits), WriteCapacityUnits: sum(ca.WriteCapacityUnits, cb.WriteCapacityUnits)}
	}
	return a
}

// sum adds two optional amounts; nil when both are absent.
func sum(a, b *float64) *float64 {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	s := *a + *b
	return &s
}
