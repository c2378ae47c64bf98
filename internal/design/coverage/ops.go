package coverage

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// termBuf is room for a request's key terms without allocating: a key
// has at most eight attributes (four each for a GSI's keys).
type termBuf [8]term

func (r *Recorder) getItem(c *call, in *protocol.GetItemInput) {
	r.getKey(c, tableName(in.TableName), in.Key, in.ConsistentRead)
}

// getKey counts a call reading one key of table.
func (r *Recorder) getKey(c *call, table string, key attr.Item, consistentRead *bool) {
	var buf termBuf
	terms, ok := keyTerms(key, buf[:0])
	if rp := r.bestIf(ok, c.op, table, "", terms); rp != nil {
		c.count(rp.stats, false)
		if rp.first.Load() == nil {
			rp.noteFirst(c, terms, &readOptions{consistent: consistentRead != nil && *consistentRead})
		}
		return
	}
	r.note(c, describe(c.op, table, "", terms), false)
}

func (r *Recorder) bestIf(ok bool, op, table, index string, terms []term) *readPattern {
	if !ok {
		return nil
	}
	return r.best(op, table, index, terms)
}

func (r *Recorder) query(c *call, in *protocol.QueryInput) {
	var buf termBuf
	table, index := tableName(in.TableName), deref(in.IndexName)
	terms, ok := r.keyCondTerms(in, buf[:0])
	c.later = c.later || len(in.ExclusiveStartKey) > 0
	if rp := r.bestIf(ok, c.op, table, index, terms); rp != nil {
		c.count(rp.stats, false)
		if rp.first.Load() == nil {
			rp.noteFirst(c, terms, queryOptions(in))
		}
		return
	}
	r.note(c, describe(c.op, table, index, terms), false)
}

func (r *Recorder) scan(c *call, in *protocol.ScanInput) {
	table, index := tableName(in.TableName), deref(in.IndexName)
	c.later = c.later || len(in.ExclusiveStartKey) > 0
	if rp := r.best(c.op, table, index, nil); rp != nil {
		c.count(rp.stats, false)
		if rp.first.Load() == nil {
			rp.noteFirst(c, nil, scanOptions(&in.ReadOptions))
		}
		return
	}
	r.note(c, describe(c.op, table, index, nil), true)
}

// batchGet counts the call once under each pattern its keys serve; the
// items and capacity, which the answer does not break down by key, go to
// the first.
func (r *Recorder) batchGet(c *call, in *protocol.BatchGetItemInput) {
	var got []*readPattern
	for name, ka := range in.RequestItems {
		for _, key := range ka.Keys {
			got = r.classifyKey(c, got, tableName(&name), key)
		}
	}
	r.countEach(c, got)
}

func (r *Recorder) transactGet(c *call, in *protocol.TransactGetItemsInput) {
	var got []*readPattern
	for _, ti := range in.TransactItems {
		if ti.Get != nil {
			got = r.classifyKey(c, got, tableName(ti.Get.TableName), ti.Get.Key)
		}
	}
	r.countEach(c, got)
}

// classifyKey adds the pattern one key of a batch serves to got, or notes
// the key as undeclared.
func (r *Recorder) classifyKey(c *call, got []*readPattern, table string, key attr.Item) []*readPattern {
	var buf termBuf
	terms, ok := keyTerms(key, buf[:0])
	rp := r.bestIf(ok, c.op, table, "", terms)
	switch {
	case rp == nil:
		r.note(c, describe(c.op, table, "", terms), false)
	case !containsPattern(got, rp):
		got = append(got, rp)
		rp.noteFirst(c, terms, nil)
	}
	return got
}

func containsPattern(ps []*readPattern, p *readPattern) bool {
	for _, q := range ps {
		if q == p {
			return true
		}
	}
	return false
}

func (r *Recorder) countEach(c *call, got []*readPattern) {
	for i, rp := range got {
		if i == 1 {
			c.items, c.units = 0, 0
		}
		c.count(rp.stats, false)
	}
}

// describe names a kind of undeclared request: its operation, table and
// index, key attributes with their operators, and the constant-looking
// start of each key value (up to its first "#"), so that one unknown
// prefix is one line however many keys use it.
func describe(op, table, index string, terms []term) string {
	slices.SortFunc(terms, func(a, b term) int { return strings.Compare(a.attr, b.attr) })
	var b strings.Builder
	b.WriteString(op + " " + table)
	if index != "" {
		b.WriteString(" (index " + index + ")")
	}
	for i, t := range terms {
		sep := ", "
		if i == 0 {
			sep = ": "
		}
		fmt.Fprintf(&b, "%s%s %s %q", sep, t.attr, t.op, prefix(t.vals[0]))
	}
	return b.String()
}

// prefix is a key value's start up to its first "#", or its first eight
// characters and an ellipsis, or itself when short.
func prefix(v string) string {
	if i := strings.IndexByte(v, '#'); i >= 0 {
		return v[:i+1] + "…"
	}
	if len(v) > 8 {
		return v[:8] + "…"
	}
	return v
}
