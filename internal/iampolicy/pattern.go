package iampolicy

import (
	"strings"
	"unicode/utf8"
)

type tokKind uint8

const (
	tLit   tokKind = iota // literal text
	tStar                 // * : any run of characters
	tQmark                // ? : exactly one character
	tVar                  // ${key} or ${key, 'default'}
)

// token is one compiled piece of a policy string. For tVar, s is the
// lowercased context key and def the default (valid when hasDef).
type token struct {
	kind   tokKind
	s      string
	def    string
	hasDef bool
}

// pattern is a compiled policy string: Action, Resource component or
// condition value. Compiling once lets Evaluate match without allocating.
type pattern struct {
	raw   string
	toks  []token
	fixed []rtok // the resolved form, precomputed when there are no variables
}

// compilePattern splits s into tokens. wild makes * and ? wildcards; vars
// (Version 2012-10-17 only) makes ${...} a policy variable.
func compilePattern(s string, wild, vars bool) pattern {
	p := pattern{raw: s}
	lit := 0
	flush := func(end int) {
		if end > lit {
			p.toks = append(p.toks, token{kind: tLit, s: s[lit:end]})
		}
	}
	for i := 0; i < len(s); {
		if vars && strings.HasPrefix(s[i:], "${") {
			if t, n, ok := parseVariable(s[i:]); ok {
				flush(i)
				p.toks = append(p.toks, t)
				i += n
				lit = i
				continue
			}
		}
		if wild && (s[i] == '*' || s[i] == '?') {
			flush(i)
			p.toks = append(p.toks, token{kind: wildKind(s[i])})
			i++
			lit = i
			continue
		}
		i++
	}
	flush(len(s))
	if !p.hasVar() {
		p.fixed = make([]rtok, len(p.toks))
		for i, t := range p.toks {
			p.fixed[i] = rtok{kind: t.kind, s: t.s}
		}
	}
	return p
}

func wildKind(c byte) tokKind {
	if c == '*' {
		return tStar
	}
	return tQmark
}

// parseVariable reads "${...}" at the start of s. ${*}, ${?} and ${$} stand
// for the literal character; ${key, 'default'} carries a default in which ”
// is a quote. Anything malformed is not a variable and stays literal text.
func parseVariable(s string) (token, int, bool) {
	end := variableEnd(s)
	if end < 0 {
		return token{}, 0, false
	}
	body := strings.TrimSpace(s[2:end])
	switch body {
	case "*", "?", "$":
		return token{kind: tLit, s: body}, end + 1, true
	case "":
		return token{}, 0, false
	}
	key, def, hasDef := body, "", false
	if comma := strings.IndexByte(body, ','); comma >= 0 {
		key = strings.TrimSpace(body[:comma])
		var ok bool
		if def, ok = unquoteDefault(strings.TrimSpace(body[comma+1:])); !ok {
			return token{}, 0, false
		}
		hasDef = true
	}
	if key == "" || strings.ContainsAny(key, " \t'") {
		return token{}, 0, false
	}
	return token{kind: tVar, s: strings.ToLower(key), def: def, hasDef: hasDef}, end + 1, true
}

// variableEnd finds the "}" closing a variable, skipping a quoted default
// (which may itself contain braces).
func variableEnd(s string) int {
	quoted := false
	for i := 2; i < len(s); i++ {
		switch {
		case s[i] == '\'':
			quoted = !quoted
		case s[i] == '}' && !quoted:
			return i
		}
	}
	return -1
}

func unquoteDefault(q string) (string, bool) {
	if len(q) < 2 || q[0] != '\'' || q[len(q)-1] != '\'' {
		return "", false
	}
	inner := q[1 : len(q)-1]
	if strings.Count(inner, "'")%2 != 0 || strings.Contains(strings.ReplaceAll(inner, "''", ""), "'") {
		return "", false
	}
	return strings.ReplaceAll(inner, "''", "'"), true
}

// rtok is a token after variable resolution: literal or wildcard.
type rtok struct {
	kind tokKind
	s    string
}

// maxStackToks bounds the tokens resolved into a caller's stack buffer;
// longer patterns fall back to a heap slice.
const maxStackToks = 16

// resolve substitutes variables into buf. ok is false when a variable has
// no single value and no default: the element holding it does not match.
func (p *pattern) resolve(r *Request, buf *[maxStackToks]rtok) ([]rtok, bool) {
	if p.fixed != nil {
		return p.fixed, true
	}
	out := buf[:0]
	if len(p.toks) > maxStackToks {
		out = make([]rtok, 0, len(p.toks))
	}
	for _, t := range p.toks {
		if t.kind != tVar {
			out = append(out, rtok{kind: t.kind, s: t.s})
			continue
		}
		v, ok := r.variable(t.s)
		if !ok {
			if !t.hasDef {
				return nil, false
			}
			v = t.def
		}
		out = append(out, rtok{kind: tLit, s: v})
	}
	return out, true
}

// glob matches s against resolved tokens: * any run, ? one character,
// literals byte for byte (ASCII case folded when fold). It backtracks only
// to the last star, which is enough for * and ? and keeps it linear-ish.
func glob(toks []rtok, s string, fold bool) bool {
	if m, done := globSimple(toks, s, fold); done {
		return m
	}
	var c, star cursor
	si, starS, haveStar := 0, 0, false
	c.norm(toks)
	for si < len(s) {
		if !c.end(toks) {
			t := toks[c.t]
			switch {
			case t.kind == tStar:
				c.next(toks)
				star, starS, haveStar = c, si, true
				continue
			case t.kind == tQmark:
				_, w := utf8.DecodeRuneInString(s[si:])
				si += w
				c.next(toks)
				continue
			case byteEq(t.s[c.o], s[si], fold):
				si++
				c.o++
				c.norm(toks)
				continue
			}
		}
		if !haveStar {
			return false
		}
		_, w := utf8.DecodeRuneInString(s[starS:])
		starS += w
		si, c = starS, star
	}
	for !c.end(toks) && toks[c.t].kind == tStar {
		c.next(toks)
	}
	return c.end(toks)
}

// globSimple answers the common shapes (a literal, "*", "prefix*") with
// one comparison; done is false for anything else.
func globSimple(toks []rtok, s string, fold bool) (matched, done bool) {
	switch {
	case len(toks) == 1 && toks[0].kind == tLit:
		return equalBytes(toks[0].s, s, fold), true
	case len(toks) == 1 && toks[0].kind == tStar:
		return true, true
	case len(toks) == 2 && toks[0].kind == tLit && toks[1].kind == tStar:
		return len(s) >= len(toks[0].s) && equalBytes(toks[0].s, s[:len(toks[0].s)], fold), true
	}
	return false, false
}

func equalBytes(a, b string, fold bool) bool {
	if len(a) != len(b) {
		return false
	}
	if !fold {
		return a == b
	}
	for i := 0; i < len(a); i++ {
		if !byteEq(a[i], b[i], true) {
			return false
		}
	}
	return true
}

// cursor is a position in a token list: token index and byte offset in it.
type cursor struct{ t, o int }

func (c *cursor) end(toks []rtok) bool { return c.t >= len(toks) }

func (c *cursor) next(toks []rtok) {
	c.t++
	c.o = 0
	c.norm(toks)
}

// norm skips exhausted and empty literal tokens.
func (c *cursor) norm(toks []rtok) {
	for c.t < len(toks) && toks[c.t].kind == tLit && c.o >= len(toks[c.t].s) {
		c.t++
		c.o = 0
	}
}

func byteEq(a, b byte, fold bool) bool {
	if a == b {
		return true
	}
	return fold && lowerASCII(a) == lowerASCII(b)
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// equalToks compares s with the concatenation of literal tokens; fold uses
// Unicode case folding piece by piece (IgnoreCase operators).
func equalToks(toks []rtok, s string, fold bool) bool {
	for _, t := range toks {
		if len(t.s) > len(s) {
			return false
		}
		head := s[:len(t.s)]
		if head != t.s && !(fold && strings.EqualFold(head, t.s)) {
			return false
		}
		s = s[len(t.s):]
	}
	return s == ""
}
