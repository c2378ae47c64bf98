package expr

import "strings"

// tokKind classifies a token of the expression language.
type tokKind uint8

const (
	tokEOF     tokKind = iota
	tokIllegal         // a byte sequence that starts no token, such as "!" or a lone ":"
	tokIdent           // a plain name: attribute or function
	tokName            // #placeholder for an ExpressionAttributeNames entry
	tokValue           // :placeholder for an ExpressionAttributeValues entry
	tokNumber          // decimal digits, a list index
	tokLParen
	tokRParen
	tokLBrack
	tokRBrack
	tokComma
	tokDot
	tokPlus
	tokMinus
	tokEq
	tokNe
	tokLt
	tokLe
	tokGt
	tokGe
	// Keywords: identifiers the grammar gives a meaning, in any case.
	tokAnd
	tokOr
	tokNot
	tokBetween
	tokIn
	tokSet
	tokRemove
	tokAdd
	tokDelete
)

// token is one lexeme with its byte offset in the expression.
type token struct {
	kind tokKind
	pos  int    // byte offset of the first byte
	text string // exactly as written in the source; "" for tokEOF
}

// end is the byte offset just past the token.
func (t token) end() int { return t.pos + len(t.text) }

// isComparator reports whether k is one of = <> < <= > >=.
func (k tokKind) isComparator() bool { return k >= tokEq && k <= tokGe }

// isClause reports whether k starts an update-expression clause.
func (k tokKind) isClause() bool { return k >= tokSet && k <= tokDelete }

var keywords = [...]struct {
	word string
	kind tokKind
}{
	{"AND", tokAnd}, {"OR", tokOr}, {"NOT", tokNot}, {"BETWEEN", tokBetween}, {"IN", tokIn},
	{"SET", tokSet}, {"REMOVE", tokRemove}, {"ADD", tokAdd}, {"DELETE", tokDelete},
}

// keywordKind returns the keyword kind of an identifier, or tokIdent.
func keywordKind(word string) tokKind {
	if len(word) > len("BETWEEN") {
		return tokIdent
	}
	for _, k := range keywords {
		if strings.EqualFold(word, k.word) {
			return k.kind
		}
	}
	return tokIdent
}
