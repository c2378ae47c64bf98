package partiql

import (
	"github.com/sortkeydb/sortkey/internal/expr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// planSelect plans a SELECT as DynamoDB does: the whole primary key pinned
// on the table reads one item; the partition key pinned is a Query (with
// one sort-key condition as part of the key condition); anything else is a
// Scan with the WHERE as its filter.
func planSelect(st *Statement, k keys) (*Plan, error) {
	conds := conjuncts(st.Where)
	if key, rest := splitKey(conds, k); key != nil && len(rest) == 0 && st.Index == "" && st.OrderBy == nil {
		var pr expr.Printer
		in := &protocol.GetItemInput{TableName: &st.Table, Key: key}
		in.ProjectionExpression = text(pr.Projection(st.Projection))
		in.ExpressionAttributeNames = pr.Names()
		return &Plan{Get: in}, nil
	}
	if q := planQuery(st, conds, k); q != nil {
		return &Plan{Query: q}, nil
	}
	if st.OrderBy != nil {
		return nil, refuse(msgOrderBy)
	}
	var pr expr.Printer
	filter := text(pr.Cond(st.Where))
	return &Plan{Scan: &protocol.ScanInput{ReadOptions: readOptions(st, &pr, filter)}}, nil
}

// planQuery returns the Query of a SELECT that pins the partition key, nil
// when it does not (or orders by something other than the sort key).
func planQuery(st *Statement, conds []expr.Cond, k keys) *protocol.QueryInput {
	var pk, sk expr.Cond
	var rest []expr.Cond
	for _, c := range conds {
		_, pinsPartition := equality(c, k.partition)
		switch {
		case pinsPartition && pk == nil:
			pk = c
		case k.sort != "" && sk == nil && sortCondition(c, k.sort):
			sk = c
		default:
			rest = append(rest, c)
		}
	}
	if pk == nil || !ordersBySort(st, k) || namesKey(rest, k) {
		return nil
	}
	keyConds := []expr.Cond{pk}
	if sk != nil {
		keyConds = append(keyConds, sk)
	}
	var pr expr.Printer
	kc := pr.Cond(and(keyConds))
	in := &protocol.QueryInput{KeyConditionExpression: &kc}
	in.ReadOptions = readOptions(st, &pr, text(pr.Cond(and(rest))))
	if st.Descending {
		in.ScanIndexForward = ptr(false)
	}
	return in
}

// namesKey reports whether a condition left for the filter reads a key
// attribute, which a Query's filter may not: such a SELECT runs as a Scan,
// whose filter may.
func namesKey(conds []expr.Cond, k keys) bool {
	for _, c := range conds {
		for _, p := range expr.CondPaths(c) {
			if p[0].Name == k.partition || p[0].Name == k.sort {
				return true
			}
		}
	}
	return false
}

// ordersBySort reports whether the statement has no ORDER BY, or orders by
// the sort key.
func ordersBySort(st *Statement, k keys) bool {
	return st.OrderBy == nil || (k.sort != "" && st.OrderBy.String() == k.sort && len(st.OrderBy) == 1)
}

// readOptions are the members Query and Scan share, printed with pr so
// that every expression of the request shares its placeholders.
func readOptions(st *Statement, pr *expr.Printer, filter *string) protocol.ReadOptions {
	o := protocol.ReadOptions{TableName: ptr(st.Table), FilterExpression: filter}
	if st.Index != "" {
		o.IndexName = ptr(st.Index)
	}
	o.ProjectionExpression = text(pr.Projection(st.Projection))
	o.ExpressionAttributeNames, o.ExpressionAttributeValues = pr.Names(), pr.Values()
	return o
}

// text is s as an optional member: nil when empty.
func text(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
