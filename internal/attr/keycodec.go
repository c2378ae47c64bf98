package attr

import (
	"errors"
	"fmt"
)

// The key codec turns S, N and B key values into bytes whose bytes.Compare
// order is Compare's order, and which end themselves, so a partition key's
// encoding can be followed directly by a sort key's.
//
// S and B: the bytes, each 0x00 written as 0x00 0xFF, then 0x00 0x01.
// The terminator sorts below every continuation, so a prefix sorts first.
//
// N: a class byte (negative, zero, positive); zero ends there. Otherwise
// one exponent byte (exp-minExp: the valid range is exactly 256 values),
// then the digits two per byte as 1+10a+b (1..100; an odd last digit is
// padded with 0, never ambiguous since normalized digits end nonzero),
// then a 0x00 terminator below every digit byte. For negatives every byte
// after the class is complemented, which reverses their order, and the
// terminator becomes 0xFF: a longer digit string is then the smaller value.

const (
	numNeg  = 0x01
	numZero = 0x02
	numPos  = 0x03

	escByte  = 0x00
	escZero  = 0xFF // 0x00 0xFF is a literal 0x00
	escEnd   = 0x01 // 0x00 0x01 ends the value
	digitEnd = 0x00
)

var errKey = errors.New("attr: malformed key encoding")

// AppendKey appends the key encoding of v, which must be a validated S, N
// or B value; anything else (or a malformed number) appends nothing, since
// the engine validates keys before it builds storage keys.
func AppendKey(dst []byte, v *Value) []byte {
	switch v.Kind() {
	case S:
		return appendEscaped(dst, *v.S)
	case B:
		return appendEscaped(dst, v.B)
	case N:
		x, err := parseNumber(*v.N)
		if err != nil {
			return dst
		}
		return x.appendKey(dst)
	}
	return dst
}

func appendEscaped[T string | []byte](dst []byte, s T) []byte {
	return append(appendEscapedBody(dst, s), escByte, escEnd)
}

func appendEscapedBody[T string | []byte](dst []byte, s T) []byte {
	for i := 0; i < len(s); i++ {
		dst = append(dst, s[i])
		if s[i] == escByte {
			dst = append(dst, escZero)
		}
	}
	return dst
}

// AppendKeyPrefix appends the encoding of an S or B value without its
// terminator: exactly the bytes every value beginning with v encodes to
// first, which turns begins_with into a key range.
func AppendKeyPrefix(dst []byte, v *Value) []byte {
	switch v.Kind() {
	case S:
		return appendEscapedBody(dst, *v.S)
	case B:
		return appendEscapedBody(dst, v.B)
	}
	return dst
}

func (x *num) appendKey(dst []byte) []byte {
	if x.n == 0 {
		return append(dst, numZero)
	}
	var flip byte // XOR mask: 0xFF complements the bytes of a negative
	class := byte(numPos)
	if x.neg {
		flip, class = 0xFF, numNeg
	}
	dst = append(dst, class, byte(x.exp-minExp)^flip)
	for i := 0; i < x.n; i += 2 {
		lo := byte(0)
		if i+1 < x.n {
			lo = x.d[i+1] - '0'
		}
		dst = append(dst, (1+10*(x.d[i]-'0')+lo)^flip)
	}
	return append(dst, digitEnd^flip)
}

// DecodeKey decodes one key value of kind k (S, N or B) from the front of
// src and returns it with the bytes that follow it.
func DecodeKey(src []byte, k Kind) (Value, []byte, error) {
	switch k {
	case S:
		b, rest, err := unescape(src)
		return Str(string(b)), rest, err
	case B:
		b, rest, err := unescape(src)
		return Bin(b), rest, err
	case N:
		return decodeNumber(src)
	}
	return Value{}, nil, fmt.Errorf("attr: kind %v cannot be a key", k)
}

// unescape reverses appendEscaped. The result is a fresh slice (never nil)
// so the caller may keep it after src's buffer is reused.
func unescape(src []byte) ([]byte, []byte, error) {
	out := make([]byte, 0, len(src))
	for i := 0; i < len(src); i++ {
		if src[i] != escByte {
			out = append(out, src[i])
			continue
		}
		if i+1 == len(src) {
			break
		}
		i++
		switch src[i] {
		case escEnd:
			return out, src[i+1:], nil
		case escZero:
			out = append(out, escByte)
		default:
			return nil, nil, errKey
		}
	}
	return nil, nil, errKey
}

func decodeNumber(src []byte) (Value, []byte, error) {
	if len(src) == 0 {
		return Value{}, nil, errKey
	}
	switch src[0] {
	case numZero:
		return Num("0"), src[1:], nil
	case numPos:
		return decodeDigits(src[1:], false)
	case numNeg:
		return decodeDigits(src[1:], true)
	}
	return Value{}, nil, errKey
}

// decodeDigits reads the exponent byte and digit pairs after the class
// byte, rejecting anything AppendKey would not have written.
func decodeDigits(src []byte, neg bool) (Value, []byte, error) {
	var flip byte
	if neg {
		flip = 0xFF
	}
	if len(src) < 2 {
		return Value{}, nil, errKey
	}
	x := num{neg: neg, exp: int(src[0]^flip) + minExp}
	for i := 1; i < len(src); i++ {
		b := src[i] ^ flip
		if b == digitEnd {
			return x.decoded(src[i+1:])
		}
		if b > 100 || x.n >= maxDigits {
			return Value{}, nil, errKey
		}
		b--
		x.d[x.n], x.d[x.n+1] = '0'+b/10, '0'+b%10
		x.n += 2
	}
	return Value{}, nil, errKey
}

// decoded drops the pad digit and checks the digits are normalized.
func (x *num) decoded(rest []byte) (Value, []byte, error) {
	if x.n > 0 && x.d[x.n-1] == '0' {
		x.n--
	}
	if x.n == 0 || x.d[0] == '0' || x.d[x.n-1] == '0' {
		return Value{}, nil, errKey
	}
	return Num(string(x.appendText(nil))), rest, nil
}
