package engine

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/vector"
)

// A vector index's graphs as a clean Close saves them (graphsave.go),
// little-endian:
//
//	magic "SKVG" | version u16 | spec | nextID u64 | parts u32
//	| per part: name | vector.Index encoding | entries u32
//	  | per entry: id u64 | key | attrs (attr.AppendItem; only when the index has INLINE_FILTERs)
//	spec: distance u8 | dims u32 | vector attribute | hash | filters u32 + each
//
// A name, key, attribute or attrs is u32 length + bytes. The spec is
// there so that a file is never read into an index it was not saved from.
var graphFileMagic = [4]byte{'S', 'K', 'V', 'G'}

const graphFileVersion = 1

// maxGraphField bounds a length-prefixed field: keys and names are a few
// kilobytes, attrs the few attributes of one item (at most 400 KB).
const maxGraphField = 1 << 20

const msgGraphFile = "engine: vector graph file: %s"

func badGraphFile(what string) error { return fmt.Errorf(msgGraphFile, what) }

var errGraphTruncated = badGraphFile("truncated")

// writeTo writes a's graphs; the caller holds off every writer of them.
func (a *annIndex) writeTo(w *bufio.Writer) error {
	a.mu.RLock()
	defer a.mu.RUnlock()
	b := binary.LittleEndian.AppendUint16(graphFileMagic[:], graphFileVersion)
	b = appendSpec(b, a.spec)
	b = binary.LittleEndian.AppendUint64(b, a.nextID)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(a.parts)))
	if _, err := w.Write(b); err != nil {
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(a.parts)) {
		if err := a.writePart(w, name, a.parts[name]); err != nil {
			return err
		}
	}
	return w.Flush()
}

func appendSpec(b []byte, s *vectorSpec) []byte {
	b = binary.LittleEndian.AppendUint32(append(b, byte(s.distance)), uint32(s.dims))
	b = appendField(appendField(b, []byte(s.attr)), []byte(s.hash))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(s.filters)))
	for _, f := range s.filters {
		b = appendField(b, []byte(f))
	}
	return b
}

func appendField(b, f []byte) []byte {
	return append(binary.LittleEndian.AppendUint32(b, uint32(len(f))), f...)
}

func (a *annIndex) writePart(w *bufio.Writer, name string, p *annPart) error {
	if _, err := w.Write(appendField(nil, []byte(name))); err != nil {
		return err
	}
	if _, err := p.graph.WriteTo(w); err != nil {
		return err
	}
	b := binary.LittleEndian.AppendUint32(nil, uint32(len(p.keys)))
	for id, key := range p.keys {
		b = appendField(binary.LittleEndian.AppendUint64(b, id), key)
		if len(a.spec.filters) > 0 {
			b = appendField(b, attr.AppendItem(nil, p.attrs[id]))
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
		b = b[:0]
	}
	_, err := w.Write(b)
	return err
}

// graphState is what a graph file holds, read before it is installed.
type graphState struct {
	parts  map[string]*annPart
	where  map[string]annRef
	nextID uint64
}

// readGraphs reads a graph file saved from an index of spec, checking
// that every entry is a live vector of its graph, that no id or key is
// in it twice, and that nothing follows the last part.
func readGraphs(r *bufio.Reader, spec *vectorSpec, size int64) (*graphState, error) {
	d := &graphDecoder{r: r, size: size}
	n, err := d.header(spec)
	if err != nil {
		return nil, err
	}
	st := &graphState{parts: map[string]*annPart{}, where: map[string]annRef{}, nextID: d.nextID}
	for range n {
		if err := d.part(st, spec); err != nil {
			return nil, err
		}
	}
	if _, err := r.ReadByte(); err != io.EOF {
		return nil, badGraphFile("data after the last part")
	}
	return st, nil
}

// graphDecoder reads fields; its first error sticks, and later reads
// return zeros.
type graphDecoder struct {
	r      *bufio.Reader
	buf    [8]byte
	err    error
	nextID uint64
	size   int64 // the file's, which bounds what ReadIndexWithin allocates
}

func (d *graphDecoder) read(p []byte) []byte {
	if d.err != nil {
		clear(p)
		return p
	}
	if _, err := io.ReadFull(d.r, p); err != nil {
		d.err = err
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			d.err = errGraphTruncated
		}
		clear(p)
	}
	return p
}

func (d *graphDecoder) u32() uint32 { return binary.LittleEndian.Uint32(d.read(d.buf[:4])) }
func (d *graphDecoder) u64() uint64 { return binary.LittleEndian.Uint64(d.read(d.buf[:8])) }

func (d *graphDecoder) field() []byte {
	n := d.u32()
	if n > maxGraphField {
		d.err = badGraphFile("a field's length is past the limit")
		return nil
	}
	return d.read(make([]byte, n))
}

// header reads and checks everything before the parts, and returns the
// part count.
func (d *graphDecoder) header(spec *vectorSpec) (uint32, error) {
	head := d.read(make([]byte, 6))
	if d.err == nil && [4]byte(head) != graphFileMagic {
		return 0, badGraphFile("not a vector graph file")
	}
	if v := binary.LittleEndian.Uint16(head[4:]); d.err == nil && v != graphFileVersion {
		return 0, badGraphFile(fmt.Sprintf("unsupported version %d", v))
	}
	want := appendSpec(nil, spec)
	if got := d.read(make([]byte, len(want))); d.err == nil && string(got) != string(want) {
		return 0, badGraphFile("saved from an index of another definition")
	}
	d.nextID = d.u64()
	n := d.u32()
	return n, d.err
}

// part reads one partition's graph and entries into st.
func (d *graphDecoder) part(st *graphState, spec *vectorSpec) error {
	name := string(d.field())
	if d.err != nil {
		return d.err
	}
	if _, dup := st.parts[name]; dup {
		return badGraphFile("a partition is in it twice")
	}
	g, err := vector.ReadIndexWithin(d.r, d.size)
	if err != nil {
		return err
	}
	if g.Dims() != spec.dims || g.Distance() != spec.distance {
		return badGraphFile("a graph of another definition")
	}
	p := &annPart{graph: g, keys: map[uint64][]byte{}, attrs: map[uint64]attr.Item{}}
	st.parts[name] = p
	return d.entries(st, p, len(spec.filters) > 0)
}

func (d *graphDecoder) entries(st *graphState, p *annPart, filters bool) error {
	n := int(d.u32())
	for range n {
		id, key := d.u64(), d.field()
		if filters {
			if err := d.attrs(p, id); err != nil {
				return err
			}
		}
		if err := d.place(st, p, id, key); err != nil {
			return err
		}
	}
	if d.err == nil && n != p.graph.Len() {
		return badGraphFile("a graph's vectors and entries differ")
	}
	return d.err
}

func (d *graphDecoder) attrs(p *annPart, id uint64) error {
	b := d.field()
	if d.err != nil {
		return d.err
	}
	it, err := attr.DecodeItem(b)
	p.attrs[id] = it
	return err
}

// place records key's entry as id in p, once it checks.
func (d *graphDecoder) place(st *graphState, p *annPart, id uint64, key []byte) error {
	if d.err != nil {
		return d.err
	}
	_, keyTwice := st.where[string(key)]
	_, idTwice := p.keys[id]
	if keyTwice || idTwice || id > st.nextID || !p.graph.Contains(id) {
		return badGraphFile("an entry is not a live vector of its graph, or is there twice")
	}
	p.keys[id], st.where[string(key)] = key, annRef{p, id}
	return nil
}
