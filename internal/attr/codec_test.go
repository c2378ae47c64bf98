package attr

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
)

// sampleItem is a typical single-table item: keys, a few scalars, a small
// map and list, a set.
func sampleItem() Item {
	return Item{
		"PK":      Str("USER#12345"),
		"SK":      Str("ORDER#2024-01-15T10:30:00Z#98765"),
		"GSI1PK":  Str("ORDER#98765"),
		"Type":    Str("Order"),
		"Total":   Num("129.95"),
		"Qty":     Num("3"),
		"Paid":    Bool(true),
		"Note":    Null(),
		"Blob":    Bin([]byte("\x00\x01binary payload\xff")),
		"Tags":    {SS: []string{"gift", "express", "fragile"}},
		"Scores":  {NS: []string{"1", "2.5", "-3"}},
		"Address": {M: map[string]Value{"Street": Str("1 Main St"), "City": Str("Springfield"), "Zip": Str("12345")}},
		"Lines": {L: []Value{
			{M: map[string]Value{"SKU": Str("A-1"), "Price": Num("19.99"), "Qty": Num("2")}},
			{M: map[string]Value{"SKU": Str("B-7"), "Price": Num("89.97"), "Qty": Num("1")}},
		}},
		"Empty": {L: []Value{}},
		"Bins":  {BS: [][]byte{{1}, {}}},
	}
}

func TestItemCodecRoundTrip(t *testing.T) {
	items := []Item{
		{},
		sampleItem(),
		{"": Str(""), "b": Bin([]byte{}), "m": {M: map[string]Value{}}},
		{"deep": mustJSON(t, nested(31))},
	}
	for _, it := range items {
		enc := AppendItem(nil, it)
		got, err := DecodeItem(enc)
		if err != nil {
			t.Fatalf("DecodeItem: %v", err)
		}
		a, b := Value{M: it}, Value{M: got}
		if !Equal(&a, &b) {
			t.Errorf("round trip\n got %s\nwant %s", AppendItemJSON(nil, got), AppendItemJSON(nil, it))
		}
		if again := AppendItem(nil, got); !bytes.Equal(again, enc) {
			t.Errorf("re-encoding differs")
		}
	}
}

func mustJSON(t *testing.T, s string) Value {
	v := fromJSON(t, s)
	if err := v.Validate(); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestItemCodecDeterministic(t *testing.T) {
	first := AppendItem(nil, sampleItem())
	for range 20 {
		if !bytes.Equal(AppendItem(nil, sampleItem()), first) {
			t.Fatal("encoding depends on map order")
		}
	}
}

func TestDecodeItemCorrupt(t *testing.T) {
	enc := AppendItem(nil, sampleItem())
	for n := range len(enc) { // every truncation
		if _, err := DecodeItem(enc[:n]); err == nil {
			t.Errorf("truncated to %d bytes: no error", n)
		}
	}
	bad := [][]byte{
		{2, 0},                       // unknown version
		{1, 0, 0},                    // trailing bytes
		{1, 2, 1, 'b', 0, 1, 'a', 0}, // names out of order
		{1, 2, 1, 'a', 0, 1, 'a', 0}, // duplicate name
		{1, 1, 1, 'a', 99},           // unknown kind
		{1, 1, 1, 'a', byte(BOOL), 2},
		{1, 0xff, 0xff, 0xff, 0xff, 0x0f}, // huge count
		{1, 1, 1, 'a', byte(S), 0xff, 0xff, 0x03},
	}
	for _, b := range bad {
		if it, err := DecodeItem(b); err == nil {
			t.Errorf("DecodeItem(%x) = %s, want error", b, AppendItemJSON(nil, it))
		}
	}
	deep := []byte{1, 1, 1, 'a'}
	for range 200 {
		deep = append(deep, byte(L), 1)
	}
	if _, err := DecodeItem(deep); err == nil {
		t.Error("200-deep list: no error")
	}
}

func FuzzItemCodec(f *testing.F) {
	f.Add(AppendItem(nil, sampleItem()))
	f.Add(AppendItem(nil, Item{"a": Num("1")}))
	f.Add([]byte{1, 1, 1, 'a', byte(L), 1, byte(NULL)})
	f.Fuzz(func(t *testing.T, data []byte) {
		it, err := DecodeItem(data)
		if err != nil {
			return
		}
		// Whatever decodes re-encodes to bytes that decode to the same
		// item. (Not always data itself: a varint may have been padded.)
		enc := AppendItem(nil, it)
		if !bytes.Equal(enc, reencode(t, enc)) {
			t.Fatalf("unstable encoding for %x", data)
		}
		_ = it.Size()
		_ = ValidateItem(it)
	})
}

// TestAppendItemAllocatesOnce checks that a typical item's encoding is
// made in one allocation.
func TestAppendItemAllocatesOnce(t *testing.T) {
	if raceDetector {
		t.Skip("the race detector's instrumentation puts the sorted names' stack array on the heap")
	}
	if n := testing.AllocsPerRun(10, func() { AppendItem(nil, sampleItemOnce) }); n != 1 {
		t.Errorf("AppendItem(nil, item): %v allocations, want 1", n)
	}
}

var sampleItemOnce = sampleItem()

func reencode(t *testing.T, enc []byte) []byte {
	it, err := DecodeItem(enc)
	if err != nil {
		t.Fatalf("own encoding does not decode: %v", err)
	}
	return AppendItem(nil, it)
}

func BenchmarkAppendItem(b *testing.B) {
	it := sampleItem()
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		buf = AppendItem(buf[:0], it)
	}
	b.SetBytes(int64(len(buf)))
}

// BenchmarkAppendItemNew encodes into a new slice, as the engine does.
func BenchmarkAppendItemNew(b *testing.B) {
	it := sampleItem()
	b.ReportAllocs()
	for b.Loop() {
		_ = AppendItem(nil, it)
	}
}

func BenchmarkDecodeItem(b *testing.B) {
	enc := AppendItem(nil, sampleItem())
	b.SetBytes(int64(len(enc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeItem(enc); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAppendItemJSON(b *testing.B) {
	it := sampleItem()
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		buf = AppendItemJSON(buf[:0], it)
	}
	b.SetBytes(int64(len(buf)))
}

// BenchmarkItemJSONStdlib is the baseline AppendItemJSON is meant to beat:
// encoding/json on the struct without the MarshalJSON methods.
func BenchmarkItemJSONStdlib(b *testing.B) {
	type plain Value
	it := sampleItem()
	m := make(map[string]plain, len(it))
	for k, v := range it {
		m[k] = plain(v)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(m); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAppendKey(b *testing.B) {
	vals := []Value{Str("USER#12345"), Num("-1234.5678"), Bin([]byte("abc\x00def"))}
	var buf []byte
	for i, v := range vals {
		b.Run(fmt.Sprint(v.Kind(), i), func(b *testing.B) {
			for b.Loop() {
				buf = AppendKey(buf[:0], &v)
			}
		})
	}
}
