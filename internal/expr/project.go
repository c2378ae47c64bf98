package expr

import (
	"sort"

	"github.com/sortkeydb/sortkey/internal/attr"
)

// Project returns the parts of item that paths name, in the shape DynamoDB
// returns for a ProjectionExpression (and for UPDATED_OLD / UPDATED_NEW):
//   - a nested path keeps its enclosing maps: a.b.c gives {a: {M: {b: {M: {c: ...}}}}};
//   - a list element comes back inside a list: a[3] of a five-element list
//     gives {a: {L: [<a[3]>]}}, and several elements of one list come back
//     in index order, whatever the order of the paths;
//   - paths into the same map or list merge into one value;
//   - a path that does not resolve (a missing attribute, key or index, or a
//     step into a value of the wrong type) is skipped.
//
// The result is a deep copy: it shares no pointer, map or slice with item.
// A nil item, or no path matching, gives an empty (non-nil) item.
func Project(item attr.Item, paths []Path) attr.Item {
	out := make(attr.Item, len(paths))
	var tree map[string]*projNode
	for _, p := range paths {
		if len(p) == 0 || p[0].IsIndex {
			continue
		}
		v, ok := item[p[0].Name]
		if !ok {
			continue
		}
		if len(p) == 1 && tree[p[0].Name] == nil {
			out[p[0].Name] = cloneValue(&v)
			continue
		}
		if _, ok := lookup(item, p); !ok {
			continue
		}
		if tree == nil {
			tree = map[string]*projNode{}
		}
		n := tree[p[0].Name]
		if n == nil {
			n = &projNode{}
			tree[p[0].Name] = n
		}
		n.add(&v, p[1:])
	}
	for name, n := range tree {
		if _, whole := out[name]; whole {
			continue // the whole attribute was asked for too
		}
		out[name] = n.build()
	}
	return out
}

// projNode is one value of the projected item under construction: the
// whole of src, or the parts of it that keys or elems name.
type projNode struct {
	src   *attr.Value
	whole bool
	keys  map[string]*projNode
	elems map[int]*projNode
}

// add records rest, a path that resolves within v (checked by the caller).
func (n *projNode) add(v *attr.Value, rest Path) {
	n.src = v
	if n.whole {
		return
	}
	if len(rest) == 0 {
		n.whole, n.keys, n.elems = true, nil, nil
		return
	}
	e := rest[0]
	var child *projNode
	var cv attr.Value
	if e.IsIndex {
		cv = v.L[e.Index]
		if n.elems == nil {
			n.elems = map[int]*projNode{}
		}
		if child = n.elems[e.Index]; child == nil {
			child = &projNode{}
			n.elems[e.Index] = child
		}
	} else {
		cv = v.M[e.Name]
		if n.keys == nil {
			n.keys = map[string]*projNode{}
		}
		if child = n.keys[e.Name]; child == nil {
			child = &projNode{}
			n.keys[e.Name] = child
		}
	}
	child.add(&cv, rest[1:])
}

// build materializes the node as a fresh value.
func (n *projNode) build() attr.Value {
	switch {
	case n.whole:
		return cloneValue(n.src)
	case n.keys != nil:
		m := make(map[string]attr.Value, len(n.keys))
		for k, c := range n.keys {
			m[k] = c.build()
		}
		return attr.Value{M: m}
	}
	idx := make([]int, 0, len(n.elems))
	for i := range n.elems {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	l := make([]attr.Value, len(idx))
	for j, i := range idx {
		l[j] = n.elems[i].build()
	}
	return attr.Value{L: l}
}
