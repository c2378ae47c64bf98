package vector

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
)

// The encoding of an Index, little-endian:
//
//	magic "SKVX" | version u16 | distance u8 | dims u32 | rng state u8 len + bytes
//	| nodes u32 | entry i32 | top u8
//	| per node: id u64 | dead u8 | dims × f32 | layers u8 | per layer: links u8 + links × i32
//
// Norms, the id map and the dead count are derived, not stored, so they
// cannot disagree with the nodes. The rng's PCG state is stored as is: a
// read index draws the same layers the written one would have, so the
// same writes after a save and a restart build the same graph as without
// them.
var indexMagic = [4]byte{'S', 'K', 'V', 'X'}

const indexVersion = 1

// maxLayer bounds a node's top layer: randomLayer cannot exceed
// ln(2^53)/ln(16) ≈ 13, so more is corruption.
const maxLayer = 32

const (
	msgEncodingMagic     = "vector: not an encoded index"
	msgEncodingVersion   = "vector: unsupported index encoding version %d"
	msgEncodingTruncated = "vector: encoded index is truncated"
	msgEncodingCorrupt   = "vector: encoded index is corrupt: %s"
)

var (
	errEncodingMagic     = errors.New(msgEncodingMagic)
	errEncodingTruncated = errors.New(msgEncodingTruncated)
)

func corrupt(what string) error { return fmt.Errorf(msgEncodingCorrupt, what) }

// WriteTo writes x's encoding to w (buffered; w itself when it is a
// *bufio.Writer, which is then flushed). Searches may run meanwhile;
// writers wait.
func (x *Index) WriteTo(w io.Writer) (int64, error) {
	bw, ok := w.(*bufio.Writer)
	if !ok {
		bw = bufio.NewWriterSize(w, 1<<16)
	}
	cw := &countWriter{w: bw}
	x.mu.RLock()
	err := x.encode(cw)
	x.mu.RUnlock()
	return cw.n, errors.Join(err, bw.Flush())
}

type countWriter struct {
	w *bufio.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

func (x *Index) encode(w io.Writer) error {
	state, _ := x.pcg.MarshalBinary() // PCG's never fails
	b := binary.LittleEndian.AppendUint16(indexMagic[:], indexVersion)
	b = binary.LittleEndian.AppendUint32(append(b, byte(x.d)), uint32(x.dims))
	b = append(append(b, byte(len(state))), state...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(x.ids)))
	b = binary.LittleEndian.AppendUint32(b, uint32(x.entry))
	if _, err := w.Write(append(b, byte(x.top))); err != nil {
		return err
	}
	for n := range x.ids {
		b = x.appendEncoded(b[:0], int32(n))
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

func (x *Index) appendEncoded(b []byte, n int32) []byte {
	b = binary.LittleEndian.AppendUint64(b, x.ids[n])
	dead := byte(0)
	if x.dead[n] {
		dead = 1
	}
	b = AppendBinary(append(b, dead), x.vec(n))
	b = append(b, byte(len(x.links[n])))
	for _, l := range x.links[n] {
		b = append(b, byte(len(l)))
		for _, m := range l {
			b = binary.LittleEndian.AppendUint32(b, uint32(m))
		}
	}
	return b
}

// ReadIndex reads an index WriteTo wrote, checking every part of it, so
// that a damaged or forged encoding is an error, never a panic nor a
// graph a search could stray out of. It reads no further than the
// encoding when r is a *bufio.Reader; another reader is buffered, so it
// may be read past the end. Memory grows with what is read, not with the
// lengths the encoding declares.
func ReadIndex(r io.Reader) (*Index, error) { return ReadIndexWithin(r, 0) }

// ReadIndexWithin is ReadIndex for an encoding known to fit in room
// bytes (a file's size; 0 if unknown). Knowing it, the reader refuses a
// node count the room cannot hold and allocates for all the nodes at
// once: growing 3 GB of vectors by appends cost most of a 1,000,000 ×
// 768 load. Memory stays bounded by the room, which is on disk.
func ReadIndexWithin(r io.Reader, room int64) (*Index, error) {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReaderSize(r, 1<<16)
	}
	d := &decoder{r: br}
	x, n, err := d.header()
	if err != nil {
		return nil, err
	}
	if err := x.reserve(n, room); err != nil {
		return nil, err
	}
	if err := d.nodes(x, n); err != nil {
		return nil, err
	}
	if err := x.validate(); err != nil {
		return nil, err
	}
	return x, nil
}

// decoder reads fixed-size fields; its first error sticks, and later
// reads return zeros.
type decoder struct {
	r   *bufio.Reader
	buf [8]byte
	err error
}

func (d *decoder) read(p []byte) []byte {
	if d.err != nil {
		clear(p)
		return p
	}
	if _, err := io.ReadFull(d.r, p); err != nil {
		d.err = err
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			d.err = errEncodingTruncated
		}
		clear(p)
	}
	return p
}

func (d *decoder) u8() uint8   { return d.read(d.buf[:1])[0] }
func (d *decoder) u32() uint32 { return binary.LittleEndian.Uint32(d.read(d.buf[:4])) }
func (d *decoder) u64() uint64 { return binary.LittleEndian.Uint64(d.read(d.buf[:8])) }

// header reads everything before the nodes, and returns the empty index
// it describes and its node count.
func (d *decoder) header() (*Index, int, error) {
	if [4]byte(d.read(make([]byte, 4))) != indexMagic && d.err == nil {
		return nil, 0, errEncodingMagic
	}
	if v := binary.LittleEndian.Uint16(d.read(d.buf[:2])); v != indexVersion && d.err == nil {
		return nil, 0, fmt.Errorf(msgEncodingVersion, v)
	}
	dist, dims := Distance(d.u8()), d.u32()
	state := d.read(make([]byte, d.u8()))
	n, entry, top := d.u32(), int32(d.u32()), int(d.u8())
	if d.err != nil {
		return nil, 0, d.err
	}
	x, err := d.emptyIndex(dist, dims, state)
	if err != nil {
		return nil, 0, err
	}
	if n > math.MaxInt32 {
		return nil, 0, corrupt("too many nodes")
	}
	x.entry, x.top = entry, top
	return x, int(n), nil
}

func (d *decoder) emptyIndex(dist Distance, dims uint32, state []byte) (*Index, error) {
	if dims > MaxDimensions {
		return nil, corrupt("dimensions past the limit")
	}
	x, err := NewIndex(dist, int(dims), 0)
	if err != nil {
		return nil, err
	}
	pcg := new(rand.PCG)
	if err := pcg.UnmarshalBinary(state); err != nil {
		return nil, corrupt("random state")
	}
	x.setSource(pcg)
	return x, nil
}

// nodes reads n nodes into x, growing its slices as nodes arrive.
func (d *decoder) nodes(x *Index, n int) error {
	vec := make([]float32, x.dims)
	raw := make([]byte, 4*x.dims)
	for i := range n {
		id, dead := d.u64(), d.u8()
		vec, _, _ = ReadBinary(vec, d.read(raw), x.dims)
		links, err := d.links(i)
		if err != nil {
			return err
		}
		if x.check(vec) != nil {
			return corrupt("a vector is not finite")
		}
		if err := x.appendRead(id, dead, vec, links); err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) links(node int) ([][]int32, error) {
	layers := int(d.u8())
	if d.err == nil && (layers == 0 || layers > maxLayer+1) {
		return nil, corrupt(fmt.Sprintf("node %d has %d layers", node, layers))
	}
	links := make([][]int32, layers)
	for l := range links {
		c := int(d.u8())
		if c > linkCap(l) {
			return nil, corrupt(fmt.Sprintf("node %d has %d links on layer %d", node, c, l))
		}
		links[l] = make([]int32, c, linkCap(l)+1)
		for i := range links[l] {
			links[l][i] = int32(d.u32())
		}
	}
	return links, d.err
}

func (x *Index) appendRead(id uint64, dead byte, vec []float32, links [][]int32) error {
	n := int32(len(x.ids))
	switch dead {
	case 0:
		if _, dup := x.byID[id]; dup {
			return corrupt(fmt.Sprintf("id %d is live twice", id))
		}
		x.byID[id] = n
	case 1:
		x.nDead++
	default:
		return corrupt("a node's dead flag")
	}
	x.ids = append(x.ids, id)
	x.dead = append(x.dead, dead == 1)
	x.vecs = append(x.vecs, vec...)
	x.norms = append(x.norms, norm(vec))
	x.links = append(x.links, links)
	return nil
}

// reserve sizes x's slices for n nodes when room proves the encoding
// could hold them; a node takes at least its id, dead flag, vector and
// one layer's link count.
func (x *Index) reserve(n int, room int64) error {
	if room <= 0 {
		return nil
	}
	if int64(n)*int64(4*x.dims+11) > room {
		return corrupt("more nodes than the encoding's size holds")
	}
	x.ids, x.dead = make([]uint64, 0, n), make([]bool, 0, n)
	x.vecs, x.norms = make([]float32, 0, n*x.dims), make([]float64, 0, n)
	x.links, x.byID = make([][][]int32, 0, n), make(map[uint64]int32, n)
	return nil
}

// validate checks what only the whole graph shows: every link leads to
// a node that has the link's layer, and the entry is the top node.
func (x *Index) validate() error {
	n, top := int32(len(x.ids)), 0
	for _, ls := range x.links {
		top = max(top, len(ls)-1)
		for l, links := range ls {
			for _, m := range links {
				if m < 0 || m >= n || len(x.links[m]) <= l {
					return corrupt(fmt.Sprintf("a link on layer %d to node %d", l, m))
				}
			}
		}
	}
	if n == 0 {
		if x.entry != -1 || x.top != 0 {
			return corrupt("an empty graph has an entry")
		}
		return nil
	}
	if x.entry < 0 || x.entry >= n || x.top != top || len(x.links[x.entry]) != top+1 {
		return corrupt("the entry is not a top node")
	}
	return nil
}
