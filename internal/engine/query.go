package engine

import (
	"context"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/expr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/storage"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// Query reads one partition of a table or index, in sort-key order (or
// reverse), one page at a time.
func (e *Engine) Query(_ context.Context, in *protocol.QueryInput) (*protocol.ReadOutput, error) {
	if err := validate.Query(in); err != nil {
		return nil, err
	}
	r, err := parseRead(&in.ReadOptions, in.KeyConditionExpression, in.KeyConditions, in.QueryFilter)
	if err != nil {
		return nil, err
	}
	p, err := e.plan(&in.ReadOptions, r)
	if err != nil {
		return nil, err
	}
	key := p.t.key
	if p.ix != nil {
		key = p.ix.key
	}
	if err := validate.KeyConditionsCount(len(in.KeyConditions), len(key.hashes)+len(key.rngs)); err != nil {
		return nil, err
	}
	kc, err := analyzeKeyCond(r.key, key)
	if err != nil {
		return nil, err
	}
	if err := filterOnKey(r.filter, key); err != nil {
		return nil, err
	}
	p.lo, p.hi = p.keyRange(kc)
	p.part = p.lo
	p.start.query = true
	p.reverse = in.ScanIndexForward != nil && !*in.ScanIndexForward
	if err := p.startAfter(in.ExclusiveStartKey, &kc); err != nil {
		return nil, err
	}
	return e.run(p)
}

// filterOnKey refuses a filter that reads a key attribute of the table or
// index queried: the key condition is where those belong.
func filterOnKey(filter expr.Cond, key keySchema) error {
	for _, p := range expr.CondPaths(filter) {
		if n := p[0].Name; key.has(n) {
			return apierr.Validationf("Filter Expression can only contain non-primary key attributes: Primary key attribute: %s", n)
		}
	}
	return nil
}

// keyRange turns a key condition into the storage range holding exactly the
// items it selects. Key encodings are self-delimiting, so every key whose
// sort key equals v starts with the partition prefix plus v's encoding;
// leading sort attributes held equal just lengthen that prefix.
func (p *readPlan) keyRange(kc keyCond) (lo, hi []byte) {
	prefix, _ := p.t.indexRange(p.ix)
	part := storage.ItemKey(prefix, appendValues(nil, kc.hash), nil)
	part = appendValues(part, kc.eq)
	end := storage.PrefixEnd(part)
	at := func(i int) []byte { return attr.AppendKey(clone(part), &kc.sortVals[i]) }
	switch kc.sortOp {
	case "=":
		return at(0), storage.PrefixEnd(at(0))
	case "<":
		return part, at(0)
	case "<=":
		return part, storage.PrefixEnd(at(0))
	case ">":
		return storage.PrefixEnd(at(0)), end
	case ">=":
		return at(0), end
	case "BETWEEN":
		return at(0), storage.PrefixEnd(at(1))
	case "begins_with":
		b := attr.AppendKeyPrefix(clone(part), &kc.sortVals[0])
		return b, storage.PrefixEnd(b)
	}
	return part, end
}

// appendValues appends the key encodings of vs, one after another.
func appendValues(dst []byte, vs []attr.Value) []byte {
	for i := range vs {
		dst = attr.AppendKey(dst, &vs[i])
	}
	return dst
}

func clone(b []byte) []byte { return append([]byte(nil), b...) }
