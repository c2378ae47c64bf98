package dataio

import (
	"encoding/base64"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The ION export format, from DynamoDB's "table export output format"
// page: one line per item, the version marker then {Item:{...}}; S is an
// Ion string, N a decimal, B a blob, BOOL a bool, NULL null, L a list, M
// a struct, and a set a list annotated $dynamodb_SS, $dynamodb_NS or
// $dynamodb_BS.
const (
	ionVersionMarker = "$ion_1_0"
	ionAnnotationSS  = "$dynamodb_SS"
	ionAnnotationNS  = "$dynamodb_NS"
	ionAnnotationBS  = "$dynamodb_BS"
	ionDataSuffix    = ".ion.gz"
)

// AppendIonLine appends item as one line of an ION export. Attribute
// names are sorted so that the same item always gives the same bytes.
func AppendIonLine(dst []byte, item Item) []byte {
	dst = append(dst, ionVersionMarker+" {Item:"...)
	dst = appendIonStruct(dst, item)
	return append(dst, "}\n"...)
}

func appendIonStruct(dst []byte, m Item) []byte {
	return appendFields(dst, m, appendIonFieldName, appendIonValue)
}

func appendIonValue(dst []byte, v types.AttributeValue) []byte {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return appendIonText(dst, v.Value, '"')
	case *types.AttributeValueMemberN:
		return appendIonDecimal(dst, v.Value)
	case *types.AttributeValueMemberB:
		return appendIonBlob(dst, v.Value)
	case *types.AttributeValueMemberBOOL:
		return strconv.AppendBool(dst, v.Value)
	case *types.AttributeValueMemberSS:
		return appendIonSet(dst, ionAnnotationSS, len(v.Value), func(d []byte, i int) []byte { return appendIonText(d, v.Value[i], '"') })
	case *types.AttributeValueMemberNS:
		return appendIonSet(dst, ionAnnotationNS, len(v.Value), func(d []byte, i int) []byte { return appendIonDecimal(d, v.Value[i]) })
	case *types.AttributeValueMemberBS:
		return appendIonSet(dst, ionAnnotationBS, len(v.Value), func(d []byte, i int) []byte { return appendIonBlob(d, v.Value[i]) })
	case *types.AttributeValueMemberL:
		return appendIonSet(dst, "", len(v.Value), func(d []byte, i int) []byte { return appendIonValue(d, v.Value[i]) })
	case *types.AttributeValueMemberM:
		return appendIonStruct(dst, v.Value)
	}
	// NULL, and no other member type a server can send.
	return append(dst, "null"...)
}

// appendIonSet writes a list of n members, annotated when annotation is
// set (a DynamoDB set) and plain when not (an L).
func appendIonSet(dst []byte, annotation string, n int, member func([]byte, int) []byte) []byte {
	if annotation != "" {
		dst = append(append(dst, annotation...), "::"...)
	}
	dst = append(dst, '[')
	for i := range n {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = member(dst, i)
	}
	return append(dst, ']')
}

func appendIonBlob(dst []byte, b []byte) []byte {
	dst = base64.StdEncoding.AppendEncode(append(dst, "{{"...), b)
	return append(dst, "}}"...)
}

// appendIonFieldName writes a name as a bare symbol when Ion reads it as
// one, else quoted: keywords, and names starting with $ (which Ion may
// take for a symbol ID or a system symbol), must be quoted.
func appendIonFieldName(dst []byte, name string) []byte {
	if isIonIdentifier(name) && !ionKeywords[name] && name[0] != '$' {
		return append(dst, name...)
	}
	return appendIonText(dst, name, '\'')
}

var ionKeywords = map[string]bool{"null": true, "true": true, "false": true, "nan": true}

func isIonIdentifier(s string) bool {
	if s == "" || isDigit(s[0]) {
		return false
	}
	for i := range len(s) {
		if !isIdentByte(s[i]) {
			return false
		}
	}
	return true
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'z')
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// appendIonText quotes s as an Ion short string (double quotes) or a
// quoted symbol (single quotes). UTF-8 is written as is; quotes,
// backslashes and control characters are escaped (invalid bytes become
// U+FFFD, as in JSON).
func appendIonText(dst []byte, s string, quote byte) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, quote)
	for _, r := range s {
		switch {
		case r == rune(quote) || r == '\\':
			dst = append(dst, '\\', byte(r))
		case r == '\n':
			dst = append(dst, `\n`...)
		case r == '\t':
			dst = append(dst, `\t`...)
		case r == '\r':
			dst = append(dst, `\r`...)
		case r < 0x20 || r == 0x7f:
			dst = append(dst, '\\', 'x', hex[r>>4], hex[r&0xf])
		default:
			dst = utf8.AppendRune(dst, r)
		}
	}
	return append(dst, quote)
}

// appendIonDecimal writes a number as DynamoDB's examples show it: the
// digits without trailing zeros, then "." when the exponent is 0 (103.)
// or a d exponent (6d2 for 600, 15d-1 for 1.5). A decimal, never a
// float, so 38 digits survive exactly.
func appendIonDecimal(dst []byte, n string) []byte {
	neg, digits, exp, ok := splitNumber(n)
	if !ok {
		// A server sends only valid numbers; keep the text rather than lose it.
		return appendIonText(dst, n, '"')
	}
	if digits == "" {
		return append(dst, "0."...)
	}
	if neg {
		dst = append(dst, '-')
	}
	dst = append(dst, digits...)
	if exp == 0 {
		return append(dst, '.')
	}
	return strconv.AppendInt(append(dst, 'd'), int64(exp), 10)
}

// maxExponent bounds a number's exponent as read: far beyond DynamoDB's
// range, and small enough that no sum of exponents overflows.
const maxExponent = 1 << 30

// splitNumber reads a decimal number, [+-]digits[.digits][(e|E)[+-]digits],
// as value = digits × 10^exp, digits without leading or trailing zeros
// ("" for zero, which is never negative).
func splitNumber(s string) (neg bool, digits string, exp int, ok bool) {
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg, s = s[0] == '-', s[1:]
	}
	mant := s
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil || e > maxExponent || e < -maxExponent {
			return false, "", 0, false
		}
		mant, exp = s[:i], e
	}
	whole, frac, _ := strings.Cut(mant, ".")
	all := whole + frac
	if all == "" || strings.Trim(all, "0123456789") != "" || len(frac) > maxExponent {
		return false, "", 0, false
	}
	exp -= len(frac)
	digits = strings.TrimLeft(all, "0")
	trimmed := strings.TrimRight(digits, "0")
	exp += len(digits) - len(trimmed)
	if trimmed == "" {
		return false, "", 0, true
	}
	return neg, trimmed, exp, true
}

// formatNumber writes digits × 10^exp as DynamoDB's N: plain notation
// while it stays within DynamoDB's 38 digits and magnitudes (the server
// normalizes it), scientific beyond, where the server judges it.
func formatNumber(neg bool, digits string, exp int) string {
	if digits == "" {
		return "0"
	}
	sign := ""
	if neg {
		sign = "-"
	}
	switch point := len(digits) + exp; {
	case exp >= 0 && point <= 126:
		return sign + digits + strings.Repeat("0", exp)
	case exp < 0 && point > 0:
		return sign + digits[:point] + "." + digits[point:]
	case exp < 0 && point > -130:
		return sign + "0." + strings.Repeat("0", -point) + digits
	}
	point := ""
	if len(digits) > 1 {
		point = "."
	}
	return fmt.Sprintf("%s%s%s%sE%+d", sign, digits[:1], point, digits[1:], len(digits)-1+exp)
}

// ionNumber reads an Ion numeric token (int, decimal or float) as N.
// Floats are read from their text, exactly; nan, infinities and
// timestamps have no DynamoDB type.
func ionNumber(tok string) (types.AttributeValue, error) {
	if strings.ContainsAny(tok, "T:") || (len(tok) > 4 && tok[4] == '-' && strings.Trim(tok[:4], "0123456789") == "") {
		return nil, fmt.Errorf(msgIonNoType, "timestamp")
	}
	if tok == "+inf" || tok == "-inf" {
		return nil, fmt.Errorf(msgIonNoType, "float "+tok)
	}
	clean := strings.ReplaceAll(tok, "_", "")
	if v, ok := ionRadixInt(clean); ok {
		return v, nil
	}
	neg, digits, exp, ok := splitNumber(strings.NewReplacer("d", "e", "D", "e").Replace(clean))
	if !ok {
		return nil, fmt.Errorf(msgIonBadNumber, tok)
	}
	return &types.AttributeValueMemberN{Value: formatNumber(neg, digits, exp)}, nil
}

// ionRadixInt reads a hexadecimal (0x) or binary (0b) Ion int.
func ionRadixInt(s string) (types.AttributeValue, bool) {
	body := strings.TrimPrefix(s, "-")
	if len(body) < 3 || body[0] != '0' || (body[1]|0x20 != 'x' && body[1]|0x20 != 'b') {
		return nil, false
	}
	base := 16
	if body[1]|0x20 == 'b' {
		base = 2
	}
	n, ok := new(big.Int).SetString(body[2:], base)
	if !ok || len(body) > 200 {
		return nil, false
	}
	if len(s) > len(body) {
		n.Neg(n)
	}
	return &types.AttributeValueMemberN{Value: n.String()}, true
}
