package protocol

import (
	"strconv"
	"unsafe"

	"github.com/sortkeydb/sortkey/internal/attr"
)

// The hot operations' envelopes are decoded by a scanner of their own:
// encoding/json's validation pass, reflection over the input's fields and
// second scan of each Item before its UnmarshalJSON were about 7% of the
// server's CPU per request. The scanner only takes the canonical subset of
// bodies, where its result is plainly what encoding/json's would be: exact
// member names, each once, each value of its field's JSON type, no null.
// On anything else (including any error) it gives up, and Decode starts
// over with encoding/json, which then produces the value or the error. The
// scanner therefore never reports an error of its own.

// scanner walks one body once. bad records that the body left the
// canonical subset; every step is a no-op after it.
type scanner struct {
	data  []byte
	pos   int
	bad   bool
	arena string   // data as a string, once a string needs it
	buf   []byte   // scratch for unescaping
	ptrs  []string // a slab the *string members point into
}

// maxScanDepth bounds the validation of nested values. Deeper bodies are
// valid up to encoding/json's own limit of 10000, but rare enough to leave
// to it, and the bound keeps the recursion shallow.
const maxScanDepth = 512

func (s *scanner) fail() { s.bad = true }

func (s *scanner) peek() byte {
	if s.pos < len(s.data) {
		return s.data[s.pos]
	}
	return 0
}

func (s *scanner) ws() {
	for s.pos < len(s.data) && isSpace(s.data[s.pos]) {
		s.pos++
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// open consumes the byte that opens an object or array, which must be next.
func (s *scanner) open(c byte) bool {
	if s.bad || s.peek() != c {
		s.fail()
		return false
	}
	s.pos++
	return true
}

// more steps to the next element of an object or array whose opening byte
// has been read, reporting false at its closing byte (consumed) or once
// the body is bad.
func (s *scanner) more(closing byte, first bool) bool {
	if s.bad {
		return false
	}
	s.ws()
	c := s.peek()
	switch {
	case c == closing:
		s.pos++
		return false
	case first:
		return true
	case c != ',':
		s.fail()
		return false
	}
	s.pos++
	s.ws()
	return true
}

// colon consumes the ':' after a member name and the space around it.
func (s *scanner) colon() {
	s.ws()
	if s.peek() != ':' {
		s.fail()
		return
	}
	s.pos++
	s.ws()
}

// name returns a member name's raw bytes. Names with escapes give up: they
// are never how a client spells a member, and matching them raw would be
// wrong.
func (s *scanner) name() []byte {
	if s.peek() != '"' {
		s.fail()
		return nil
	}
	start := s.pos + 1
	for i := start; i < len(s.data); i++ {
		switch c := s.data[i]; {
		case c == '"':
			s.pos = i + 1
			return s.data[start:i]
		case c == '\\' || c < ' ':
			s.fail()
			return nil
		}
	}
	s.fail()
	return nil
}

// str decodes the string at s.pos as encoding/json decodes one.
func (s *scanner) str() string {
	if s.peek() != '"' {
		s.fail()
		return ""
	}
	start := s.pos + 1
	end, plain := s.stringEnd(start)
	if s.bad {
		return ""
	}
	s.pos = end + 1
	if plain {
		return s.sub(start, end)
	}
	var ok bool
	if s.buf, ok = attr.AppendUnquoted(s.buf[:0], s.data[start:end]); !ok {
		s.fail()
	}
	return string(s.buf)
}

// stringEnd finds the quote closing the string whose contents start at i.
// plain means pure ASCII without escapes, its own decoding; the rest goes
// through attr's unescaping, which also validates the escapes.
func (s *scanner) stringEnd(i int) (end int, plain bool) {
	plain = true
	for ; i < len(s.data); i++ {
		switch c := s.data[i]; {
		case c == '"':
			return i, plain
		case c == '\\':
			plain = false
			i++
		case c < ' ':
			s.fail()
			return 0, false
		case c >= 0x80:
			plain = false
		}
	}
	s.fail()
	return 0, false
}

// arenaMax is the largest body whose strings share one copy of it, as in
// attr: beyond it a kept string could pin too large a copy.
const arenaMax = 4 << 10

func (s *scanner) sub(i, j int) string {
	if text, ok := s.text(); ok {
		return text[i:j]
	}
	return string(s.data[i:j])
}

// text is the body as one string, copied once, when it is small enough
// for its strings to share that copy.
func (s *scanner) text() (string, bool) {
	if len(s.data) > arenaMax {
		return "", false
	}
	if s.arena == "" {
		s.arena = string(s.data)
	}
	return s.arena, true
}

// strPtr decodes a *string member; the pointers share a slab.
func (s *scanner) strPtr(p **string) {
	v := s.str()
	if s.bad {
		return
	}
	if len(s.ptrs) == cap(s.ptrs) {
		s.ptrs = make([]string, 0, 8)
	}
	s.ptrs = append(s.ptrs, v)
	*p = &s.ptrs[len(s.ptrs)-1]
}

func (s *scanner) boolPtr(p **bool) {
	var b bool
	switch {
	case s.literal("true"):
		b = true
	case s.literal("false"):
	default:
		s.fail()
		return
	}
	*p = &b
}

func (s *scanner) literal(word string) bool {
	if len(s.data)-s.pos < len(word) || string(s.data[s.pos:s.pos+len(word)]) != word {
		return false
	}
	s.pos += len(word)
	return true
}

// int64Ptr takes integers only: a fraction or exponent is a type error for
// encoding/json, so it is left to it, as is any value out of range.
func (s *scanner) int64Ptr(p **int64) {
	start := s.pos
	end := s.integerEnd(start)
	if s.bad {
		return
	}
	n, err := strconv.ParseInt(string(s.data[start:end]), 10, 64)
	if err != nil {
		s.fail()
		return
	}
	s.pos = end
	*p = &n
}

// integerEnd returns where the JSON integer at i ends; it is bad if the
// number has a fraction or exponent, or is not JSON.
func (s *scanner) integerEnd(i int) int {
	if i < len(s.data) && s.data[i] == '-' {
		i++
	}
	digits := i
	for i < len(s.data) && '0' <= s.data[i] && s.data[i] <= '9' {
		i++
	}
	switch {
	case i == digits, s.data[digits] == '0' && i > digits+1:
		s.fail()
	case i < len(s.data) && (s.data[i] == '.' || s.data[i] == 'e' || s.data[i] == 'E'):
		s.fail()
	}
	return i
}

// stringMap decodes an object of strings, such as ExpressionAttributeNames.
// A repeated key keeps its last value, as in encoding/json.
func (s *scanner) stringMap(p *map[string]string) {
	if !s.open('{') {
		return
	}
	m := make(map[string]string)
	for first := true; s.more('}', first); first = false {
		k := s.str()
		s.colon()
		v := s.str()
		if s.bad {
			return
		}
		m[k] = v
	}
	*p = m
}

// strings decodes an array of strings; [] gives an empty, non-nil slice.
func (s *scanner) strings(p *[]string) {
	if !s.open('[') {
		return
	}
	l := []string{}
	for first := true; s.more(']', first); first = false {
		v := s.str()
		if s.bad {
			return
		}
		l = append(l, v)
	}
	*p = l
}

// values decodes an array of attribute values (ExecuteStatement's
// Parameters); [] gives an empty, non-nil slice.
func (s *scanner) values(p *[]attr.Value) {
	if !s.open('[') {
		return
	}
	l := []attr.Value{}
	for first := true; s.more(']', first); first = false {
		var v attr.Value
		if s.value(&v); s.bad {
			return
		}
		l = append(l, v)
	}
	*p = l
}

// value validates one attribute value's object, as item does, before
// attr's decoder reads it.
func (s *scanner) value(v *attr.Value) {
	if s.peek() != '{' {
		s.fail()
		return
	}
	start := s.pos
	if s.skipValue(1); !s.bad && v.UnmarshalJSON(s.data[start:s.pos]) != nil {
		s.fail()
	}
}

// item validates the object at s.pos, which encoding/json would have done
// before calling an UnmarshalJSON, since attr's decoder trusts the syntax
// it is given; then hands it the same bytes encoding/json would.
func (s *scanner) item(p *attr.Item) {
	if s.peek() != '{' {
		s.fail()
		return
	}
	start := s.pos
	s.skipValue(1)
	if s.bad {
		return
	}
	if err := s.unmarshalItem(p, start); err != nil {
		s.fail()
	}
}

// unmarshalItem decodes the item that ends at s.pos, its strings sliced
// from the body's own copy when the body is small enough to have one.
func (s *scanner) unmarshalItem(p *attr.Item, start int) error {
	text, ok := s.text()
	if !ok {
		return p.UnmarshalJSON(s.data[start:s.pos])
	}
	return p.UnmarshalJSONText(s.data[start:s.pos], text[start:s.pos], &s.ptrs)
}

// skipValue steps over any valid JSON value, strictly.
func (s *scanner) skipValue(depth int) {
	switch c := s.peek(); {
	case depth > maxScanDepth:
		s.fail()
	case c == '{':
		s.skipObject(depth)
	case c == '[':
		s.skipArray(depth)
	case c == '"':
		end, _ := s.validString(s.pos + 1)
		s.pos = end + 1
	case c == 't':
		s.need("true")
	case c == 'f':
		s.need("false")
	case c == 'n':
		s.need("null")
	default:
		s.skipNumber()
	}
}

func (s *scanner) need(word string) {
	if !s.literal(word) {
		s.fail()
	}
}

func (s *scanner) skipObject(depth int) {
	s.pos++
	for first := true; s.more('}', first); first = false {
		if s.peek() != '"' {
			s.fail()
			return
		}
		end, _ := s.validString(s.pos + 1)
		s.pos = end + 1
		s.colon()
		s.skipValue(depth + 1)
	}
}

func (s *scanner) skipArray(depth int) {
	s.pos++
	for first := true; s.more(']', first); first = false {
		s.skipValue(depth + 1)
	}
}

// validString is stringEnd with the escapes checked as well, for strings
// that are skipped rather than decoded.
func (s *scanner) validString(i int) (end int, plain bool) {
	plain = true
	for ; i < len(s.data); i++ {
		switch c := s.data[i]; {
		case c == '"':
			return i, plain
		case c == '\\':
			plain = false
			i += s.escapeLen(i) - 1
		case c < ' ':
			s.fail()
			return 0, false
		}
	}
	s.fail()
	return 0, false
}

// escapeLen is the length of the valid escape at data[i], or fails.
func (s *scanner) escapeLen(i int) int {
	if i+1 >= len(s.data) {
		s.fail()
		return 1
	}
	switch s.data[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		if i+6 <= len(s.data) && isHex4(s.data[i+2:i+6]) {
			return 6
		}
	}
	s.fail()
	return len(s.data) - i
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// skipNumber steps over a JSON number, with JSON's grammar.
func (s *scanner) skipNumber() {
	i := s.pos
	if i < len(s.data) && s.data[i] == '-' {
		i++
	}
	switch {
	case i < len(s.data) && s.data[i] == '0':
		i++
	case i < len(s.data) && '1' <= s.data[i] && s.data[i] <= '9':
		i = s.digits(i)
	default:
		s.fail()
		return
	}
	if i < len(s.data) && s.data[i] == '.' {
		i = s.someDigits(i + 1)
	}
	if i < len(s.data) && (s.data[i] == 'e' || s.data[i] == 'E') {
		i++
		if i < len(s.data) && (s.data[i] == '+' || s.data[i] == '-') {
			i++
		}
		i = s.someDigits(i)
	}
	s.pos = i
}

func (s *scanner) digits(i int) int {
	for i < len(s.data) && '0' <= s.data[i] && s.data[i] <= '9' {
		i++
	}
	return i
}

// someDigits is digits where at least one is required.
func (s *scanner) someDigits(i int) int {
	j := s.digits(i)
	if j == i {
		s.fail()
	}
	return j
}

// isZero reports whether *p is all zero bytes, which for the input types,
// made only of pointers, maps, slices and structs of them, is their zero
// value. The fast path needs it: encoding/json merges into what a
// non-zero input holds, and the scanner does not.
func isZero[T any](p *T) bool {
	b := unsafe.Slice((*byte)(unsafe.Pointer(p)), unsafe.Sizeof(*p))
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
