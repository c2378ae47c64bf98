package engine

import (
	"encoding/binary"
	"errors"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/storage"
	"github.com/sortkeydb/sortkey/internal/throttle"
)

// Limiter enforces tables' capacity (Options.Limiter, *throttle.Limiter).
// Every operation that reads or writes items asks Admit before it touches
// anything and, once it has, tells Charge what it consumed, in the units
// its ConsumedCapacity reports. nil, the default, enforces nothing and
// costs each operation one comparison.
//
// Implementations MUST be safe for concurrent use. Admit MUST NOT take
// capacity (a request admitted may still fail); Charge MUST take it even
// past zero, since DynamoDB lets one request run a table into debt.
type Limiter interface {
	Admit(r *throttle.Request) error
	Charge(r *throttle.Request, units []float64)
}

// partitionAt is where a storage key's partition-key hash starts: after
// the item prefix (see storage.ItemKey).
var partitionAt = len(storage.ItemPrefix(0, 0))

// admit asks the limiter about a request on t that reads ix (nil: the
// table or one of its local secondary indexes) or writes, within the
// partition whose storage key starts part (nil: no single partition). The
// request it returns is nil when nothing is enforced.
func (e *Engine) admit(t *table, write bool, ix *indexSchema, part []byte) (*throttle.Request, error) {
	if e.limit == nil {
		return nil, nil
	}
	d := t.alive.current.Load().demand(write, ix)
	if len(part) >= partitionAt+8 {
		d.Keyed, d.Partition = true, binary.BigEndian.Uint64(part[partitionAt:])
	}
	if err := e.limit.Admit(d); err != nil {
		return nil, err
	}
	return d, nil
}

// spend charges what an admitted request consumed: a table is charged its
// own units and its local secondary indexes' (which share its capacity),
// a global secondary index its own.
func (e *Engine) spend(d *throttle.Request, u *usage) {
	if d == nil {
		return
	}
	units := make([]float64, len(d.Resources))
	for i, r := range d.Resources {
		if r.Index != "" {
			units[i] = u.global[r.Index]
			continue
		}
		units[i] = u.table
		for _, v := range u.local {
			units[i] += v
		}
	}
	e.limit.Charge(d, units)
}

// spendWrite charges a single-item write that replaced old with new, or
// whose condition failed: DynamoDB charges a failed condition the write
// of the item as it is, and nothing to the indexes it left alone.
func (e *Engine) spendWrite(d *throttle.Request, t *table, old, new attr.Item, err error) {
	if d == nil {
		return
	}
	u := &usage{}
	var ae *apierr.Error
	switch {
	case err == nil:
		t.chargeWrite(u, old, new, 1)
	case errors.As(err, &ae) && ae.Code == apierr.ConditionalCheckFailed:
		u.table = writeUnits(old, nil)
	default:
		return
	}
	e.spend(d, u)
}

// demand is what a request on t uses: the global secondary index it
// reads, or the table, and for a write every global secondary index too.
func (t *table) demand(write bool, ix *indexSchema) *throttle.Request {
	d := &t.meta.Desc
	onDemand := billingMode(d) == "PAY_PER_REQUEST"
	r := &throttle.Request{Write: write}
	if ix != nil && ix.global {
		r.Resources = []throttle.Resource{gsiCapacity(t.meta.ID, t.gsiDesc(ix.name), onDemand, write)}
		return r
	}
	res := capacityOf(d.ProvisionedThroughput, d.OnDemandThroughput, onDemand, write)
	res.Table, res.ARN = t.meta.ID, d.TableArn
	r.Resources = append(make([]throttle.Resource, 0, 1+len(d.GlobalSecondaryIndexes)), res)
	if !write {
		return r
	}
	for i := range d.GlobalSecondaryIndexes {
		r.Resources = append(r.Resources, gsiCapacity(t.meta.ID, &d.GlobalSecondaryIndexes[i], onDemand, write))
	}
	return r
}

// gsiDesc is the description of t's global secondary index name.
func (t *table) gsiDesc(name string) *protocol.GlobalSecondaryIndexDescription {
	for i := range t.meta.Desc.GlobalSecondaryIndexes {
		if g := &t.meta.Desc.GlobalSecondaryIndexes[i]; g.IndexName == name {
			return g
		}
	}
	return &protocol.GlobalSecondaryIndexDescription{IndexName: name}
}

// gsiCapacity is a global secondary index of table id as a resource.
func gsiCapacity(id uint64, g *protocol.GlobalSecondaryIndexDescription, onDemand, write bool) throttle.Resource {
	res := capacityOf(g.ProvisionedThroughput, g.OnDemandThroughput, onDemand, write)
	res.Table, res.Index, res.ARN = id, g.IndexName, g.IndexArn
	return res
}

// capacityOf is a table's or index's capacity in one direction: its
// provisioned throughput, or on demand its maximum if it has one.
func capacityOf(pt *protocol.ProvisionedThroughputDescription, od *protocol.OnDemandThroughput, onDemand, write bool) throttle.Resource {
	var res throttle.Resource
	switch {
	case onDemand && od != nil:
		m := od.MaxReadRequestUnits
		if write {
			m = od.MaxWriteRequestUnits
		}
		if m != nil {
			res.Mode, res.Units = throttle.OnDemandMax, float64(*m)
		}
	case !onDemand && pt != nil:
		n := pt.ReadCapacityUnits
		if write {
			n = pt.WriteCapacityUnits
		}
		res.Mode, res.Units = throttle.Provisioned, float64(n)
	}
	return res
}

// throttleReason is the cancellation reason of a transaction's action
// refused capacity: DynamoDB names provisioned throughput exceeded and
// other throttling apart.
func throttleReason(err error) (protocol.CancellationReason, bool) {
	var ae *apierr.Error
	if !errors.As(err, &ae) {
		return protocol.CancellationReason{}, false
	}
	switch ae.Code {
	case apierr.ProvisionedThroughputExceeded:
		return protocol.CancellationReason{Code: "ProvisionedThroughputExceeded", Message: ae.Message}, true
	case apierr.Throttling:
		return protocol.CancellationReason{Code: "ThrottlingError", Message: ae.Message}, true
	}
	return protocol.CancellationReason{}, false
}

// txSpent is a transaction's actions' consumption, charged only when
// every action is admitted; nil when nothing is enforced.
type txSpent struct {
	demands []*throttle.Request
	uses    []*usage
}

func (e *Engine) txSpending(n int) *txSpent {
	if e.limit == nil {
		return nil
	}
	return &txSpent{demands: make([]*throttle.Request, 0, n), uses: make([]*usage, 0, n)}
}

// add records an action that replaces old with next, at a transaction's
// price.
func (s *txSpent) add(d *throttle.Request, t *table, old, next attr.Item) {
	if s == nil {
		return
	}
	u := &usage{}
	t.chargeWrite(u, old, next, txFactor)
	s.demands, s.uses = append(s.demands, d), append(s.uses, u)
}

func (s *txSpent) charge(e *Engine) {
	if s == nil {
		return
	}
	for i, d := range s.demands {
		e.spend(d, s.uses[i])
	}
}

// admitGets admits every read of a TransactGetItems, or cancels the
// transaction with a reason for each read refused; nil when nothing is
// enforced.
func (e *Engine) admitGets(gets []txGet) ([]*throttle.Request, error) {
	if e.limit == nil {
		return nil, nil
	}
	demands := make([]*throttle.Request, len(gets))
	reasons := make([]protocol.CancellationReason, len(gets))
	failed := false
	for i, g := range gets {
		d, err := e.admit(g.t, false, nil, g.key.storage)
		reasons[i], demands[i] = protocol.CancellationReason{Code: "None"}, d
		if reason, ok := throttleReason(err); ok {
			reasons[i], failed = reason, true
		} else if err != nil {
			return nil, err
		}
	}
	if failed {
		return nil, canceled(reasons)
	}
	return demands, nil
}
