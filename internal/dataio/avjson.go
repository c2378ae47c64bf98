package dataio

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Item is one DynamoDB item, as the SDK holds it.
type Item = map[string]types.AttributeValue

// maxDepth bounds nesting on decode: DynamoDB allows 32 levels, and a
// hostile line must not recurse without end.
const maxDepth = 32

// AppendItemLine appends item as one line of a DYNAMODB_JSON export,
// {"Item":{...}} and a newline. Attribute names are sorted so that the
// same item always gives the same bytes.
func AppendItemLine(dst []byte, item Item) []byte {
	dst = append(dst, `{"Item":`...)
	dst = appendMap(dst, item)
	return append(dst, "}\n"...)
}

func appendMap(dst []byte, m Item) []byte {
	return appendFields(dst, m, appendString, appendValue)
}

// appendFields appends m as {name:value,...} in name order, so that the
// same item always gives the same bytes; JSON and Ion differ only in how
// they write a name and a value.
func appendFields(dst []byte, m Item, name func([]byte, string) []byte, value func([]byte, types.AttributeValue) []byte) []byte {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	slices.Sort(names)
	dst = append(dst, '{')
	for i, n := range names {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(name(dst, n), ':')
		dst = value(dst, m[n])
	}
	return append(dst, '}')
}

func appendValue(dst []byte, v types.AttributeValue) []byte {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return append(appendString(append(dst, `{"S":`...), v.Value), '}')
	case *types.AttributeValueMemberN:
		return append(appendString(append(dst, `{"N":`...), v.Value), '}')
	case *types.AttributeValueMemberB:
		return append(appendBinary(append(dst, `{"B":`...), v.Value), '}')
	case *types.AttributeValueMemberBOOL:
		return append(strconv.AppendBool(append(dst, `{"BOOL":`...), v.Value), '}')
	case *types.AttributeValueMemberNULL:
		return append(dst, `{"NULL":true}`...)
	case *types.AttributeValueMemberSS:
		return append(appendStrings(append(dst, `{"SS":`...), v.Value), '}')
	case *types.AttributeValueMemberNS:
		return append(appendStrings(append(dst, `{"NS":`...), v.Value), '}')
	case *types.AttributeValueMemberBS:
		return appendBinaries(append(dst, `{"BS":`...), v.Value)
	case *types.AttributeValueMemberL:
		return appendList(append(dst, `{"L":`...), v.Value)
	case *types.AttributeValueMemberM:
		return append(appendMap(append(dst, `{"M":`...), v.Value), '}')
	}
	// The SDK has no other member types a server can send.
	return append(dst, `{"NULL":true}`...)
}

func appendStrings(dst []byte, ss []string) []byte {
	dst = append(dst, '[')
	for i, s := range ss {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(dst, s)
	}
	return append(dst, ']')
}

func appendBinaries(dst []byte, bs [][]byte) []byte {
	dst = append(dst, '[')
	for i, b := range bs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendBinary(dst, b)
	}
	return append(dst, "]}"...)
}

func appendList(dst []byte, l []types.AttributeValue) []byte {
	dst = append(dst, '[')
	for i, v := range l {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendValue(dst, v)
	}
	return append(dst, "]}"...)
}

func appendBinary(dst []byte, b []byte) []byte {
	dst = append(dst, '"')
	dst = base64.StdEncoding.AppendEncode(dst, b)
	return append(dst, '"')
}

// appendString quotes s as JSON. DynamoDB strings are UTF-8, which JSON
// carries as is; only quotes, backslashes and control characters are
// escaped (invalid bytes become U+FFFD, as encoding/json does).
func appendString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			dst = append(dst, '\\', byte(r))
		case r == '\n':
			dst = append(dst, `\n`...)
		case r == '\r':
			dst = append(dst, `\r`...)
		case r == '\t':
			dst = append(dst, `\t`...)
		case r < 0x20:
			dst = append(dst, '\\', 'u', '0', '0', hex[r>>4], hex[r&0xf])
		default:
			dst = utf8.AppendRune(dst, r)
		}
	}
	return append(dst, '"')
}

// DecodeLine reads one DYNAMODB_JSON line, {"Item":{...}}, into an item.
// Data type names are matched exactly (encoding/json alone would take
// "s" for "S"), and each value must have exactly one of them.
func DecodeLine(line []byte) (Item, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(line, &top); err != nil || top == nil {
		return nil, errors.New(msgNotObject)
	}
	raw, ok := top["Item"]
	if !ok {
		return nil, errors.New(msgNoItem)
	}
	for name := range top {
		if name != "Item" {
			return nil, fmt.Errorf(msgExtraMember, name)
		}
	}
	return decodeMap(raw, 1)
}

func decodeMap(raw json.RawMessage, depth int) (Item, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf(msgTooDeep, maxDepth)
	}
	var attrs map[string]map[string]json.RawMessage
	if err := json.Unmarshal(raw, &attrs); err != nil || attrs == nil {
		return nil, errors.New(msgNoItem)
	}
	item := make(Item, len(attrs))
	for name, typed := range attrs {
		v, err := decodeTyped(typed, depth)
		if err != nil {
			return nil, fmt.Errorf(msgBadAttr, name, err)
		}
		item[name] = v
	}
	return item, nil
}

func decodeTyped(typed map[string]json.RawMessage, depth int) (types.AttributeValue, error) {
	if len(typed) != 1 {
		return nil, fmt.Errorf(msgOneType, len(typed))
	}
	for kind, raw := range typed {
		dec, ok := decoders[kind]
		if !ok {
			return nil, fmt.Errorf(msgUnknownType, kind)
		}
		v, err := dec(raw, depth)
		if err != nil {
			return nil, fmt.Errorf(msgBadValue, kind, err)
		}
		return v, nil
	}
	return nil, nil // unreachable: len(typed) == 1
}

type decoder func(raw json.RawMessage, depth int) (types.AttributeValue, error)

var decoders map[string]decoder

func init() {
	decoders = map[string]decoder{
		"S":    decodeS,
		"N":    decodeN,
		"B":    decodeB,
		"BOOL": decodeBOOL,
		"NULL": decodeNULL,
		"SS":   decodeSS,
		"NS":   decodeNS,
		"BS":   decodeBS,
		"L":    decodeL,
		"M":    decodeM,
	}
}

// strict unmarshals raw into v, refusing JSON null, which encoding/json
// would take silently as the zero value.
func strict(raw json.RawMessage, v any) error {
	if strings.TrimSpace(string(raw)) == "null" {
		return errors.New("null")
	}
	return json.Unmarshal(raw, v)
}

func decodeS(raw json.RawMessage, _ int) (types.AttributeValue, error) {
	var s string
	if err := strict(raw, &s); err != nil {
		return nil, err
	}
	return &types.AttributeValueMemberS{Value: s}, nil
}

func decodeN(raw json.RawMessage, _ int) (types.AttributeValue, error) {
	var n string
	if err := strict(raw, &n); err != nil {
		return nil, err
	}
	return &types.AttributeValueMemberN{Value: n}, nil
}

func decodeB(raw json.RawMessage, _ int) (types.AttributeValue, error) {
	var b []byte
	if err := strict(raw, &b); err != nil {
		return nil, err
	}
	return &types.AttributeValueMemberB{Value: nonNil(b)}, nil
}

func decodeBOOL(raw json.RawMessage, _ int) (types.AttributeValue, error) {
	var b bool
	if err := strict(raw, &b); err != nil {
		return nil, err
	}
	return &types.AttributeValueMemberBOOL{Value: b}, nil
}

func decodeNULL(raw json.RawMessage, _ int) (types.AttributeValue, error) {
	var b bool
	if err := strict(raw, &b); err != nil {
		return nil, err
	}
	if !b {
		return nil, errors.New(msgNullNotTrue)
	}
	return &types.AttributeValueMemberNULL{Value: true}, nil
}

func decodeSS(raw json.RawMessage, _ int) (types.AttributeValue, error) {
	ss, err := decodeStrings(raw)
	return &types.AttributeValueMemberSS{Value: ss}, err
}

func decodeNS(raw json.RawMessage, _ int) (types.AttributeValue, error) {
	ns, err := decodeStrings(raw)
	return &types.AttributeValueMemberNS{Value: ns}, err
}

func decodeStrings(raw json.RawMessage) ([]string, error) {
	var raws []json.RawMessage
	if err := strict(raw, &raws); err != nil {
		return nil, err
	}
	out := make([]string, len(raws))
	for i, r := range raws {
		if err := strict(r, &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func decodeBS(raw json.RawMessage, _ int) (types.AttributeValue, error) {
	var raws []json.RawMessage
	if err := strict(raw, &raws); err != nil {
		return nil, err
	}
	out := make([][]byte, len(raws))
	for i, r := range raws {
		if err := strict(r, &out[i]); err != nil {
			return nil, err
		}
		out[i] = nonNil(out[i])
	}
	return &types.AttributeValueMemberBS{Value: out}, nil
}

func decodeL(raw json.RawMessage, depth int) (types.AttributeValue, error) {
	var raws []map[string]json.RawMessage
	if err := strict(raw, &raws); err != nil {
		return nil, err
	}
	if depth+1 > maxDepth {
		return nil, fmt.Errorf(msgTooDeep, maxDepth)
	}
	out := make([]types.AttributeValue, len(raws))
	for i, typed := range raws {
		v, err := decodeTyped(typed, depth+1)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return &types.AttributeValueMemberL{Value: out}, nil
}

func decodeM(raw json.RawMessage, depth int) (types.AttributeValue, error) {
	if err := strict(raw, &struct{}{}); err != nil {
		return nil, err
	}
	m, err := decodeMap(raw, depth+1)
	if err != nil {
		return nil, err
	}
	return &types.AttributeValueMemberM{Value: m}, nil
}

// nonNil keeps an empty binary value empty rather than absent, so that it
// reaches the server (which judges it) instead of vanishing.
func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// AppendItemJSON appends item as DynamoDB JSON, {"Item":{...}}: the
// shape of a PutRequest, which a server decodes as it decodes one.
func AppendItemJSON(dst []byte, item Item) []byte {
	dst = append(dst, `{"Item":`...)
	dst = appendMap(dst, item)
	return append(dst, '}')
}
