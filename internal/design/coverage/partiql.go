package coverage

import (
	"errors"

	"github.com/sortkeydb/sortkey/internal/design"
	"github.com/sortkeydb/sortkey/internal/partiql"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// A PartiQL statement runs as the native request its plan makes (a
// SELECT by whole key is a GetItem, by partition key a Query, otherwise
// a Scan; INSERT a PutItem; ...). It is planned here by the partiql
// package's own planner, against the design's key schemas, and counted
// as that request would be: the design declares what runs, not how the
// application spells it.

// errNotDesigned is a statement on a table or index the design does not
// declare: it can serve no pattern.
var errNotDesigned = errors.New("coverage: no such table or index in the design")

// errExistsAlone is an EXISTS outside a transaction, which runs as no
// request.
var errExistsAlone = errors.New("coverage: EXISTS runs only in a transaction")

// notPlanned describes a PartiQL request that plans to no request.
const notPlanned = ", not planned"

// schemaOf answers the key schemas the design declares, as the engine
// would for tables created as designed.
func schemaOf(d *design.Design) partiql.Schema {
	m := map[[2]string][]protocol.KeySchemaElement{}
	for _, t := range d.Tables {
		k := keySchema(design.KeyAttrs{t.PartitionKey}, nil)
		if t.SortKey != nil {
			k = keySchema(design.KeyAttrs{t.PartitionKey}, design.KeyAttrs{*t.SortKey})
		}
		m[[2]string{t.Name, ""}] = k
		for _, ix := range append(append([]design.Index{}, t.GSIs...), t.LSIs...) {
			m[[2]string{t.Name, ix.Name}] = keySchema(ix.PartitionKey, ix.SortKey)
		}
	}
	return func(table, index string) ([]protocol.KeySchemaElement, error) {
		if k, ok := m[[2]string{table, index}]; ok {
			return k, nil
		}
		return nil, errNotDesigned
	}
}

func keySchema(hash, rng design.KeyAttrs) []protocol.KeySchemaElement {
	var out []protocol.KeySchemaElement
	for _, role := range []struct {
		attrs design.KeyAttrs
		typ   string
	}{{hash, "HASH"}, {rng, "RANGE"}} {
		for _, a := range role.attrs {
			out = append(out, protocol.KeySchemaElement{AttributeName: &a.Name, KeyType: &role.typ})
		}
	}
	return out
}

// statement counts an ExecuteStatement as the request it runs as.
func (r *Recorder) statement(c *call, in *protocol.ExecuteStatementInput, out any) {
	plan, err := r.planner.Statement(deref(in.Statement), in.Parameters)
	if err == nil && plan.Check != nil {
		err = errExistsAlone
	}
	if err != nil {
		r.note(c, c.op+notPlanned, false)
		return
	}
	c.later = in.NextToken != nil
	c.read(out)
	c.via, c.viaOp = in, c.op
	c.op, c.in = plan.Native()
	r.classify(c)
}

// transaction counts an ExecuteTransaction as the TransactGetItems or
// TransactWriteItems it runs as.
func (r *Recorder) transaction(c *call, in *protocol.ExecuteTransactionInput, out any) {
	op, native, err := r.planner.Transaction(in)
	if err != nil {
		r.note(c, c.op+notPlanned, false)
		return
	}
	c.read(out)
	c.via, c.viaOp = in, c.op
	c.op, c.in = op, native
	r.classify(c)
}

// batchStatements counts each statement of a BatchExecuteStatement as the
// request it runs as, with its own response's item and error; the
// capacity, which the answer gives per table, goes to the first, as for
// BatchGetItem.
func (r *Recorder) batchStatements(c *call, in *protocol.BatchExecuteStatementInput, out any) {
	o, _ := out.(*protocol.BatchExecuteStatementOutput)
	plans, _ := r.planner.Batch(in)
	units := 0.0
	if o != nil {
		units = unitsList(o.ConsumedCapacity)
	}
	for i, plan := range plans {
		sc := call{op: c.op, in: in, err: c.err, took: c.took, units: units}
		units = 0
		if plan == nil {
			r.note(&sc, sc.op+notPlanned, false)
			continue
		}
		sc.answer(o, i)
		sc.via, sc.viaOp = in, c.op
		sc.op, sc.in = plan.Native()
		r.classify(&sc)
	}
}

// answer takes statement i's item and error from a batch's answer.
func (c *call) answer(o *protocol.BatchExecuteStatementOutput, i int) {
	if o == nil || i >= len(o.Responses) {
		return
	}
	res := o.Responses[i]
	c.items = boolInt(res.Item != nil)
	if res.Error != nil {
		c.err = errStatement
	}
}

// errStatement marks a batch's statement whose response is an Error.
var errStatement = errors.New("coverage: the statement failed")
