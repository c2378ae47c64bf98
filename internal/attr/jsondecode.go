package attr

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
)

// Request bodies are mostly AttributeValues, and decoding them through
// encoding/json's reflection was a sixth of a GetItem's CPU. These methods
// decode them by hand but must give exactly what reflection over Value's
// struct tags gave, quirks included, because that is what sortkey has
// always accepted: member names match case-insensitively, null clears a
// member, a repeated member decodes into what the earlier one left, "B"
// also takes an array of byte numbers, and the first type or base64 error
// is the one reported. PlainValue is that reference, and the fuzz test
// holds the two together.
//
// encoding/json validates the whole body before it calls an
// UnmarshalJSON, so the decoder trusts its input's syntax: it stops at the
// first error, and on invalid JSON (only a direct call can pass any) it
// returns some error without promising encoding/json's.

// UnmarshalJSON decodes a wire AttributeValue as encoding/json decodes
// PlainValue.
func (v *Value) UnmarshalJSON(data []byte) error {
	d := jsonDecoder{data: data}
	d.value(v)
	return d.finish()
}

// UnmarshalJSON decodes a JSON object of AttributeValues into it, adding
// to the map it already holds as encoding/json does; null makes it nil.
func (it *Item) UnmarshalJSON(data []byte) error {
	d := jsonDecoder{data: data}
	d.ws()
	m := map[string]Value(*it)
	d.mapMember(&m)
	*it = m
	return d.finish()
}

// UnmarshalJSONText is UnmarshalJSON for a caller that already holds data
// as a string, text (text == string(data)): the names and strings decoded
// are sliced from text instead of from a copy of their own. The S and N
// members point into *slab, whose free capacity is used before a new
// slab is made; *slab is left as the last slab used, to share further.
func (it *Item) UnmarshalJSONText(data []byte, text string, slab *[]string) error {
	d := jsonDecoder{data: data, arena: text, ptrs: *slab}
	d.ws()
	m := map[string]Value(*it)
	d.mapMember(&m)
	*it = m
	*slab = d.ptrs
	return d.finish()
}

// PlainValue has Value's wire shape and no UnmarshalJSON, so encoding/json
// decodes it by reflection: the reference Value's decoder must agree with.
// protocol.Decode also uses it to learn which of several errors in a body
// encoding/json reports first.
type PlainValue struct {
	S    *string               `json:"S,omitempty"`
	N    *string               `json:"N,omitempty"`
	B    []byte                `json:"B,omitempty"`
	BOOL *bool                 `json:"BOOL,omitempty"`
	NULL *bool                 `json:"NULL,omitempty"`
	M    map[string]PlainValue `json:"M,omitempty"`
	L    []PlainValue          `json:"L,omitempty"`
	SS   []string              `json:"SS,omitempty"`
	NS   []string              `json:"NS,omitempty"`
	BS   [][]byte              `json:"BS,omitempty"`
}

// maxJSONDepth bounds the decoder's recursion for direct callers;
// encoding/json stops nesting deeper than 10000 before it gets here.
const maxJSONDepth = 10000

// arenaMax is the largest input whose unescaped strings share one copy of
// it. Beyond it a kept name or string could pin too large a copy.
const arenaMax = 4 << 10

// bytesPerString is the JSON per S or N member that newString's first slab
// assumes: {"name":{"S":"value"}} with short names and values.
const bytesPerString = 24

var (
	errJSONSyntax = errors.New("attr: invalid JSON in AttributeValue")
	errJSONDepth  = errors.New("attr: AttributeValue JSON nested too deeply")
)

// The types named in type errors, as encoding/json names its targets.
var (
	valueType   = reflect.TypeFor[Value]()
	stringType  = reflect.TypeFor[string]()
	boolType    = reflect.TypeFor[bool]()
	bytesType   = reflect.TypeFor[[]byte]()
	uint8Type   = reflect.TypeFor[uint8]()
	mapType     = reflect.TypeFor[map[string]Value]()
	listType    = reflect.TypeFor[[]Value]()
	stringsType = reflect.TypeFor[[]string]()
	bytesesType = reflect.TypeFor[[][]byte]()
)

type jsonDecoder struct {
	data  []byte
	pos   int
	err   error    // the first error; decoding stops there
	path  []string // members from the failing one outwards, for the error's Field
	depth int
	arena string   // data as a string, once a string needs it
	buf   []byte   // scratch for unescaping
	ptrs  []string // a slab the *string members point into
}

func (d *jsonDecoder) finish() error {
	if d.err == nil {
		d.ws()
		if d.pos != len(d.data) {
			d.fail(errJSONSyntax)
		}
	}
	if te, ok := d.err.(*json.UnmarshalTypeError); ok && len(d.path) > 0 {
		te.Field = joinReversed(d.path)
	}
	return d.err
}

func joinReversed(path []string) string {
	parts := make([]string, len(path))
	for i, p := range path {
		parts[len(path)-1-i] = p
	}
	return strings.Join(parts, ".")
}

func (d *jsonDecoder) fail(err error) {
	if d.err == nil {
		d.err = err
	}
}

// mismatch reports the value at d.pos as the wrong JSON type for t.
func (d *jsonDecoder) mismatch(t reflect.Type) {
	d.fail(&json.UnmarshalTypeError{Value: jsonKind(d.peek()), Type: t, Offset: int64(d.pos)})
}

func jsonKind(c byte) string {
	switch c {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	}
	return "number"
}

// enter and leave bracket each level of recursion.
func (d *jsonDecoder) enter() bool {
	d.depth++
	if d.depth > maxJSONDepth {
		d.fail(errJSONDepth)
	}
	return d.err == nil
}

func (d *jsonDecoder) leave() { d.depth-- }

func (d *jsonDecoder) peek() byte {
	if d.pos < len(d.data) {
		return d.data[d.pos]
	}
	return 0
}

func (d *jsonDecoder) ws() {
	for d.pos < len(d.data) && isSpace(d.data[d.pos]) {
		d.pos++
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// more steps to the next element of an object or array whose opening
// byte has been read, reporting false at its closing byte (consumed) or
// after an error.
func (d *jsonDecoder) more(closing byte, first bool) bool {
	if d.err != nil {
		return false
	}
	d.ws()
	switch c := d.peek(); {
	case c == closing:
		d.pos++
		return false
	case !first && c == ',':
		d.pos++
		d.ws()
	case !first:
		d.fail(errJSONSyntax)
	}
	return d.err == nil
}

// colon consumes the ':' after a name and the space around it.
func (d *jsonDecoder) colon() {
	d.ws()
	if d.peek() != ':' {
		d.fail(errJSONSyntax)
		return
	}
	d.pos++
	d.ws()
}

// literal consumes word (null, true or false) if it is next.
func (d *jsonDecoder) literal(word string) bool {
	if !strings.HasPrefix(string(d.data[d.pos:]), word) {
		d.fail(errJSONSyntax)
		return false
	}
	d.pos += len(word)
	return true
}

// null consumes a null, telling the caller to clear its target.
func (d *jsonDecoder) null() bool { return d.literal("null") }

func (d *jsonDecoder) value(v *Value) {
	switch d.peek() {
	case '{':
		d.object(v)
	case 'n':
		d.null() // encoding/json leaves a struct alone on null
	default:
		d.mismatch(valueType)
	}
}

func (d *jsonDecoder) object(v *Value) {
	if !d.enter() {
		return
	}
	d.pos++
	for first := true; d.more('}', first); first = false {
		k := memberKind(d.stringBytes())
		d.colon()
		if d.err != nil {
			return
		}
		d.member(v, k)
	}
	d.leave()
}

func (d *jsonDecoder) member(v *Value, k Kind) {
	switch k {
	case S:
		d.stringPtr(&v.S)
	case N:
		d.stringPtr(&v.N)
	case B:
		d.bytes(&v.B)
	case BOOL:
		d.boolPtr(&v.BOOL)
	case NULL:
		d.boolPtr(&v.NULL)
	case M:
		d.mapMember(&v.M)
	case L:
		d.list(&v.L)
	case SS:
		d.strings(&v.SS)
	case NS:
		d.strings(&v.NS)
	case BS:
		d.byteses(&v.BS)
	default:
		d.skip()
	}
	if d.err != nil && k != Invalid {
		d.path = append(d.path, k.String())
	}
}

// memberKind matches a member name the way encoding/json matches struct
// fields: exactly or, failing that, under Unicode simple case folding,
// where the only non-ASCII letter that folds into Value's names is 'ſ'
// (U+017F), an S.
func memberKind(name []byte) Kind {
	var buf [4]byte
	n := 0
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case n == len(buf):
			return Invalid
		case 'a' <= c && c <= 'z':
			c -= 'a' - 'A'
		case c == 0xC5 && i+1 < len(name) && name[i+1] == 0xBF:
			c = 'S'
			i++
		}
		buf[n] = c
		n++
	}
	return KindOf(string(buf[:n]))
}

func (d *jsonDecoder) stringPtr(p **string) {
	switch d.peek() {
	case '"':
		*p = d.newString(d.string())
	case 'n':
		if d.null() {
			*p = nil
		}
	default:
		d.mismatch(stringType)
	}
}

// newString hands out pointers into a shared slab, one allocation for
// several S and N members instead of one each. The first slab is sized
// from the input, about one S or N per bytesPerString of it, so that a
// typical item needs one.
func (d *jsonDecoder) newString(s string) *string {
	if len(d.ptrs) == cap(d.ptrs) {
		d.ptrs = make([]string, 0, min(max(2*cap(d.ptrs)+2, len(d.data)/bytesPerString), 32))
	}
	d.ptrs = append(d.ptrs, s)
	return &d.ptrs[len(d.ptrs)-1]
}

func (d *jsonDecoder) boolPtr(p **bool) {
	switch d.peek() {
	case 't':
		if d.literal("true") {
			b := true
			*p = &b
		}
	case 'f':
		if d.literal("false") {
			b := false
			*p = &b
		}
	case 'n':
		if d.null() {
			*p = nil
		}
	default:
		d.mismatch(boolType)
	}
}

// mapMember decodes an M, or a whole Item.
func (d *jsonDecoder) mapMember(p *map[string]Value) {
	switch d.peek() {
	case '{':
		d.mapInto(p)
	case 'n':
		if d.null() {
			*p = nil
		}
	default:
		d.mismatch(mapType)
	}
}

func (d *jsonDecoder) mapInto(p *map[string]Value) {
	if !d.enter() {
		return
	}
	d.pos++
	if *p == nil {
		*p = make(map[string]Value)
	}
	m := *p
	// The recursion makes every Value decoded into escape; one per map,
	// reset for each member as encoding/json does, keeps that to one
	// allocation.
	v := new(Value)
	for first := true; d.more('}', first); first = false {
		k := d.name()
		d.colon()
		*v = Value{}
		d.value(v)
		if d.err != nil {
			return
		}
		m[k] = *v
	}
	d.leave()
}

func (d *jsonDecoder) list(p *[]Value) {
	switch d.peek() {
	case '[':
		if d.enter() {
			d.values(p)
			d.leave()
		}
	case 'n':
		if d.null() {
			*p = nil
		}
	default:
		d.mismatch(listType)
	}
}

// values, stringElems, bytesElems and byteElems decode a JSON array the way
// encoding/json decodes one into a slice: into the elements already there
// (slot), truncating the rest (trim). They are written out per type since
// a shared one taking a func would make the decoder escape.
func (d *jsonDecoder) values(p *[]Value) {
	s, n := *p, 0
	d.pos++
	for first := true; d.more(']', first); first = false {
		s = slot(s, n)
		d.value(&s[n])
		n++
	}
	*p = trim(s, n)
}

func (d *jsonDecoder) strings(p *[]string) {
	switch d.peek() {
	case '[':
		d.stringElems(p)
	case 'n':
		if d.null() {
			*p = nil
		}
	default:
		d.mismatch(stringsType)
	}
}

func (d *jsonDecoder) stringElems(p *[]string) {
	s, n := *p, 0
	if s == nil {
		s = make([]string, 0, stringsAhead(d.data, d.pos+1))
	}
	d.pos++
	for first := true; d.more(']', first); first = false {
		s = slot(s, n)
		d.stringElem(&s[n])
		n++
	}
	*p = trim(s, n)
}

// stringsAhead counts the strings that start the array whose contents
// start at data[i], so that a new SS or NS is allocated once.
func stringsAhead(data []byte, i int) int {
	n := 0
	for i < len(data) && isSpace(data[i]) {
		i++
	}
	for i < len(data) && data[i] == '"' {
		end, _ := stringEnd(data, i+1)
		if end < 0 {
			break
		}
		n++
		for i = end + 1; i < len(data) && (data[i] == ',' || isSpace(data[i])); i++ {
		}
	}
	return n
}

// stringElem leaves *s alone on null, as encoding/json does for a string.
func (d *jsonDecoder) stringElem(s *string) {
	switch d.peek() {
	case '"':
		*s = d.string()
	case 'n':
		d.null()
	default:
		d.mismatch(stringType)
	}
}

func (d *jsonDecoder) byteses(p *[][]byte) {
	switch d.peek() {
	case '[':
		d.bytesElems(p)
	case 'n':
		if d.null() {
			*p = nil
		}
	default:
		d.mismatch(bytesesType)
	}
}

func (d *jsonDecoder) bytesElems(p *[][]byte) {
	s, n := *p, 0
	d.pos++
	for first := true; d.more(']', first); first = false {
		s = slot(s, n)
		d.bytes(&s[n])
		n++
	}
	*p = trim(s, n)
}

// bytes decodes a B or an element of a BS: base64 as encoding/json
// decodes a []byte, or what it also takes, an array of byte values.
func (d *jsonDecoder) bytes(p *[]byte) {
	switch d.peek() {
	case '"':
		d.base64(p)
	case '[':
		d.byteElems(p)
	case 'n':
		if d.null() {
			*p = nil
		}
	default:
		d.mismatch(bytesType)
	}
}

func (d *jsonDecoder) base64(p *[]byte) {
	s := d.stringBytes()
	b := make([]byte, base64.StdEncoding.DecodedLen(len(s)))
	n, err := base64.StdEncoding.Decode(b, s)
	if err != nil {
		d.fail(err)
		return
	}
	*p = b[:n]
}

func (d *jsonDecoder) byteElems(p *[]byte) {
	s, n := *p, 0
	d.pos++
	for first := true; d.more(']', first); first = false {
		s = slot(s, n)
		d.byteElem(&s[n])
		n++
	}
	*p = trim(s, n)
}

func (d *jsonDecoder) byteElem(b *byte) {
	switch c := d.peek(); {
	case c == 'n':
		d.null()
	case c == '-' || '0' <= c && c <= '9':
		d.byteNumber(b)
	default:
		d.mismatch(uint8Type)
	}
}

func (d *jsonDecoder) byteNumber(b *byte) {
	start := d.pos
	d.skipLiteral()
	num := string(d.data[start:d.pos])
	n, err := strconv.ParseUint(num, 10, 8)
	if err != nil {
		d.fail(&json.UnmarshalTypeError{Value: "number " + num, Type: uint8Type, Offset: int64(d.pos)})
		return
	}
	*b = byte(n)
}

// slot makes s long enough to hold index i, reusing its capacity first.
func slot[T any](s []T, i int) []T {
	switch {
	case i < len(s):
		return s
	case i < cap(s):
		return s[:i+1]
	}
	var zero T
	return append(s, zero)
}

// trim ends s after n elements; an empty array gives an empty slice.
func trim[T any](s []T, n int) []T {
	if n == 0 {
		return []T{}
	}
	return s[:n]
}
