package engine

import (
	"bytes"
	"encoding/base64"
	"strings"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
)

// The ExclusiveStartKey messages, as the service words them. Only a Scan
// of a table says that the key does not match the schema; a Query, or a
// Scan of an index, just says the key is invalid.
const (
	msgStartKeyInvalid = "The provided starting key is invalid"
	msgStartKeySchema  = msgStartKeyInvalid + ": The provided key element does not match the schema"
	msgStartKeyOutside = "The provided starting key is outside query boundaries based on provided condition"
	msgStartKeyRange   = "The provided starting key does not match the range key predicate"
	msgStartKeySegment = msgStartKeyInvalid + ": Invalid ExclusiveStartKey. Please use ExclusiveStartKey with correct Segment. TotalSegments: %d Segment: %d"
	msgStartKeyTypes   = "The provided key element does not match the schema"
	msgStartKeyNoRange = "The provided exclusive start key is invalid: ExclusiveStartKey: {%s=AttributeValue: {%s:%s}}"
)

// startBounds says how an ExclusiveStartKey is checked besides the key
// schema: against a Query's key condition, or a parallel Scan's segment.
type startBounds struct {
	query             bool
	resumed           bool   // the request has an ExclusiveStartKey
	segment, segments uint64 // a parallel Scan's (segments 0: not parallel)
}

// startKeyError is the error for a start key that does not match the key
// schema of the table or index read; typesOnly says it names the right
// attributes, and a Query then says only that the schema is not matched.
func (p *readPlan) startKeyError(typesOnly bool) error {
	if p.start.query && typesOnly {
		return apierr.Validationf(msgStartKeyTypes)
	}
	if p.start.query || p.ix != nil {
		return apierr.Validationf(msgStartKeyInvalid)
	}
	return apierr.Validationf(msgStartKeySchema)
}

// startInBounds checks a start key that matches the schema, at storage
// position pos, against the Query's condition kc or the Scan's segment
// (whose range p.lo, p.hi still are).
func (p *readPlan) startInBounds(esk attr.Item, pos []byte, kc *keyCond) error {
	if kc != nil {
		return p.startInQuery(esk, kc)
	}
	inside := bytes.Compare(pos, p.lo) >= 0 && (len(p.hi) == 0 || bytes.Compare(pos, p.hi) < 0)
	if p.start.segments > 0 && !inside {
		return apierr.Validationf(msgStartKeySegment, p.start.segments, p.start.segment)
	}
	return nil
}

// startInQuery checks that the start key is in the partition queried, has
// the sort values held equal, and satisfies the last sort condition.
func (p *readPlan) startInQuery(esk attr.Item, kc *keyCond) error {
	if p.onePerPartition() {
		return noRangeStartKey(esk, p.t.key.hash.name)
	}
	key := p.t.key
	if p.ix != nil {
		key = p.ix.key
	}
	if !valuesEqual(esk, key.hashes, kc.hash) {
		return apierr.Validationf(msgStartKeyOutside)
	}
	if !valuesEqual(esk, key.rngs, kc.eq) {
		return apierr.Validationf(msgStartKeyRange)
	}
	if kc.sortOp == "" {
		return nil
	}
	if sv := esk[key.rngs[len(kc.eq)].name]; !sortMatches(&sv, kc) {
		return apierr.Validationf(msgStartKeyRange)
	}
	return nil
}

// valuesEqual reports whether it holds vs for the first len(vs) of keys.
func valuesEqual(it attr.Item, keys []keyAttr, vs []attr.Value) bool {
	for i := range vs {
		if v := it[keys[i].name]; !attr.Equal(&v, &vs[i]) {
			return false
		}
	}
	return true
}

// sortMatches reports whether sort-key value v satisfies the condition.
func sortMatches(v *attr.Value, kc *keyCond) bool {
	if kc.sortOp == "begins_with" {
		return hasPrefix(v, &kc.sortVals[0])
	}
	c, ok := attr.Compare(v, &kc.sortVals[0])
	switch kc.sortOp {
	case "=":
		return ok && c == 0
	case "<":
		return ok && c < 0
	case "<=":
		return ok && c <= 0
	case ">":
		return ok && c > 0
	case ">=":
		return ok && c >= 0
	}
	hi, hok := attr.Compare(v, &kc.sortVals[1]) // BETWEEN
	return ok && hok && c >= 0 && hi <= 0
}

func hasPrefix(v, prefix *attr.Value) bool {
	if v.S != nil && prefix.S != nil {
		return strings.HasPrefix(*v.S, *prefix.S)
	}
	return v.B != nil && prefix.B != nil && bytes.HasPrefix(v.B, prefix.B)
}

// onePerPartition reports whether the plan is a Query of a table without a
// sort key: its one item has nothing after it, so a page never carries a
// LastEvaluatedKey that the next request's start key would be refused for.
func (p *readPlan) onePerPartition() bool {
	return p.start.query && p.ix == nil && p.t.key.rng.name == ""
}

// noRangeStartKey refuses any start key for a Query of a table without a
// sort key, whose partition holds one item: there is nothing after it.
// The key is shown as the service's Java model prints it.
func noRangeStartKey(esk attr.Item, name string) error {
	v := esk[name]
	text := ""
	switch {
	case v.S != nil:
		text = *v.S
	case v.N != nil:
		text = *v.N
	default:
		text = base64.StdEncoding.EncodeToString(v.B)
	}
	return apierr.Validationf(msgStartKeyNoRange, name, v.Kind(), text)
}
