package metrics

import (
	"strings"
	"time"

	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/server"
)

// Observe counts the capacity one call consumed (server.CallObserver):
// the server has asked for it by index, so each index's share counts
// under its name and the table's own under index "".
func (m *Metrics) Observe(op string, in, out any, _ error, _ time.Duration) {
	server.EachCapacity(out, func(c *protocol.ConsumedCapacity) {
		table, read := tableName(c.TableName), reads(op, in, c)
		if c.CapacityUnits != nil {
			m.window.Consume(table, read, *c.CapacityUnits)
		}
		if c.Table == nil { // no breakdown: the whole is the table's
			m.consume(table, "", read, c.CapacityUnits)
			return
		}
		m.consume(table, "", read, c.Table.CapacityUnits)
		for name, u := range c.GlobalSecondaryIndexes {
			m.consume(table, name, read, u.CapacityUnits)
		}
		for name, u := range c.LocalSecondaryIndexes {
			m.consume(table, name, read, u.CapacityUnits)
		}
	})
}

func (m *Metrics) consume(table, index string, read bool, units *float64) {
	if units == nil || *units == 0 {
		return
	}
	c := m.capacity.get(capKey{table, index})
	if read {
		c.read.Add(*units)
	} else {
		c.write.Add(*units)
	}
}

// tableName is the table an entry names: requests may name a table by
// its ARN, and the entry names it as the request did.
func tableName(ref string) string {
	if !strings.HasPrefix(ref, "arn:") {
		return ref
	}
	_, name, _ := strings.Cut(ref, ":table/")
	return name
}

// reads tells whether capacity entry c of call op was read capacity. A
// transaction's entries say so themselves; other operations either read
// or write, PartiQL's by their statements (a batch's are all reads or all
// writes).
func reads(op string, in any, c *protocol.ConsumedCapacity) bool {
	switch {
	case c.ReadCapacityUnits != nil:
		return true
	case c.WriteCapacityUnits != nil:
		return false
	}
	switch op {
	case "GetItem", "Query", "Scan", "BatchGetItem", "TransactGetItems":
		return true
	case "ExecuteStatement", "BatchExecuteStatement", "ExecuteTransaction":
		return selects(firstStatement(in))
	}
	return false
}

func firstStatement(in any) string {
	var s *string
	switch in := in.(type) {
	case *protocol.ExecuteStatementInput:
		s = in.Statement
	case *protocol.BatchExecuteStatementInput:
		if len(in.Statements) > 0 {
			s = in.Statements[0].Statement
		}
	case *protocol.ExecuteTransactionInput:
		if len(in.TransactStatements) > 0 {
			s = in.TransactStatements[0].Statement
		}
	}
	if s == nil {
		return ""
	}
	return *s
}

// selects tells whether a PartiQL statement is a SELECT.
func selects(stmt string) bool {
	stmt = strings.TrimLeft(stmt, " \t\r\n")
	return len(stmt) >= 6 && strings.EqualFold(stmt[:6], "SELECT")
}
