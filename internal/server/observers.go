package server

import (
	"time"

	"github.com/sortkeydb/sortkey/internal/protocol"
)

// CallObserver sees each call the engine ran, as an Observer does, without
// serving a report: metrics count capacity by table and index with one.
type CallObserver interface {
	// Observe is one call: its operation name, the decoded input, the
	// engine's output (nil on error) and how long the engine took. The
	// output carries the consumed capacity, broken down by index,
	// whether or not the client asked for it (see askCapacity). Neither
	// in nor out may be kept or changed.
	Observe(op string, in, out any, err error, took time.Duration)
}

// AddObserver makes o see every call too, beside the Observer; the
// capacity they all need is asked of the engine once per call. Add it
// before the handler serves.
func (h *Handler) AddObserver(o CallObserver) { h.observers = append(h.observers, o) }

// giveBackCapacity makes out's consumed capacity what the client asked
// for (sent) after askCapacity asked INDEXES: none for none, the totals
// without the breakdown for TOTAL.
func giveBackCapacity(out any, sent *string) {
	if sent == nil || *sent != "TOTAL" {
		unaskCapacity(out)
		return
	}
	EachCapacity(out, func(c *protocol.ConsumedCapacity) {
		c.Table, c.GlobalSecondaryIndexes, c.LocalSecondaryIndexes = nil, nil, nil
	})
}

// EachCapacity calls fn with each ConsumedCapacity entry of an engine
// output (one per table for batches and transactions), none when it has
// none.
func EachCapacity(out any, fn func(*protocol.ConsumedCapacity)) {
	one, many := capacityOf(out)
	if one != nil {
		fn(one)
	}
	for i := range many {
		fn(&many[i])
	}
}

func capacityOf(out any) (*protocol.ConsumedCapacity, []protocol.ConsumedCapacity) {
	switch out := out.(type) {
	case *protocol.GetItemOutput:
		return out.ConsumedCapacity, nil
	case *protocol.ReadOutput:
		return out.ConsumedCapacity, nil
	case *protocol.PutItemOutput:
		return out.ConsumedCapacity, nil
	case *protocol.UpdateItemOutput:
		return out.ConsumedCapacity, nil
	case *protocol.DeleteItemOutput:
		return out.ConsumedCapacity, nil
	case *protocol.ExecuteStatementOutput:
		return out.ConsumedCapacity, nil
	case *protocol.BatchGetItemOutput:
		return nil, out.ConsumedCapacity
	case *protocol.BatchWriteItemOutput:
		return nil, out.ConsumedCapacity
	case *protocol.TransactGetItemsOutput:
		return nil, out.ConsumedCapacity
	case *protocol.TransactWriteItemsOutput:
		return nil, out.ConsumedCapacity
	case *protocol.BatchExecuteStatementOutput:
		return nil, out.ConsumedCapacity
	case *protocol.ExecuteTransactionOutput:
		return nil, out.ConsumedCapacity
	}
	return nil, nil
}
