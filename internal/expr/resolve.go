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
	usedNames  usedSet
	usedValues usedSet
	err        error // a problem with the maps themselves, reported by every method
}

// NewAttrs wraps a request's maps; either may be nil (absent from the
// request). A map that is present but empty, or has a key that is not a
// placeholder, makes every later call return the ValidationException
// DynamoDB gives for it.
func NewAttrs(names map[string]string, values attr.Item) *Attrs {
	a := &Attrs{names: names, values: values}
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
	return checkNames(names)
}

// checkNames refuses an ExpressionAttributeNames entry that maps to a name
// no attribute can have (empty, or 64 KB and more), naming the first such
// key in sorted order.
func checkNames(names map[string]string) error {
	bad, text := "", ""
	for k, n := range names {
		t := nameText(n)
		if t != "" && (bad == "" || k < bad) {
			bad, text = k, t
		}
	}
	if bad == "" {
		return nil
	}
	return apierr.Validationf(msgNamesBadValue, text, bad)
}

// nameText is why n cannot be an attribute name, or "".
func nameText(n string) string {
	switch {
	case n == "":
		return attr.TextEmptyName
	case len(n) > attr.MaxNameBytes:
		return attr.TextLongName
	}
	return ""
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
	if keys := unused(a.names, &a.usedNames); keys != "" {
		return apierr.Validationf(msgNamesUnused, keys)
	}
	if keys := unused(a.values, &a.usedValues); keys != "" {
		return apierr.Validationf(msgValuesUnused, keys)
	}
	return nil
}

// unused joins the keys of m not in used, sorted, as DynamoDB lists them:
// "#a, #b". Only keys of m are ever recorded as used, so when there are as
// many as m has keys there is nothing to sort.
func unused[V any](m map[string]V, used *usedSet) string {
	if used.len() == len(m) {
		return ""
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !used.has(k) {
			out = append(out, k)
		}
	}
	return strings.Join(out, ", ")
}

// usedSet records the placeholders a request used. Most requests use a
// few, kept in a short list inside the Attrs; past usedListMax they move to
// a map, so that a long expression's check stays linear.
type usedSet struct {
	list  []string
	set   map[string]bool
	first [4]string // list's first backing array
}

const usedListMax = 16

func (u *usedSet) add(k string) {
	switch {
	case u.set != nil:
		u.set[k] = true
	case slices.Contains(u.list, k):
	case len(u.list) < usedListMax:
		if u.list == nil {
			u.list = u.first[:0]
		}
		u.list = append(u.list, k)
	default:
		u.set = make(map[string]bool, 2*usedListMax)
		for _, e := range u.list {
			u.set[e] = true
		}
		u.set[k] = true
		u.list = nil
	}
}

func (u *usedSet) has(k string) bool {
	if u.set != nil {
		return u.set[k]
	}
	return slices.Contains(u.list, k)
}

func (u *usedSet) len() int {
	if u.set != nil {
		return len(u.set)
	}
	return len(u.list)
}

// name resolves a #placeholder, recording its use.
func (a *Attrs) name(ph string) (string, bool) {
	n, ok := a.names[ph]
	if ok {
		a.usedNames.add(ph)
	}
	return n, ok
}

// value resolves a :placeholder, recording its use.
func (a *Attrs) value(ph string) (attr.Value, bool) {
	v, ok := a.values[ph]
	if ok {
		a.usedValues.add(ph)
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
