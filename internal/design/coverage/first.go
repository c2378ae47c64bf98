package coverage

import (
	"encoding/json"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/design"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// FirstCall is how a pattern was first called, and what that call cost:
// the template variables its key held, the values its filter compared
// with, and the options that change a read's cost. It is what the agent
// interface's design_run takes to make the same call again, so that a
// design can be measured with an application's own arguments.
type FirstCall struct {
	// Bindings are the key templates' variables ("userId": "42").
	Bindings map[string]string `json:"bindings,omitempty"`
	// Values are the filter's expression attribute values, in DynamoDB
	// JSON.
	Values     attr.Item `json:"values,omitempty"`
	Limit      int64     `json:"limit,omitempty"`
	Backward   bool      `json:"backward,omitempty"`
	Consistent bool      `json:"consistent,omitempty"`
	// Operation and Request are the call itself, as DynamoDB's API
	// takes it (a PartiQL statement as the request it ran as), so that
	// it can be sent again.
	Operation string          `json:"operation"`
	Request   json.RawMessage `json:"request"`
	Items     int64           `json:"items"`
	Scanned   int64           `json:"scanned"`
	RCU       float64         `json:"rcu"`
}

// noteFirst keeps c as rp's first call, unless one is kept or c failed.
// Callers check rp.first first, so that only calls until one is kept pay
// for building opts.
func (rp *readPattern) noteFirst(c *call, terms []term, opts *readOptions) {
	if c.err != nil || rp.first.Load() != nil {
		return
	}
	req, err := json.Marshal(c.in)
	if err != nil {
		return
	}
	f := &FirstCall{Bindings: bindings(rp.p, terms), Operation: c.op, Request: req, Items: c.items, Scanned: c.scanned, RCU: c.units}
	if opts != nil {
		f.Values, f.Limit, f.Backward, f.Consistent = filterValues(rp.p.Filter, opts.values), opts.limit, opts.backward, opts.consistent
	}
	rp.first.CompareAndSwap(nil, f)
}

// readOptions are what a Query or Scan adds to its key.
type readOptions struct {
	values               attr.Item
	limit                int64
	backward, consistent bool
}

func queryOptions(in *protocol.QueryInput) *readOptions {
	o := scanOptions(&in.ReadOptions)
	o.backward = in.ScanIndexForward != nil && !*in.ScanIndexForward
	return o
}

func scanOptions(in *protocol.ReadOptions) *readOptions {
	o := &readOptions{values: in.ExpressionAttributeValues, consistent: in.ConsistentRead != nil && *in.ConsistentRead}
	if in.Limit != nil {
		o.limit = *in.Limit
	}
	return o
}

// bindings are the variables of p's key templates as terms give them.
func bindings(p *design.Pattern, terms []term) map[string]string {
	out := map[string]string{}
	for i := range terms {
		t := &terms[i]
		c := p.Key[t.attr]
		merge(out, c.Value, t.vals[0])
		if t.n == 2 {
			merge(out, c.Value2, t.vals[1])
		}
	}
	return out
}

func merge(out map[string]string, t design.Template, value string) {
	vars, _ := t.Match(value)
	for k, v := range vars {
		out[k] = v
	}
}

// filterValues are the values among vals that filter names.
func filterValues(filter string, vals attr.Item) attr.Item {
	if filter == "" {
		return nil
	}
	out := attr.Item{}
	for _, name := range design.ValueRefs(filter) {
		if v, ok := vals[name]; ok {
			out[name] = v
		}
	}
	return out
}
