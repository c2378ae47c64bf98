package design

import (
	"slices"

	"go.yaml.in/yaml/v3"
)

// VectorIndex is a vector index as designed: what CreateTable's
// VectorIndexes takes, with its search schema written as the one
// attribute a search must pin (Hash) and those it may filter on.
type VectorIndex struct {
	Name string `yaml:"name" json:"name"`
	// VectorAttribute holds each item's embedding, a list (L) of numbers.
	VectorAttribute string `yaml:"vectorAttribute" json:"vectorAttribute"`
	Dimensions      int    `yaml:"dimensions" json:"dimensions"`
	// DistanceFunction is COSINE, EUCLIDEAN or DOT_PRODUCT.
	DistanceFunction string `yaml:"distanceFunction" json:"distanceFunction"`
	// Hash is the search schema's HASH attribute, nil for none: every
	// search then gives its value.
	Hash *KeyAttr `yaml:"hash,omitempty" json:"hash,omitempty"`
	// Filters are the INLINE_FILTER attributes a search may compare.
	Filters    []KeyAttr  `yaml:"filters,omitempty" json:"filters,omitempty"`
	Projection Projection `yaml:"projection" json:"projection"`
	Pos        Pos        `yaml:"-" json:"-"`
}

// SearchOp is the operation of a pattern that reads a vector index.
const SearchOp = "SearchVectors"

// searchAttrs are the attributes a search condition may name, the hash
// first.
func (v *VectorIndex) searchAttrs() []KeyAttr {
	var out []KeyAttr
	if v.Hash != nil {
		out = append(out, *v.Hash)
	}
	return append(out, v.Filters...)
}

// SearchAttrNames are the names of the attributes a search of v may
// condition, the hash first.
func (v *VectorIndex) SearchAttrNames() []string {
	var out []string
	for _, k := range v.searchAttrs() {
		out = append(out, k.Name)
	}
	return out
}

// VectorIndexOf is table t's vector index called name, or nil.
func VectorIndexOf(t *Table, name string) *VectorIndex {
	i := slices.IndexFunc(t.VectorIndexes, func(v VectorIndex) bool { return v.Name == name })
	if i < 0 {
		return nil
	}
	return &t.VectorIndexes[i]
}

// inVector reports whether entity e's items can be in v: they are of t
// and declare the vector attribute and, when v has one, its hash (an item
// without either is left out of the index).
func inVector(e *Entity, t *Table, v *VectorIndex) bool {
	return e.Table == t.Name && len(missingForVector(e, v)) == 0
}

// missingForVector lists what e lacks to be in v.
func missingForVector(e *Entity, v *VectorIndex) []string {
	var out []string
	need := []string{v.VectorAttribute}
	if v.Hash != nil {
		need = append(need, v.Hash.Name)
	}
	for _, name := range need {
		if !slices.ContainsFunc(e.Attributes, func(a Attribute) bool { return a.Name == name }) {
			out = append(out, name)
		}
	}
	return out
}

func placeVectorIndexes(vs []VectorIndex, n *yaml.Node) {
	for i, x := range items(n) {
		if i >= len(vs) {
			return
		}
		v := &vs[i]
		v.Pos = at(x)
		if p := member(x, "projection"); p != nil {
			v.Projection.Pos = at(p)
		}
		if h := member(x, "hash"); h != nil && v.Hash != nil {
			v.Hash.Pos = at(h)
		}
		placeKeyAttrs(v.Filters, member(x, "filters"))
	}
}
