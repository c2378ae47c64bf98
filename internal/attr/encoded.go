package attr

import (
	"fmt"
	"strconv"
	"unsafe"
)

// Reads that return whole items (GetItem and Query or Scan without a
// projection or filter) need only the item's wire JSON and its size.
// Building the map first cost a GetItem about a fifth of its CPU, most of
// it in allocation; a transcoder walks the storage codec once and writes
// both. Because the codec stores names in ascending order, its output is
// byte for byte what AppendItemJSON writes for DecodeItem of the same bytes.

// AppendEncodedJSON appends the item enc (an AppendItem encoding) as wire
// JSON and returns it with the item's Size.
func AppendEncodedJSON(dst, enc []byte) (out []byte, size int, err error) {
	if len(enc) == 0 || enc[0] != codecVersion {
		return dst, 0, fmt.Errorf("attr: unknown item encoding version")
	}
	t := transcoder{decoder: decoder{b: enc[1:]}, dst: dst}
	size = t.mapBody(0, false)
	if t.err == nil && len(t.b) != 0 {
		t.err = errCorrupt
	}
	return t.dst, size, t.err
}

// transcoder reads the codec through its decoder, so corrupt input fails
// exactly where DecodeItem would, and writes JSON as it goes.
type transcoder struct {
	decoder
	dst []byte
}

// mapBody writes count { name value } as a JSON object and returns its
// size: the names and values, plus the document overheads when nested.
func (t *transcoder) mapBody(depth int, nested bool) int {
	n := t.count()
	size := 0
	var prev []byte
	t.dst = append(t.dst, '{')
	for i := 0; i < n && t.err == nil; i++ {
		k := t.bytes()
		if i > 0 && string(k) <= string(prev) {
			t.fail()
		}
		t.comma(i)
		t.dst = append(appendJSONString(t.dst, view(k)), ':')
		size += len(k) + t.value(depth)
		prev = k
	}
	t.dst = append(t.dst, '}')
	if nested {
		size += docOverhead + n*elemOverhead
	}
	return size
}

func (t *transcoder) comma(i int) {
	if i > 0 {
		t.dst = append(t.dst, ',')
	}
}

// value writes one {"TAG":...} and returns its size, as Value.Size.
func (t *transcoder) value(depth int) int {
	if depth >= maxDecodeDepth {
		t.fail()
		return 0
	}
	k := Kind(t.byte())
	if k == Invalid {
		t.dst = append(t.dst, "{}"...)
		return 0
	}
	t.dst = append(append(append(t.dst, `{"`...), k.String()...), `":`...)
	size := t.body(k, depth)
	t.dst = append(t.dst, '}')
	return size
}

// body writes the value after its tag.
func (t *transcoder) body(k Kind, depth int) int {
	switch k {
	case S, N:
		return t.scalar(k)
	case B:
		b := t.bytes()
		t.dst = appendBase64(t.dst, b)
		return len(b)
	case BOOL:
		return t.boolean()
	case NULL:
		t.dst = append(t.dst, "true"...)
		return 1
	case M:
		return t.mapBody(depth+1, true)
	case L:
		return t.list(depth + 1)
	case SS, NS, BS:
		return t.set(k)
	}
	t.fail()
	return 0
}

// scalar writes an S or N (or a member of their sets) as a JSON string.
func (t *transcoder) scalar(k Kind) int {
	s := view(t.bytes())
	t.dst = appendJSONString(t.dst, s)
	if k == N || k == NS {
		return numberSize(s)
	}
	return len(s)
}

func (t *transcoder) boolean() int {
	switch t.byte() {
	case 0:
		t.dst = strconv.AppendBool(t.dst, false)
	case 1:
		t.dst = strconv.AppendBool(t.dst, true)
	default:
		t.fail()
	}
	return 1
}

func (t *transcoder) list(depth int) int {
	n := t.count()
	size := docOverhead + n*elemOverhead
	t.dst = append(t.dst, '[')
	for i := 0; i < n && t.err == nil; i++ {
		t.comma(i)
		size += t.value(depth)
	}
	t.dst = append(t.dst, ']')
	return size
}

// set writes the members of an SS, NS or BS; a set's size is the sum of
// its members', as in Value.Size.
func (t *transcoder) set(k Kind) int {
	n := t.count()
	size := 0
	t.dst = append(t.dst, '[')
	for i := 0; i < n && t.err == nil; i++ {
		t.comma(i)
		if k == BS {
			b := t.bytes()
			t.dst = appendBase64(t.dst, b)
			size += len(b)
			continue
		}
		size += t.scalar(k)
	}
	t.dst = append(t.dst, ']')
	return size
}

// view is b as a string without copying. Callers only read it while b is
// alive and unchanged, and never keep it.
func view(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}
