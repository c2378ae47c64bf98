package attr

import (
	"bytes"
	"testing"
)

// sameAsDecoded checks the transcoder against the long way round: decode
// into an Item, then write its JSON and take its Size.
func sameAsDecoded(t *testing.T, enc []byte) {
	t.Helper()
	got, size, err := AppendEncodedJSON([]byte("prefix"), enc)
	it, derr := DecodeItem(enc)
	if (err == nil) != (derr == nil) {
		t.Fatalf("%x: transcoder error %v, decoder error %v", enc, err, derr)
	}
	sized, serr := EncodedSize(enc)
	if (serr == nil) != (derr == nil) {
		t.Fatalf("%x: EncodedSize error %v, decoder error %v", enc, serr, derr)
	}
	if err != nil {
		return
	}
	if sized != it.Size() {
		t.Fatalf("%x: EncodedSize %d, want %d", enc, sized, it.Size())
	}
	if want := AppendItemJSON([]byte("prefix"), it); !bytes.Equal(got, want) {
		t.Fatalf("%x:\n got %s\nwant %s", enc, got, want)
	}
	if size != it.Size() {
		t.Fatalf("%x: size %d, want %d", enc, size, it.Size())
	}
}

func TestAppendEncodedJSON(t *testing.T) {
	items := []Item{
		{},
		sampleItem(),
		{"s": Str("quote \" backslash \\ newline \n \u2028 é")},
		{"n": Num("0"), "big": Num("-12345678901234567890.123456789")},
		{"m": {M: map[string]Value{}}, "deep": {L: []Value{{L: []Value{{M: map[string]Value{"x": Null()}}}}}}},
		{"ss": {SS: []string{"a"}}, "ns": {NS: []string{"10", "0.001"}}, "b": Bin(nil)},
	}
	for _, it := range items {
		sameAsDecoded(t, AppendItem(nil, it))
	}
}

func TestAppendEncodedJSONRefusesCorruptInput(t *testing.T) {
	enc := AppendItem(nil, sampleItem())
	for _, bad := range [][]byte{nil, {0}, {codecVersion, 5}, enc[:len(enc)-1], append(enc[:len(enc):len(enc)], 0)} {
		if _, _, err := AppendEncodedJSON(nil, bad); err == nil {
			t.Errorf("%x: no error", bad)
		}
		sameAsDecoded(t, bad)
	}
}

func FuzzAppendEncodedJSON(f *testing.F) {
	f.Add(AppendItem(nil, sampleItem()))
	f.Add([]byte{1, 1, 1, 'a', byte(L), 1, byte(NULL)})
	f.Add([]byte{1, 2, 1, 'b', byte(BOOL), 1, 1, 'a', byte(S), 0})
	f.Fuzz(func(t *testing.T, data []byte) { sameAsDecoded(t, data) })
}

func BenchmarkEncodedSize(b *testing.B) {
	enc := AppendItem(nil, sampleItem())
	b.ReportAllocs()
	for b.Loop() {
		_, _ = EncodedSize(enc)
	}
}

func BenchmarkAppendEncodedJSON(b *testing.B) {
	enc := AppendItem(nil, sampleItem())
	var buf []byte
	b.SetBytes(int64(len(enc)))
	b.ReportAllocs()
	for b.Loop() {
		buf, _, _ = AppendEncodedJSON(buf[:0], enc)
	}
}

// BenchmarkDecodeThenJSON is what AppendEncodedJSON replaces.
func BenchmarkDecodeThenJSON(b *testing.B) {
	enc := AppendItem(nil, sampleItem())
	var buf []byte
	b.SetBytes(int64(len(enc)))
	b.ReportAllocs()
	for b.Loop() {
		it, _ := DecodeItem(enc)
		buf = AppendItemJSON(buf[:0], it)
		_ = it.Size()
	}
}
