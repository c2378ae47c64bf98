package expr

import "unicode/utf8"

// scan splits src into tokens. The last token is always tokEOF, positioned at
// len(src). Scanning never fails: bytes that start no token become tokIllegal
// tokens, which the parser reports as syntax errors.
func scan(src string) []token {
	toks := make([]token, 0, len(src)/4+1)
	for i := skipSpace(src, 0); i < len(src); i = skipSpace(src, i) {
		t := scanOne(src, i)
		toks = append(toks, t)
		i = t.end()
	}
	return append(toks, token{kind: tokEOF, pos: len(src)})
}

// skipSpace returns the offset of the first non-blank byte at or after i.
func skipSpace(src string, i int) int {
	for i < len(src) && isSpace(src[i]) {
		i++
	}
	return i
}

// scanOne scans the token starting at src[i], which is not blank. A bare
// name starts with a letter: DynamoDB makes a leading '_' a token of its
// own, which no rule accepts, so "SET _a = :v" is a syntax error at "_".
func scanOne(src string, i int) token {
	c := src[i]
	switch {
	case isLetter(c):
		t := run(src, i, i+1, tokIdent)
		t.kind = keywordKind(t.text)
		return t
	case isDigit(c):
		return digits(src, i)
	case c == '#':
		return run(src, i, i+1, tokName)
	case c == ':':
		return run(src, i, i+1, tokValue)
	}
	return punct(src, i)
}

// run extends a token from j over identifier bytes; a placeholder sigil with
// nothing after it is illegal.
func run(src string, i, j int, kind tokKind) token {
	for j < len(src) && isIdentByte(src[j]) {
		j++
	}
	if j == i+1 && kind != tokIdent {
		kind = tokIllegal
	}
	return token{kind: kind, pos: i, text: src[i:j]}
}

// digits scans a run of decimal digits.
func digits(src string, i int) token {
	j := i
	for j < len(src) && isDigit(src[j]) {
		j++
	}
	return token{kind: tokNumber, pos: i, text: src[i:j]}
}

var punctKinds = [256]tokKind{
	'(': tokLParen, ')': tokRParen, '[': tokLBrack, ']': tokRBrack, ',': tokComma,
	'.': tokDot, '+': tokPlus, '-': tokMinus, '=': tokEq, '<': tokLt, '>': tokGt,
}

// punct scans an operator or punctuation token, or one illegal character.
func punct(src string, i int) token {
	if i+1 < len(src) {
		switch src[i : i+2] {
		case "<>":
			return token{kind: tokNe, pos: i, text: "<>"}
		case "<=":
			return token{kind: tokLe, pos: i, text: "<="}
		case ">=":
			return token{kind: tokGe, pos: i, text: ">="}
		}
	}
	if k := punctKinds[src[i]]; k != 0 {
		return token{kind: k, pos: i, text: src[i : i+1]}
	}
	_, n := utf8.DecodeRuneInString(src[i:])
	return token{kind: tokIllegal, pos: i, text: src[i : i+n]}
}

func isSpace(c byte) bool     { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
func isDigit(c byte) bool     { return '0' <= c && c <= '9' }
func isLetter(c byte) bool    { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isIdentByte(c byte) bool { return isLetter(c) || isDigit(c) || c == '_' }
