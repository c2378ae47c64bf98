package attr

import "encoding/binary"

// decoder reads the storage codec (see codec.go). The first error sticks
// and every later read returns zero values, so the readers stay free of
// error plumbing and the caller checks err once.
type decoder struct {
	b   []byte
	err error
	// whole, when set, is the input b started as, copied into one string:
	// str then slices it instead of allocating a string per name and value
	// (a 200-byte item has ~16), at the cost of every string keeping the
	// whole encoding alive, which is no larger than its item.
	whole string
}

func (d *decoder) fail() {
	if d.err == nil {
		d.err = errCorrupt
	}
	d.b = nil
}

func (d *decoder) byte() byte {
	if len(d.b) == 0 {
		d.fail()
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *decoder) uvarint() uint64 {
	n, size := binary.Uvarint(d.b)
	if size <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[size:]
	return n
}

// count reads an element count, refusing one larger than the bytes left
// since every element takes at least one byte.
func (d *decoder) count() int {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.fail()
		return 0
	}
	return int(n)
}

// bytes reads a str; the result aliases d.b, callers copy.
func (d *decoder) bytes() []byte {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.fail()
		return nil
	}
	s := d.b[:n:n]
	d.b = d.b[n:]
	return s
}

func (d *decoder) str() string {
	b := d.bytes()
	if d.whole == "" {
		return string(b)
	}
	end := len(d.whole) - len(d.b)
	return d.whole[end-len(b) : end]
}

// mapBody reads count { name value }, insisting on ascending names so
// that a decoded item re-encodes to the same bytes.
func (d *decoder) mapBody(depth int) map[string]Value {
	n := d.count()
	m := make(map[string]Value, prealloc(n))
	prev := ""
	for i := 0; i < n && d.err == nil; i++ {
		k := d.str()
		if i > 0 && k <= prev {
			d.fail()
		}
		m[k], prev = d.value(depth), k
	}
	return m
}

func (d *decoder) value(depth int) Value {
	if depth >= maxDecodeDepth {
		d.fail()
		return Value{}
	}
	switch k := Kind(d.byte()); k {
	case Invalid:
		return Value{}
	case S:
		s := d.str()
		return Value{S: &s}
	case N:
		s := d.str()
		return Value{N: &s}
	case B:
		return Value{B: append([]byte{}, d.bytes()...)}
	case BOOL:
		return d.boolean()
	case NULL:
		return Null()
	case M:
		return Value{M: d.mapBody(depth + 1)}
	case L:
		return Value{L: d.list(depth + 1)}
	case SS, NS, BS:
		return d.set(k)
	}
	d.fail()
	return Value{}
}

func (d *decoder) boolean() Value {
	switch d.byte() {
	case 0:
		return Bool(false)
	case 1:
		return Bool(true)
	}
	d.fail()
	return Value{}
}

func (d *decoder) list(depth int) []Value {
	n := d.count()
	l := make([]Value, 0, prealloc(n))
	for i := 0; i < n && d.err == nil; i++ {
		l = append(l, d.value(depth))
	}
	return l
}

// set reads the members of an SS, NS or BS.
func (d *decoder) set(k Kind) Value {
	n := d.count()
	switch k {
	case SS:
		return Value{SS: readN(d, n, (*decoder).str)}
	case NS:
		return Value{NS: readN(d, n, (*decoder).str)}
	}
	return Value{BS: readN(d, n, func(d *decoder) []byte {
		return append([]byte{}, d.bytes()...)
	})}
}

func readN[T any](d *decoder, n int, read func(*decoder) T) []T {
	out := make([]T, 0, prealloc(n))
	for i := 0; i < n && d.err == nil; i++ {
		out = append(out, read(d))
	}
	return out
}

// prealloc caps capacity hints: a corrupt count that passes the
// bytes-left check could still ask for ~160 bytes per input byte.
func prealloc(n int) int { return min(n, 1024) }
