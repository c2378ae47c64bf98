package coverage

import (
	"github.com/sortkeydb/sortkey/internal/expr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// searchVectors counts a SearchVectors call under the pattern of its
// table and vector index whose key templates its search condition's
// equalities fit (the hash, and any filters), as a Query is matched by
// its key condition. A search has no read units: DynamoDB meters it in
// vector bytes, so it adds none to the pattern's RCU.
func (r *Recorder) searchVectors(c *call, in *protocol.SearchVectorsInput) {
	var buf termBuf
	table, index := tableName(in.TableName), deref(in.IndexName)
	terms, ok := r.searchTerms(in, buf[:0])
	if rp := r.bestIf(ok, c.op, table, index, terms); rp != nil {
		c.count(rp.stats, false)
		if rp.first.Load() == nil {
			rp.noteFirst(c, terms, searchOptions(in))
		}
		return
	}
	r.note(c, describe(c.op, table, index, terms), false)
}

// searchTerms are a search condition's equalities with this request's
// values; none when it has no condition. Its shape is kept as a Query's
// key condition's is: the classification of every search would
// otherwise parse it again.
func (r *Recorder) searchTerms(in *protocol.SearchVectorsInput, buf []term) ([]term, bool) {
	if in.SearchConditionExpression == nil {
		return buf, true
	}
	return r.shapes.terms(expr.Filter, *in.SearchConditionExpression, in.ExpressionAttributeNames, in.ExpressionAttributeValues, buf)
}

// searchOptions are what a search's first call records beside its key:
// its values, and TopK as the limit it asked for.
func searchOptions(in *protocol.SearchVectorsInput) *readOptions {
	o := &readOptions{values: in.ExpressionAttributeValues}
	if in.TopK != nil {
		o.limit = *in.TopK
	}
	return o
}

// searchItems is how many results a search answered.
func searchItems(o *protocol.SearchVectorsOutput) int64 { return int64(len(o.SearchResults)) }
