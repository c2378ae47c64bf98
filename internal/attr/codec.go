package attr

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

// The storage codec: how an item sits in a Pebble value.
//
//	item  = version:byte count:uvarint { name:str value }   names strictly ascending
//	value = kind:byte body
//	S, N  = str                      N as its normalized text
//	B     = str
//	BOOL  = 0x00 | 0x01
//	NULL  = (nothing)                only NULL:true is storable
//	M     = count:uvarint { name:str value }   names strictly ascending
//	L     = count:uvarint { value }
//	SS,NS,BS = count:uvarint { str }
//	str   = len:uvarint bytes
//
// Sorted names make the encoding deterministic, so equal items give equal
// bytes. The decoder trusts nothing: every length is checked against what
// is left, counts are bounded by the bytes left (each element takes at
// least one), and nesting is capped, so corrupt input yields an error,
// never a panic or a huge allocation.

const codecVersion = 1

// maxDecodeDepth bounds recursion on corrupt input; valid items nest at
// most MaxDepth, so there is room to spare.
const maxDecodeDepth = 2 * MaxDepth

var errCorrupt = errors.New("attr: corrupt item encoding")

// AppendItem appends the storage encoding of it, which should be
// validated: an invalid value is written as kind Invalid and reads back
// as an empty Value.
func AppendItem(dst []byte, it Item) []byte {
	dst = slices.Grow(dst, 1+bytesPerAttr*len(it))
	dst = append(dst, codecVersion)
	return appendMapBin(dst, it)
}

// bytesPerAttr is how much AppendItem reserves per top-level attribute:
// enough for a typical item to be encoded into one allocation instead of
// grown through five, without a pass over it to size it exactly (which
// cost more than it saved).
const bytesPerAttr = 32

func appendMapBin(dst []byte, m map[string]Value) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(m)))
	var buf [keysOnStack]string
	for _, k := range sortedKeys(buf[:0], m) {
		dst = appendStr(dst, k)
		v := m[k]
		dst = appendValueBin(dst, &v)
	}
	return dst
}

func appendStr[T string | []byte](dst []byte, s T) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

func appendValueBin(dst []byte, v *Value) []byte {
	k := v.Kind()
	dst = append(dst, byte(k))
	switch k {
	case S:
		return appendStr(dst, *v.S)
	case N:
		return appendStr(dst, *v.N)
	case B:
		return appendStr(dst, v.B)
	case BOOL:
		return append(dst, boolByte(*v.BOOL))
	case M:
		return appendMapBin(dst, v.M)
	case L:
		dst = binary.AppendUvarint(dst, uint64(len(v.L)))
		for i := range v.L {
			dst = appendValueBin(dst, &v.L[i])
		}
	case SS:
		return appendStrs(dst, v.SS)
	case NS:
		return appendStrs(dst, v.NS)
	case BS:
		return appendStrs(dst, v.BS)
	}
	return dst
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

func appendStrs[T string | []byte](dst []byte, ss []T) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(ss)))
	for _, s := range ss {
		dst = appendStr(dst, s)
	}
	return dst
}

// DecodeItem decodes an AppendItem encoding. The result shares no memory
// with b, so b may be a reused iterator buffer.
func DecodeItem(b []byte) (Item, error) {
	if len(b) == 0 || b[0] != codecVersion {
		return nil, fmt.Errorf("attr: unknown item encoding version")
	}
	d := decoder{b: b[1:], whole: string(b[1:])}
	m := d.mapBody(0)
	if d.err == nil && len(d.b) != 0 {
		d.err = errCorrupt
	}
	if d.err != nil {
		return nil, d.err
	}
	return Item(m), nil
}
