package expr

import (
	"fmt"
	"strings"

	"github.com/sortkeydb/sortkey/internal/apierr"
)

// Limits DynamoDB puts on expressions ("Service, account, and table quotas",
// expression parameters).
const (
	maxExprSize   = 4096 // bytes of one expression string, as sent
	maxInOperands = 100  // operands on the right of IN
	maxOperators  = 300  // operators and functions in one expression
	maxPathDepth  = 32   // nesting of a document path
)

// The messages of the ValidationExceptions the parser raises, after the
// "Invalid <Kind>Expression: " prefix unless noted.
const (
	msgEmpty           = "The expression can not be empty;"
	msgSyntax          = `Syntax error; token: "%s", near: "%s"`
	msgTooLarge        = "Expression size has exceeded the maximum allowed size; expression size: %d"
	msgReserved        = "Attribute name is a reserved keyword; reserved keyword: %s"
	msgNoName          = "An expression attribute name used in the document path is not defined; attribute name: %s"
	msgNoValue         = "An expression attribute value used in expression is not defined; attribute value: %s"
	msgInOperands      = "The IN operator is provided with too many operands; number of operands: %d"
	msgOperators       = "The expression contains too many operators; operator count: %d"
	msgDepth           = "The document path has too many nesting levels; nesting levels: %d"
	msgIndexRange      = "List index is not within the allowable range; index: [%s]"
	msgRedundantParens = "The expression has redundant parentheses;"
	msgNeedsValue      = "Operator or function requires a value placeholder; operator or function: %s"
	msgSameOperands    = "The first operand must be distinct from the second operand; operator or function: %s"
	msgBadFunc         = "Invalid function name; function: %s"
	msgFuncInUpdate    = "The function is not allowed in an update expression; function: %s"
	msgFuncThisWay     = "The function is not allowed to be used this way in an expression; function: %s"
	msgOperandCount    = "Incorrect number of operands for operator or function; operator or function: %s, number of operands: %d"
	msgNeedsPath       = "Operator or function requires a document path; operator or function: %s"
	msgClauseTwice     = `The "%s" section can only be used once in an update expression;`
	msgPathsOverlap    = "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: %s, path two: %s"
	msgPathsConflict   = "Two document paths conflict with each other; must remove or rewrite one of these paths; path one: %s, path two: %s"
	msgOperandType     = "Incorrect operand type for operator or function; operator or function: %s, operand type: %s"
	msgBetweenOrder    = "The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: %s, upper bound operand: AttributeValue: %s"
	msgBetweenTypes    = "The BETWEEN operator requires same data type for lower and upper bounds; lower bound operand: AttributeValue: %s, upper bound operand: AttributeValue: %s"

	// Without the prefix.
	msgKeyOperator   = "Invalid operator used in KeyConditionExpression: %s"
	msgNamesEmpty    = "ExpressionAttributeNames must not be empty"
	msgValuesEmpty   = "ExpressionAttributeValues must not be empty"
	msgNamesBadKey   = `ExpressionAttributeNames contains invalid key: Syntax error; key: "%s"`
	msgValuesBadKey  = `ExpressionAttributeValues contains invalid key: Syntax error; key: "%s"`
	msgNamesBadValue = "ExpressionAttributeNames contains invalid value: %s for key %s"
	msgNamesUnused   = "Value provided in ExpressionAttributeNames unused in expressions: keys: {%s}"
	msgValuesUnused  = "Value provided in ExpressionAttributeValues unused in expressions: keys: {%s}"
	eofText          = "<EOF>"
	prefixCondition  = "Invalid ConditionExpression: "
	prefixFilter     = "Invalid FilterExpression: "
	prefixKey        = "Invalid KeyConditionExpression: "
	prefixUpdate     = "Invalid UpdateExpression: "
	prefixProjection = "Invalid ProjectionExpression: "
)

// prefix is the text DynamoDB puts before every message about an expression
// of kind k.
func (k Kind) prefix() string {
	switch k {
	case Filter:
		return prefixFilter
	case KeyCondition:
		return prefixKey
	case UpdateKind:
		return prefixUpdate
	case ProjectionKind:
		return prefixProjection
	}
	return prefixCondition
}

// bailout carries a fatal parse error up the recursion to Attrs.run.
type bailout struct{ err *apierr.Error }

// errorf returns a ValidationException about the expression being parsed.
func (p *parser) errorf(format string, args ...any) *apierr.Error {
	return apierr.Validationf(p.kind.prefix()+format, args...)
}

// fail stops the parse with an error.
func (p *parser) fail(format string, args ...any) {
	panic(bailout{p.errorf(format, args...)})
}

// semantic records an error that does not stop the parse: DynamoDB reports a
// syntax error anywhere in the expression before any other error.
func (p *parser) semantic(format string, args ...any) {
	if p.err == nil {
		p.err = p.errorf(format, args...)
	}
}

// semanticRaw is semantic without the expression-kind prefix.
func (p *parser) semanticRaw(format string, args ...any) {
	if p.err == nil {
		p.err = apierr.Validationf(format, args...)
	}
}

// syntaxError stops the parse at token i, quoting it and the source text
// from the token before it to the token after it.
func (p *parser) syntaxError(i int) {
	bad := p.toks[i]
	text := bad.text
	if bad.kind == tokEOF {
		text = eofText
	}
	start, end := bad.pos, bad.end()
	if i > 0 {
		start = p.toks[i-1].pos
	}
	if next := i + 1; next < len(p.toks) && p.toks[next].kind != tokEOF {
		end = p.toks[next].end()
	}
	p.fail(msgSyntax, text, p.src[start:end])
}

// pathText renders a path the way DynamoDB's messages do: [a, b, [3]].
func pathText(path Path) string {
	parts := make([]string, len(path))
	for i, e := range path {
		parts[i] = e.Name
		if e.IsIndex {
			parts[i] = fmt.Sprintf("[%d]", e.Index)
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
