package partiql

import "strings"

// tokKind classifies a token.
type tokKind uint8

const (
	tEOF    tokKind = iota
	tIdent          // unquoted name or keyword
	tQuoted         // "double-quoted name"
	tString         // 'single-quoted string'
	tNumber         // 12, 1.5, 3e7
	tPunct          // operators and brackets
)

// token is one lexeme with its byte offset in the statement.
type token struct {
	kind tokKind
	text string // for strings and quoted names, the unescaped content
	pos  int
}

// is reports whether t is the punctuation or keyword s (keywords match
// without regard to case).
func (t token) is(s string) bool {
	return (t.kind == tPunct && t.text == s) || (t.kind == tIdent && strings.EqualFold(t.text, s))
}

// puncts are the operators, longest first so that "<=" wins over "<".
var puncts = []string{"<<", ">>", "<=", ">=", "<>", "!=", "(", ")", "[", "]", "{", "}", ",", ".", ":", "?", "=", "<", ">", "+", "-", "*"}

// scanner splits a statement into tokens.
type scanner struct {
	src  string
	i    int
	toks []token
}

// tokenize returns the statement's tokens, ending with tEOF. A string,
// name or comment left open is malformed with nothing after the colon, as
// DynamoDB answers it.
func tokenize(src string) ([]token, error) {
	s := &scanner{src: src}
	for {
		if !s.skipSpace() {
			return nil, malformed("")
		}
		if s.i >= len(src) {
			return append(s.toks, token{kind: tEOF, pos: s.i}), nil
		}
		if !s.next() {
			return nil, malformed("")
		}
	}
}

// skipSpace skips blanks and comments (-- to the end of the line, /* */);
// false for a comment never closed.
func (s *scanner) skipSpace() bool {
	for s.i < len(s.src) {
		rest := s.src[s.i:]
		switch {
		case strings.HasPrefix(rest, "--"):
			s.i += lineEnd(rest)
		case strings.HasPrefix(rest, "/*"):
			end := strings.Index(rest[2:], "*/")
			if end < 0 {
				return false
			}
			s.i += end + 4
		case strings.ContainsRune(" \t\r\n", rune(rest[0])):
			s.i++
		default:
			return true
		}
	}
	return true
}

func lineEnd(s string) int {
	if n := strings.IndexByte(s, '\n'); n >= 0 {
		return n
	}
	return len(s)
}

// next scans one token at s.i; false when no token starts there.
func (s *scanner) next() bool {
	c := s.src[s.i]
	switch {
	case c == '\'' || c == '"':
		return s.quoted(c)
	case isDigit(c) || (c == '.' && s.i+1 < len(s.src) && isDigit(s.src[s.i+1])):
		s.number()
	case isIdentStart(c):
		s.ident()
	default:
		return s.punct()
	}
	return true
}

// quoted scans 'string' or "name"; a doubled quote stands for itself.
func (s *scanner) quoted(q byte) bool {
	start, kind := s.i, tString
	if q == '"' {
		kind = tQuoted
	}
	var b strings.Builder
	for s.i++; s.i < len(s.src); s.i++ {
		if s.src[s.i] != q {
			b.WriteByte(s.src[s.i])
			continue
		}
		if s.i+1 < len(s.src) && s.src[s.i+1] == q {
			b.WriteByte(q)
			s.i++
			continue
		}
		s.i++
		s.toks = append(s.toks, token{kind, b.String(), start})
		return true
	}
	return false
}

// number scans digits, a fraction and an exponent; the text is checked
// when the literal becomes a value.
func (s *scanner) number() {
	start := s.i
	s.digits()
	if s.i < len(s.src) && s.src[s.i] == '.' {
		s.i++
		s.digits()
	}
	if s.i < len(s.src) && (s.src[s.i] == 'e' || s.src[s.i] == 'E') {
		s.i++
		if s.i < len(s.src) && (s.src[s.i] == '+' || s.src[s.i] == '-') {
			s.i++
		}
		s.digits()
	}
	s.toks = append(s.toks, token{tNumber, s.src[start:s.i], start})
}

func (s *scanner) digits() {
	for s.i < len(s.src) && isDigit(s.src[s.i]) {
		s.i++
	}
}

func (s *scanner) ident() {
	start := s.i
	for s.i < len(s.src) && (isIdentStart(s.src[s.i]) || isDigit(s.src[s.i])) {
		s.i++
	}
	s.toks = append(s.toks, token{tIdent, s.src[start:s.i], start})
}

func (s *scanner) punct() bool {
	for _, p := range puncts {
		if strings.HasPrefix(s.src[s.i:], p) {
			s.toks = append(s.toks, token{tPunct, p, s.i})
			s.i += len(p)
			return true
		}
	}
	return false
}

func isDigit(c byte) bool      { return c >= '0' && c <= '9' }
func isIdentStart(c byte) bool { return c == '_' || c == '$' || (c|0x20 >= 'a' && c|0x20 <= 'z') }
