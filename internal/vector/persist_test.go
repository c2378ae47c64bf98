package vector

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func encode(t testing.TB, x *Index) []byte {
	t.Helper()
	var buf bytes.Buffer
	n, err := x.WriteTo(&buf)
	if err != nil || n != int64(buf.Len()) {
		t.Fatalf("WriteTo = %d, %v; wrote %d bytes", n, err, buf.Len())
	}
	return buf.Bytes()
}

func decode(t testing.TB, b []byte) *Index {
	t.Helper()
	x, err := ReadIndex(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// A read index answers every search as the written one did, and goes on
// as it would have: the same later writes leave both the same.
func TestIndexRoundTrip(t *testing.T) {
	vecs, queries := split(2500, 20, 8, 6, 3)
	for _, d := range distances {
		x := buildBatch(t, d, vecs[:2000])
		for i := 0; i < 2000; i += 7 {
			x.Delete(uint64(i))
		}
		y := decode(t, encode(t, x))
		sameAnswers(t, x, y, queries)
		for _, z := range []*Index{x, y} {
			writeMore(t, z, vecs)
		}
		sameAnswers(t, x, y, queries)
		if !bytes.Equal(encode(t, x), encode(t, y)) {
			t.Fatalf("%v: the same writes after the round trip built a different graph", d)
		}
	}
}

func sameAnswers(t *testing.T, x, y *Index, queries [][]float32) {
	t.Helper()
	if x.Len() != y.Len() {
		t.Fatalf("Len %d after the round trip, %d before", y.Len(), x.Len())
	}
	for _, q := range queries {
		for _, filter := range []func(uint64) bool{nil, keep30} {
			if a, b := x.Search(q, 10, filter), y.Search(q, 10, filter); !slices.Equal(a, b) {
				t.Fatalf("search after the round trip: %v, before: %v", b, a)
			}
		}
	}
}

// writeMore adds the vectors past 2000, replaces some and deletes some.
func writeMore(t *testing.T, x *Index, vecs [][]float32) {
	for i := 2000; i < len(vecs); i++ {
		if err := x.Add(uint64(i), vecs[i]); err != nil {
			t.Fatal(err)
		}
	}
	for i := 1; i < 2000; i += 50 {
		if err := x.Add(uint64(i), vecs[len(vecs)-i]); err != nil {
			t.Fatal(err)
		}
		x.Delete(uint64(i + 1))
	}
}

func TestEmptyIndexRoundTrip(t *testing.T) {
	x, _ := NewIndex(Euclidean, 3, 1)
	y := decode(t, encode(t, x))
	if y.Len() != 0 || y.Dims() != 3 || y.Search([]float32{1, 2, 3}, 5, nil) != nil {
		t.Fatal("an empty index did not read back empty")
	}
	if err := y.Add(9, []float32{1, 2, 3}); err != nil || y.Search([]float32{1, 2, 3}, 5, nil)[0].ID != 9 {
		t.Fatalf("Add after reading an empty index: %v", err)
	}
}

func smallEncoding(t testing.TB) []byte {
	x := buildIndex(t, Cosine, clustered(40, 3, 3, 5))
	x.Delete(3)
	return encode(t, x)
}

// Every proper prefix of an encoding is refused as truncated.
func TestReadIndexTruncated(t *testing.T) {
	b := smallEncoding(t)
	for n := range len(b) {
		if _, err := ReadIndex(bytes.NewReader(b[:n])); !errors.Is(err, errEncodingTruncated) {
			t.Fatalf("%d of %d bytes: %v, want truncated", n, len(b), err)
		}
	}
}

// ReadIndex stops at the encoding's end on a bufio.Reader, so that what
// follows it can be read next.
func TestReadIndexStopsAtEnd(t *testing.T) {
	b := smallEncoding(t)
	r := bufio.NewReader(bytes.NewReader(append(slices.Clone(b), "next"...)))
	if _, err := ReadIndex(r); err != nil {
		t.Fatal(err)
	}
	if rest, _ := r.Peek(4); string(rest) != "next" {
		t.Fatalf("after the index the reader is at %q", rest)
	}
}

// Each kind of damage is refused with an error that names it.
func TestReadIndexCorrupt(t *testing.T) {
	for name, tc := range map[string]struct {
		damage func(x *Index)
		want   string
	}{
		"link out of range":    {func(x *Index) { x.links[5][0][0] = 4000 }, "a link on layer 0"},
		"link to a lower node": {func(x *Index) { x.links[upperNode(x)][1][0] = lowNode(x, 1) }, "a link on layer 1"},
		"entry past the nodes": {func(x *Index) { x.entry = 4000 }, "the entry is not a top node"},
		"entry below the top":  {func(x *Index) { x.entry = lowNode(x, 1) }, "the entry is not a top node"},
		"infinite vector":      {func(x *Index) { x.vecs[7] = float32(math.Inf(1)) }, "not finite"},
		"id live twice":        {func(x *Index) { x.ids[8] = x.ids[9] }, "is live twice"},
	} {
		x := buildIndex(t, Euclidean, clustered(1200, 4, 4, 8))
		tc.damage(x)
		_, err := ReadIndex(bytes.NewReader(encode(t, x)))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %q", name, err, tc.want)
		}
	}
}

// upperNode is a node with links on layer 1.
func upperNode(x *Index) int32 {
	for n, ls := range x.links {
		if len(ls) > 1 && len(ls[1]) > 0 {
			return int32(n)
		}
	}
	panic("no node has links on layer 1")
}

// lowNode is a node whose top layer is below l.
func lowNode(x *Index, l int) int32 {
	for n, ls := range x.links {
		if len(ls) <= l {
			return int32(n)
		}
	}
	panic("every node reaches the layer")
}

func TestReadIndexBadHeader(t *testing.T) {
	b := smallEncoding(t)
	for name, tc := range map[string]struct {
		off  int
		val  []byte
		want string
	}{
		"magic":      {0, []byte("JUNK"), msgEncodingMagic},
		"version":    {4, []byte{9, 0}, "unsupported index encoding version 9"},
		"distance":   {6, []byte{7}, msgUnknownDistance},
		"dimensions": {7, []byte{0, 0, 0, 0}, msgIndexDimensions},
		"too many":   {7, []byte{0, 0, 0, 1}, "dimensions past the limit"},
		"rng state":  {12, []byte("xyz"), "random state"},
	} {
		c := slices.Clone(b)
		copy(c[tc.off:], tc.val)
		if _, err := ReadIndex(bytes.NewReader(c)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %q", name, err, tc.want)
		}
	}
}

// With the encoding's size known, a node count it cannot hold is refused
// before anything is allocated for it, and the true count loads.
func TestReadIndexWithinRefusesCountPastSize(t *testing.T) {
	b := smallEncoding(t)
	if _, err := ReadIndexWithin(bytes.NewReader(b), int64(len(b))); err != nil {
		t.Fatalf("a whole encoding within its size: %v", err)
	}
	countAt := 4 + 2 + 1 + 4 + 1 + int(b[11])
	binary.LittleEndian.PutUint32(b[countAt:], math.MaxInt32)
	_, err := ReadIndexWithin(bytes.NewReader(b), int64(len(b)))
	if err == nil || !strings.Contains(err.Error(), "more nodes than the encoding's size holds") {
		t.Fatalf("%v, want the count refused", err)
	}
}

// A forged node count fails at the stream's end without allocating for
// the nodes it claims.
func TestReadIndexForgedCount(t *testing.T) {
	b := smallEncoding(t)
	countAt := 4 + 2 + 1 + 4 + 1 + int(b[11])
	binary.LittleEndian.PutUint32(b[countAt:], math.MaxInt32)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := ReadIndex(bytes.NewReader(b))
	runtime.ReadMemStats(&after)
	if !errors.Is(err, errEncodingTruncated) {
		t.Fatalf("%v, want truncated", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Fatalf("reading a forged count allocated %d bytes", grew)
	}
}

func FuzzReadIndex(f *testing.F) {
	b := smallEncoding(f)
	empty, _ := NewIndex(DotProduct, 2, 1)
	f.Add(b)
	f.Add(b[:len(b)/2])
	f.Add(encode(f, empty))
	f.Fuzz(func(t *testing.T, b []byte) {
		x, err := ReadIndexWithin(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			return
		}
		q := make([]float32, x.Dims())
		q[0] = 1
		x.Search(q, 5, nil)
		if err := x.Add(1<<40, q); err != nil {
			t.Fatal(err)
		}
		x.Delete(1 << 40)
		decode(t, encode(t, x))
	})
}

// BenchmarkReadIndex is a restart's load of 20,000 × 128 vectors from
// memory: what ReadIndex itself costs, without the disk.
func BenchmarkReadIndex(b *testing.B) {
	vecs, _ := split(20_000, 1, 128, 20, 3)
	x := buildBatch(b, Cosine, vecs)
	var buf bytes.Buffer
	if _, err := x.WriteTo(&buf); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	for b.Loop() {
		if _, err := ReadIndexWithin(bytes.NewReader(buf.Bytes()), int64(buf.Len())); err != nil {
			b.Fatal(err)
		}
	}
}
