package coverage

import (
	"strings"
	"sync/atomic"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/design"
	"github.com/sortkeydb/sortkey/internal/expr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// term is one key attribute's condition in a request: its operator, as
// the design spells it, and the values compared with, as text.
type term struct {
	attr, op string
	vals     [2]string
	n        int // values used
}

// readPattern is a declared access pattern, ready to match requests.
type readPattern struct {
	p      *design.Pattern
	family string
	stats  *stats
	first  atomic.Pointer[FirstCall]
}

// family is what a request must share with a pattern beyond its table:
// reads of single keys (GetItem and its batch and transaction forms),
// Queries, and Scans.
func family(op string) string {
	switch op {
	case "GetItem", "BatchGetItem", "TransactGetItems":
		return "get"
	}
	return op
}

// tableName is a request's table, named or given as an ARN.
func tableName(p *string) string {
	if p == nil {
		return ""
	}
	if i := strings.LastIndex(*p, ":table/"); i >= 0 {
		return (*p)[i+len(":table/"):]
	}
	return *p
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// text is a key value as a template sees it: a string or a number as
// written; other types match no template.
func text(v attr.Value) (string, bool) {
	switch {
	case v.S != nil:
		return *v.S, true
	case v.N != nil:
		return *v.N, true
	}
	return "", false
}

// score is how well pattern p fits terms, by how much constant text its
// templates matched, and whether it fits at all.
func score(p *design.Pattern, terms []term) (int, bool) {
	if len(p.Key) != len(terms) {
		return 0, false
	}
	total := 0
	for i := range terms {
		t := &terms[i]
		c, ok := p.Key[t.attr]
		if !ok || !sameOp(c.Op, t.op) {
			return 0, false
		}
		n, ok := matchCond(c, t)
		if !ok {
			return 0, false
		}
		total += n
	}
	return total, true
}

func sameOp(declared, got string) bool {
	if declared == "" {
		declared = "="
	}
	return strings.EqualFold(declared, got)
}

// matchCond matches a term's values with a condition's templates and
// returns the constant text they hold.
func matchCond(c design.Condition, t *term) (int, bool) {
	if !c.Value.Matches(t.vals[0]) {
		return 0, false
	}
	n := literalLen(c.Value)
	if t.n == 2 {
		if !c.Value2.Matches(t.vals[1]) {
			return 0, false
		}
		n += literalLen(c.Value2)
	}
	return n, true
}

// literalLen is the constant text of a template: its length less its
// placeholders.
func literalLen(t design.Template) int {
	n, in := 0, false
	for i := 0; i < len(t); i++ {
		switch {
		case t[i] == '{':
			in = true
		case t[i] == '}':
			in = false
		case !in:
			n++
		}
	}
	return n
}

// keyTerms are a key's attributes as equality terms, for GetItem-like
// requests.
func keyTerms(key attr.Item, buf []term) ([]term, bool) {
	for name, v := range key {
		s, ok := text(v)
		if !ok {
			return buf, false
		}
		buf = append(buf, term{attr: name, op: "=", vals: [2]string{s}, n: 1})
	}
	return buf, true
}

// keyCondTerms are a Query's key condition as terms, from its
// KeyConditionExpression or its legacy KeyConditions.
func (r *Recorder) keyCondTerms(in *protocol.QueryInput, buf []term) ([]term, bool) {
	if in.KeyConditionExpression == nil {
		return legacyTerms(in.KeyConditions, buf)
	}
	return r.shapes.terms(expr.KeyCondition, *in.KeyConditionExpression, in.ExpressionAttributeNames, in.ExpressionAttributeValues, buf)
}

// legacyOps are KeyConditions' comparison operators in the design's
// spelling.
var legacyOps = map[string]string{"EQ": "=", "LT": "<", "LE": "<=", "GT": ">", "GE": ">=",
	"BETWEEN": "between", "BEGINS_WITH": "begins_with"}

func legacyTerms(conds map[string]protocol.Condition, buf []term) ([]term, bool) {
	for name, c := range conds {
		op, ok := legacyOps[deref(c.ComparisonOperator)]
		if !ok || len(c.AttributeValueList) == 0 || len(c.AttributeValueList) > 2 {
			return buf, false
		}
		t := term{attr: name, op: op, n: len(c.AttributeValueList)}
		for i, v := range c.AttributeValueList {
			if t.vals[i], ok = text(v); !ok {
				return buf, false
			}
		}
		buf = append(buf, t)
	}
	return buf, true
}

// best is the read pattern of family fam on table and index that fits
// terms most specifically; an exact operation wins a tie. nil when none
// fits.
func (r *Recorder) best(op, table, index string, terms []term) *readPattern {
	var best *readPattern
	top := -1
	fam := family(op)
	for _, rp := range r.reads {
		p := rp.p
		if rp.family != fam || p.Table != table || p.Index != index {
			continue
		}
		n, ok := score(p, terms)
		if !ok {
			continue
		}
		n *= 2
		if p.Operation == op {
			n++
		}
		if n > top {
			best, top = rp, n
		}
	}
	return best
}
