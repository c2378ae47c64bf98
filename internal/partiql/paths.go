package partiql

import (
	"slices"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/expr"
	"github.com/sortkeydb/sortkey/internal/protocol"
)

// nested reports whether a projection names a document path, whose value
// a SELECT returns under the path's last name rather than nested as
// ProjectionExpression returns it (facts 36.3).
func nested(proj expr.Projection) bool {
	for _, p := range proj {
		if len(p) > 1 {
			return true
		}
	}
	return false
}

// flattenItems rewrites each item of a SELECT's answer so that every
// projected path's value stands under the path's last name.
func flattenItems(out *protocol.ExecuteStatementOutput, paths expr.Projection) {
	for i, it := range out.Items {
		out.Items[i] = flatten(it, paths)
	}
}

// flatten is one item's answer: a path that does not resolve is left out,
// as ProjectionExpression leaves it out.
func flatten(it attr.Item, paths expr.Projection) attr.Item {
	flat := attr.Item{}
	for _, p := range paths {
		if v, ok := valueAt(it, projectedPath(p, paths)); ok {
			flat[lastName(p)] = v
		}
	}
	return flat
}

// projectedPath is where p's value sits in an item projected by paths:
// a projection keeps only the list elements it names, in their order, so
// each list index counts the other indexes projected before it.
func projectedPath(p expr.Path, paths expr.Projection) expr.Path {
	out := slices.Clone(p)
	for j, e := range p {
		if e.IsIndex && !wholeProjected(p[:j], paths) {
			out[j].Index = indexesBefore(p[:j], e.Index, paths)
		}
	}
	return out
}

// wholeProjected reports whether some path projects prefix or a part of
// it entirely, keeping its list as it is.
func wholeProjected(prefix expr.Path, paths expr.Projection) bool {
	return slices.ContainsFunc(paths, func(q expr.Path) bool {
		return len(q) <= len(prefix) && slices.Equal(q, prefix[:len(q)])
	})
}

// indexesBefore counts the distinct list indexes below i that paths
// project under prefix.
func indexesBefore(prefix expr.Path, i int, paths expr.Projection) int {
	seen := map[int]bool{}
	for _, q := range paths {
		if len(q) > len(prefix) && slices.Equal(q[:len(prefix)], prefix) && q[len(prefix)].IsIndex && q[len(prefix)].Index < i {
			seen[q[len(prefix)].Index] = true
		}
	}
	return len(seen)
}

// valueAt follows a path through maps and lists.
func valueAt(it attr.Item, p expr.Path) (attr.Value, bool) {
	v, ok := it[p[0].Name]
	for _, e := range p[1:] {
		if !ok {
			break
		}
		v, ok = step(v, e)
	}
	return v, ok
}

func step(v attr.Value, e expr.PathElem) (attr.Value, bool) {
	if !e.IsIndex {
		m, ok := v.M[e.Name]
		return m, ok
	}
	if e.Index < len(v.L) {
		return v.L[e.Index], true
	}
	return attr.Value{}, false
}

// lastName is the name a path's value is returned under: its last map
// key, the path's top-level name when it only indexes lists.
func lastName(p expr.Path) string {
	for i := len(p) - 1; i > 0; i-- {
		if !p[i].IsIndex {
			return p[i].Name
		}
	}
	return p[0].Name
}
