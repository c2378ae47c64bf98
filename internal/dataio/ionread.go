package dataio

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// ionRecords reads ION: a stream of Ion text values, each {Item:{...}},
// with version markers ($ion_1_0) between them. DynamoDB writes one item
// a line, but Ion lets a value span lines (long strings, pretty
// printing), so the reader takes more lines while a value is open. A
// value that is not an item is one error, and reading goes on at the
// line after the one it began on, so a broken line never costs the next.
//
// The whole Ion text syntax is read (comments, quoted and bare symbols,
// long strings, every escape, d exponents, underscores, hex and binary
// ints, blobs); values with no DynamoDB type (timestamps, floats that are
// not numbers, clobs, s-expressions, typed nulls, symbol IDs) are errors.
type ionRecords struct {
	r       *bufio.Reader
	buf     []byte // the current value's lines
	pos     int
	err     error // the input's read error, io.EOF at its end
	tooLong bool
}

// errVersionMarker is $ion_1_0 at the top: no value, read on.
var errVersionMarker = errors.New(ionVersionMarker)

// DecodeIonLine reads one ION record, [$ion_1_0] {Item:{...}}, into an
// item: the text must hold exactly one.
func DecodeIonLine(text []byte) (Item, error) {
	p := &ionRecords{r: bufio.NewReaderSize(bytes.NewReader(text), 4<<10)}
	item, err := p.next()
	if err == io.EOF {
		return nil, errors.New(msgIonNotStruct)
	}
	if err != nil {
		return nil, err
	}
	if _, err := p.next(); err != io.EOF {
		return nil, errors.New(msgIonOneItem)
	}
	return item, nil
}

func newIonRecords(r io.Reader) *ionRecords {
	return &ionRecords{r: bufio.NewReaderSize(r, 64<<10)}
}

func (p *ionRecords) next() (Item, error) {
	for {
		if err := p.skipSpace(); err != nil {
			return nil, p.fail(err)
		}
		p.buf, p.pos = p.buf[:copy(p.buf, p.buf[p.pos:])], 0
		if _, ok := p.peek(0); !ok {
			return nil, p.end()
		}
		v, err := p.value(0)
		if err == errVersionMarker {
			continue
		}
		if err == nil {
			var item Item
			if item, err = ionItem(v); err == nil {
				return item, nil
			}
		}
		return nil, p.fail(err)
	}
}

// end is the error at the end of the input: io.EOF, or the read error.
func (p *ionRecords) end() error {
	if p.tooLong {
		return p.fail(nil)
	}
	return p.err
}

// fail turns a value's error into a *lineError and drops the value's
// first line; an input that cannot be read is the file's error.
func (p *ionRecords) fail(err error) error {
	if p.err != nil && p.err != io.EOF {
		return p.err
	}
	if p.tooLong {
		p.tooLong, p.buf, p.pos = false, p.buf[:0], 0
		return &lineError{fmt.Errorf(msgLineTooLong, maxLineBytes)}
	}
	rest := p.buf[:0]
	if i := bytes.IndexByte(p.buf, '\n'); i >= 0 {
		rest = p.buf[i+1:]
	}
	p.buf, p.pos = p.buf[:copy(p.buf, rest)], 0
	return &lineError{err}
}

func ionItem(v types.AttributeValue) (Item, error) {
	top, ok := v.(*types.AttributeValueMemberM)
	if !ok {
		return nil, errors.New(msgIonNotStruct)
	}
	for name := range top.Value {
		if name != "Item" {
			return nil, fmt.Errorf(msgExtraMember, name)
		}
	}
	item, ok := top.Value["Item"].(*types.AttributeValueMemberM)
	if !ok {
		return nil, errors.New(msgNoItem)
	}
	return item.Value, nil
}

// peek is the byte k past the position, reading more lines as needed;
// false at the end of the input or once the value is too long.
func (p *ionRecords) peek(k int) (byte, bool) {
	for p.pos+k >= len(p.buf) {
		if !p.more() {
			return 0, false
		}
	}
	return p.buf[p.pos+k], true
}

func (p *ionRecords) at(s string) bool {
	for i := range len(s) {
		if c, ok := p.peek(i); !ok || c != s[i] {
			return false
		}
	}
	return true
}

// more appends the next line to buf, bounded by maxLineBytes.
func (p *ionRecords) more() bool {
	if p.err != nil || p.tooLong {
		return false
	}
	before := len(p.buf)
	for {
		chunk, err := p.r.ReadSlice('\n')
		if len(p.buf)+len(chunk) > maxLineBytes {
			p.tooLong = true
			p.skipLine(err)
			return false
		}
		p.buf = append(p.buf, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil {
			p.err = err
		}
		return len(p.buf) > before
	}
}

func (p *ionRecords) skipLine(err error) {
	for errors.Is(err, bufio.ErrBufferFull) {
		_, err = p.r.ReadSlice('\n')
	}
	if err != nil {
		p.err = err
	}
}

func (p *ionRecords) syntax(format string, args ...any) error {
	return fmt.Errorf(msgIonSyntax, p.pos, fmt.Sprintf(format, args...))
}

func isIonSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// skipSpace skips whitespace and comments.
func (p *ionRecords) skipSpace() error {
	for {
		c, ok := p.peek(0)
		switch {
		case !ok:
			return nil
		case isIonSpace(c):
			p.pos++
		case p.at("//"):
			for c, ok := p.peek(0); ok && c != '\n'; c, ok = p.peek(0) {
				p.pos++
			}
		case p.at("/*"):
			if err := p.skipBlockComment(); err != nil {
				return err
			}
		default:
			return nil
		}
	}
}

func (p *ionRecords) skipBlockComment() error {
	for p.pos += 2; !p.at("*/"); p.pos++ {
		if _, ok := p.peek(0); !ok {
			return errors.New(msgIonComment)
		}
	}
	p.pos += 2
	return nil
}

// value reads one value with its annotations. A symbol is read before
// it is known to be an annotation (followed by ::) or the value itself.
func (p *ionRecords) value(depth int) (types.AttributeValue, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf(msgTooDeep, maxDepth)
	}
	var annotations []string
	for {
		c, ok := p.peek(0)
		if !ok {
			return nil, errors.New(msgIonTruncated)
		}
		if !isIdentStart(c) && (c != '\'' || p.at("'''")) {
			return p.bare(depth, annotations)
		}
		sym, quoted, err := p.symbol()
		if err == nil {
			err = p.skipSpace()
		}
		if err != nil {
			return nil, err
		}
		if !p.at("::") {
			return symbolValue(sym, quoted, depth, annotations)
		}
		p.pos += 2
		annotations = append(annotations, sym)
		if err := p.skipSpace(); err != nil {
			return nil, err
		}
	}
}

func isIdentStart(c byte) bool { return isIdentByte(c) && !isDigit(c) }

// symbol reads a bare or quoted symbol.
func (p *ionRecords) symbol() (string, bool, error) {
	if c, _ := p.peek(0); c == '\'' {
		p.pos++
		s, err := p.quoted('\'', false)
		return s, true, err
	}
	start := p.pos
	p.identBytes()
	if string(p.buf[start:p.pos]) == "null" && p.at(".") {
		p.pos++
		p.identBytes()
	}
	return string(p.buf[start:p.pos]), false, nil
}

func (p *ionRecords) identBytes() {
	for c, ok := p.peek(0); ok && isIdentByte(c); c, ok = p.peek(0) {
		p.pos++
	}
}

// symbolValue is a symbol read as a value: a keyword, or a string.
func symbolValue(sym string, quoted bool, depth int, annotations []string) (types.AttributeValue, error) {
	if len(annotations) > 0 {
		return nil, fmt.Errorf(msgIonAnnotation, strings.Join(annotations, "::"))
	}
	if quoted {
		return &types.AttributeValueMemberS{Value: sym}, nil
	}
	switch {
	case sym == "true" || sym == "false":
		return &types.AttributeValueMemberBOOL{Value: sym == "true"}, nil
	case sym == "null" || sym == "null.null":
		return &types.AttributeValueMemberNULL{Value: true}, nil
	case strings.HasPrefix(sym, "null.") || sym == "nan":
		return nil, fmt.Errorf(msgIonNoType, sym)
	case sym == ionVersionMarker && depth == 0:
		return nil, errVersionMarker
	case isSymbolID(sym):
		return nil, fmt.Errorf(msgIonSymbolID, sym)
	}
	return &types.AttributeValueMemberS{Value: sym}, nil
}

// isSymbolID is $ and digits: a symbol table's entry, not text.
func isSymbolID(sym string) bool {
	return len(sym) > 1 && sym[0] == '$' && strings.Trim(sym[1:], "0123456789") == ""
}

// bare reads a value that does not start with a symbol.
func (p *ionRecords) bare(depth int, annotations []string) (types.AttributeValue, error) {
	if len(annotations) > 0 {
		return p.set(depth, annotations)
	}
	c, _ := p.peek(0)
	switch {
	case p.at("{{"):
		return p.blob()
	case c == '{':
		return p.structValue(depth)
	case c == '[':
		l, err := p.list(depth)
		return &types.AttributeValueMemberL{Value: l}, err
	case c == '"' || c == '\'':
		s, err := p.text()
		return &types.AttributeValueMemberS{Value: s}, err
	case c == '(':
		return nil, fmt.Errorf(msgIonNoType, "s-expression")
	case isDigit(c) || c == '-' || c == '+':
		return ionNumber(p.token())
	}
	return nil, p.syntax(msgIonUnexpected, c)
}

// token reads a number or timestamp up to the next delimiter.
func (p *ionRecords) token() string {
	start := p.pos
	for c, ok := p.peek(0); ok && (isIdentByte(c) || strings.IndexByte(".+-:", c) >= 0); c, ok = p.peek(0) {
		p.pos++
	}
	return string(p.buf[start:p.pos])
}

var ionSetKinds = map[string]string{ionAnnotationSS: "SS", ionAnnotationNS: "NS", ionAnnotationBS: "BS"}

// set reads a list annotated as a DynamoDB set.
func (p *ionRecords) set(depth int, annotations []string) (types.AttributeValue, error) {
	kind := ionSetKinds[annotations[0]]
	if c, _ := p.peek(0); len(annotations) != 1 || kind == "" || c != '[' {
		return nil, fmt.Errorf(msgIonAnnotation, strings.Join(annotations, "::"))
	}
	members, err := p.list(depth)
	if err != nil {
		return nil, err
	}
	switch kind {
	case "SS":
		ss, err := setOf(members, kind, func(v *types.AttributeValueMemberS) string { return v.Value })
		return &types.AttributeValueMemberSS{Value: ss}, err
	case "NS":
		ns, err := setOf(members, kind, func(v *types.AttributeValueMemberN) string { return v.Value })
		return &types.AttributeValueMemberNS{Value: ns}, err
	}
	bs, err := setOf(members, kind, func(v *types.AttributeValueMemberB) []byte { return v.Value })
	return &types.AttributeValueMemberBS{Value: bs}, err
}

func setOf[M types.AttributeValue, T any](members []types.AttributeValue, kind string, get func(M) T) ([]T, error) {
	out := make([]T, len(members))
	for i, m := range members {
		v, ok := m.(M)
		if !ok {
			return nil, fmt.Errorf(msgIonSetMember, kind, i)
		}
		out[i] = get(v)
	}
	return out, nil
}

// list reads [v, v, ...], a trailing comma allowed.
func (p *ionRecords) list(depth int) ([]types.AttributeValue, error) {
	out := []types.AttributeValue{}
	for p.pos++; ; {
		if end, err := p.closes(']'); end || err != nil {
			return out, err
		}
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		if err := p.separator(']'); err != nil {
			return nil, err
		}
	}
}

// closes skips space and reports whether the container ends here.
func (p *ionRecords) closes(end byte) (bool, error) {
	if err := p.skipSpace(); err != nil {
		return false, err
	}
	c, ok := p.peek(0)
	if !ok {
		return false, errors.New(msgIonTruncated)
	}
	if c == end {
		p.pos++
	}
	return c == end, nil
}

// separator skips the comma after a member, or stops before the end.
func (p *ionRecords) separator(end byte) error {
	if err := p.skipSpace(); err != nil {
		return err
	}
	c, ok := p.peek(0)
	switch {
	case !ok:
		return errors.New(msgIonTruncated)
	case c == ',':
		p.pos++
	case c != end:
		return p.syntax(msgIonExpected, ", or "+string(end), c)
	}
	return nil
}

// structValue reads {name: v, ...} as a map.
func (p *ionRecords) structValue(depth int) (types.AttributeValue, error) {
	m := Item{}
	for p.pos++; ; {
		if end, err := p.closes('}'); end || err != nil {
			return &types.AttributeValueMemberM{Value: m}, err
		}
		name, v, err := p.field(depth)
		if err != nil {
			return nil, err
		}
		if _, dup := m[name]; dup {
			return nil, fmt.Errorf(msgIonDuplicate, name)
		}
		m[name] = v
		if err := p.separator('}'); err != nil {
			return nil, err
		}
	}
}

func (p *ionRecords) field(depth int) (string, types.AttributeValue, error) {
	name, err := p.fieldName()
	if err == nil {
		err = p.skipSpace()
	}
	if err != nil {
		return "", nil, err
	}
	if c, _ := p.peek(0); c != ':' || p.at("::") {
		return "", nil, p.syntax(msgIonExpected, ":", c)
	}
	p.pos++
	if err := p.skipSpace(); err != nil {
		return "", nil, err
	}
	v, err := p.value(depth + 1)
	if err != nil {
		return "", nil, fmt.Errorf(msgBadAttr, name, err)
	}
	return name, v, nil
}

func (p *ionRecords) fieldName() (string, error) {
	c, _ := p.peek(0)
	switch {
	case c == '"' || p.at("'''"):
		return p.text()
	case c == '\'' || isIdentStart(c):
		name, quoted, err := p.symbol()
		if err == nil && !quoted && isSymbolID(name) {
			err = fmt.Errorf(msgIonSymbolID, name)
		}
		return name, err
	}
	return "", p.syntax(msgIonExpected, "a field name", c)
}

// text reads a short string, or adjacent long strings joined.
func (p *ionRecords) text() (string, error) {
	if !p.at("'''") {
		p.pos++
		return p.quoted('"', false)
	}
	var sb strings.Builder
	for p.at("'''") {
		p.pos += 3
		s, err := p.quoted('\'', true)
		if err == nil {
			err = p.skipSpace()
		}
		if err != nil {
			return "", err
		}
		sb.WriteString(s)
	}
	return sb.String(), nil
}

// quoted reads text up to its closing quote, or three when long.
func (p *ionRecords) quoted(q byte, long bool) (string, error) {
	var out []byte
	for {
		c, ok := p.peek(0)
		var err error
		switch {
		case !ok:
			return "", errors.New(msgIonTruncated)
		case c == q && (!long || p.at("'''")):
			return p.closeQuoted(out, long)
		case c == '\\':
			out, err = p.escape(out)
		case (c == '\n' || c == '\r') && !long:
			return "", p.syntax(msgIonNewline)
		default:
			out = append(out, c)
			p.pos++
		}
		if err != nil {
			return "", err
		}
	}
}

func (p *ionRecords) closeQuoted(out []byte, long bool) (string, error) {
	p.pos++
	if long {
		p.pos += 2
	}
	if !utf8.Valid(out) {
		return "", errors.New(msgIonUTF8)
	}
	return string(out), nil
}

var ionEscapes = map[byte]byte{'a': 7, 'b': 8, 't': '\t', 'n': '\n', 'f': '\f', 'r': '\r', 'v': '\v',
	'?': '?', '0': 0, '\'': '\'', '"': '"', '/': '/', '\\': '\\'}

// escape reads a backslash escape; a backslash before a newline joins
// the lines.
func (p *ionRecords) escape(out []byte) ([]byte, error) {
	c, ok := p.peek(1)
	if !ok {
		return nil, errors.New(msgIonTruncated)
	}
	p.pos += 2
	if b, ok := ionEscapes[c]; ok {
		return append(out, b), nil
	}
	switch c {
	case '\n':
		return out, nil
	case '\r':
		if p.at("\n") {
			p.pos++
		}
		return out, nil
	case 'x':
		return p.hexEscape(out, 2)
	case 'u':
		return p.hexEscape(out, 4)
	case 'U':
		return p.hexEscape(out, 8)
	}
	return nil, p.syntax(msgIonEscape, c)
}

// hexEscape reads a code point, joining a UTF-16 surrogate pair.
func (p *ionRecords) hexEscape(out []byte, n int) ([]byte, error) {
	r, err := p.hexDigits(n)
	if err != nil {
		return nil, err
	}
	if n == 4 && utf16.IsSurrogate(r) && p.at(`\u`) {
		p.pos += 2
		lo, err := p.hexDigits(4)
		if err != nil {
			return nil, err
		}
		if r = utf16.DecodeRune(r, lo); r == unicode.ReplacementChar {
			return nil, p.syntax(msgIonRune, lo)
		}
	}
	if !utf8.ValidRune(r) {
		return nil, p.syntax(msgIonRune, r)
	}
	return utf8.AppendRune(out, r), nil
}

func (p *ionRecords) hexDigits(n int) (rune, error) {
	var r rune
	for range n {
		c, ok := p.peek(0)
		if !ok {
			return 0, errors.New(msgIonTruncated)
		}
		d := strings.IndexByte("0123456789abcdef", c|0x20)
		if d < 0 || c < '0' {
			return 0, p.syntax(msgIonUnexpected, c)
		}
		r = r<<4 | rune(d)
		p.pos++
	}
	return r, nil
}

// blob reads {{ base64 }}; a clob ({{ "text" }}) has no DynamoDB type.
func (p *ionRecords) blob() (types.AttributeValue, error) {
	var b64 []byte
	for p.pos += 2; ; p.pos++ {
		c, ok := p.peek(0)
		switch {
		case !ok:
			return nil, errors.New(msgIonTruncated)
		case c == '"' || c == '\'':
			return nil, fmt.Errorf(msgIonNoType, "clob")
		case c == '}':
			return p.closeBlob(b64)
		case !isIonSpace(c):
			b64 = append(b64, c)
		}
	}
}

func (p *ionRecords) closeBlob(b64 []byte) (types.AttributeValue, error) {
	if !p.at("}}") {
		return nil, p.syntax(msgIonExpected, "}}", '}')
	}
	p.pos += 2
	b, err := base64.StdEncoding.DecodeString(string(b64))
	if err != nil {
		return nil, fmt.Errorf(msgIonBlob, err)
	}
	return &types.AttributeValueMemberB{Value: nonNil(b)}, nil
}
