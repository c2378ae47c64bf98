package expr

import (
	"maps"
	"slices"
	"strings"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/attr"
)

// Kind names the five expression kinds; it selects the prefix of error
// messages ("Invalid FilterExpression: ...") and the rules of the kind.
type Kind int

const (
	Condition Kind = iota
	Filter
	KeyCondition
	UpdateKind
	ProjectionKind
)

// Attrs holds one request's ExpressionAttributeNames and
// ExpressionAttributeValues and records which entries the request's
// expressions used. Parse every expression of the request with the same
// Attrs, then call CheckUnused. An Attrs is not safe for concurrent use.
type Attrs struct {
	names      map[string]string
	values     attr.Item
	usedNames  map[string]bool
	usedValues map[string]bool
	err        error // a problem with the maps themselves, reported by every method
}

// NewAttrs wraps a request's maps; either may be nil (absent from the
// request). A map that is present but empty, or has a key that is not a
// placeholder, makes every later call return the ValidationException
// DynamoDB gives for it.
func NewAttrs(names map[string]string, values attr.Item) *Attrs {
	a := &Attrs{names: names, values: values, usedNames: map[string]bool{}, usedValues: map[string]bool{}}
	a.err = CheckMaps(names, values)
	return a
}

// CheckMaps validates the maps' shapes: not empty when present, keys of the
// form #name and :name.
func CheckMaps(names map[string]string, values attr.Item) error {
	if names != nil && len(names) == 0 {
		return apierr.Validationf(msgNamesEmpty)
	}
	if values != nil && len(values) == 0 {
		return apierr.Validationf(msgValuesEmpty)
	}
	if k := badKey(names, '#'); k != "" {
		return apierr.Validationf(msgNamesBadKey, k)
	}
	if k := badKey(values, ':'); k != "" {
		return apierr.Validationf(msgValuesBadKey, k)
	}
	return nil
}

// badKey returns the first key of m, in sorted order, that is not a
// placeholder with the given sigil, or "".
func badKey[V any](m map[string]V, sigil byte) (bad string) {
	found := false
	for k := range m {
		if !isPlaceholder(k, sigil) && (!found || k < bad) {
			bad, found = k, true
		}
	}
	return bad
}

// isPlaceholder reports whether s is sigil followed by one or more letters,
// digits or underscores.
func isPlaceholder(s string, sigil byte) bool {
	if len(s) < 2 || s[0] != sigil {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isIdentByte(s[i]) {
			return false
		}
	}
	return true
}

// CheckUnused reports the entries of the maps that no expression used. Call
// it after parsing all of a request's expressions.
func (a *Attrs) CheckUnused() error {
	if a.err != nil {
		return a.err
	}
	if keys := unused(slices.Sorted(maps.Keys(a.names)), a.usedNames); keys != "" {
		return apierr.Validationf(msgNamesUnused, keys)
	}
	if keys := unused(slices.Sorted(maps.Keys(a.values)), a.usedValues); keys != "" {
		return apierr.Validationf(msgValuesUnused, keys)
	}
	return nil
}

// unused joins the keys not in used, as DynamoDB lists them: "#a, #b".
func unused(keys []string, used map[string]bool) string {
	var out []string
	for _, k := range keys {
		if !used[k] {
			out = append(out, k)
		}
	}
	return strings.Join(out, ", ")
}

// name resolves a #placeholder, recording its use.
func (a *Attrs) name(ph string) (string, bool) {
	n, ok := a.names[ph]
	if ok {
		a.usedNames[ph] = true
	}
	return n, ok
}

// value resolves a :placeholder, recording its use.
func (a *Attrs) value(ph string) (attr.Value, bool) {
	v, ok := a.values[ph]
	if ok {
		a.usedValues[ph] = true
	}
	return v, ok
}

// pathName parses one name of a document path: a plain identifier, which
// must not be a reserved word, or a #placeholder, which must be defined.
//
//	name ::= identifier | #placeholder
func (p *parser) pathName() PathElem {
	t := p.cur()
	switch t.kind {
	case tokIdent:
		if isReserved(t.text) {
			p.semantic(msgReserved, t.text)
		}
		p.i++
		return PathElem{Name: t.text}
	case tokName:
		n, ok := p.a.name(t.text)
		if !ok {
			p.semantic(msgNoName, t.text)
		}
		p.i++
		return PathElem{Name: n}
	}
	p.syntaxError(p.i)
	return PathElem{}
}

// valueOperand resolves the :placeholder token t.
func (p *parser) valueOperand(t token) *ValueOperand {
	v, ok := p.a.value(t.text)
	if !ok {
		p.semantic(msgNoValue, t.text)
	}
	return &ValueOperand{Name: t.text, Value: v, Pos: t.pos}
}
