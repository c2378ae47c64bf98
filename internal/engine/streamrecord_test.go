package engine

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/sortkeydb/sortkey/internal/attr"
)

// referenceRecord is the stream record as it was built for encoding/json
// before appendRecord, kept to prove the hand-written bytes equal.
func referenceRecord(t *table, w *write, view string, now time.Time) *record {
	if w.old != nil && w.new != nil && sameItem(w.old, w.new) {
		return nil
	}
	it := w.keyItem()
	keys := attr.Item{t.key.hash.name: it[t.key.hash.name]}
	if t.key.rng.name != "" {
		keys[t.key.rng.name] = it[t.key.rng.name]
	}
	r := &record{Event: "MODIFY", Keys: keys, At: now.UnixMilli(), TTL: w.byTTL}
	switch {
	case w.old == nil:
		r.Event = "INSERT"
	case w.new == nil:
		r.Event = "REMOVE"
	}
	if view == "OLD_IMAGE" || view == "NEW_AND_OLD_IMAGES" {
		r.Old = w.old
	}
	if view == "NEW_IMAGE" || view == "NEW_AND_OLD_IMAGES" {
		r.New = w.new
	}
	r.Size = r.Keys.Size() + r.Old.Size() + r.New.Size()
	return r
}

var views = []string{"KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES"}

// sameRecordBytes fails t unless appendRecord writes, after a prefix it
// must keep, exactly the bytes json.Marshal wrote for the reference.
func sameRecordBytes(t *testing.T, tbl *table, w *write, view string) {
	t.Helper()
	now := time.UnixMilli(1764201600123)
	ref := referenceRecord(tbl, w, view, now)
	got, ok := appendRecord([]byte("prefix"), tbl, w, view, now)
	if ok != (ref != nil) {
		t.Fatalf("%s: appendRecord wrote %v, reference %v", view, ok, ref != nil)
	}
	if ref == nil {
		return
	}
	want, err := json.Marshal(ref)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, append([]byte("prefix"), want...)) {
		t.Fatalf("%s:\n got %s\nwant prefix%s", view, got, want)
	}
}

func keyedTable(hash, rng string) *table {
	return &table{key: keySchema{hash: keyAttr{name: hash}, rng: keyAttr{name: rng}}}
}

func TestRecordBytesMatchEncodingJSON(t *testing.T) {
	s, n, yes := attr.Str, attr.Num, attr.Bool(true)
	old := attr.Item{"pk": s("a<b>&c"), "sk": n("12.50"), "m": {M: map[string]attr.Value{"z": s("\u2028\xff"), "<": yes}},
		"l": {L: []attr.Value{s("x"), {NULL: yes.BOOL}}}, "ss": {SS: []string{"q", "&"}}, "b": {B: []byte{0, 1, 2}}, "bs": {BS: [][]byte{{3}}}}
	new := attr.Item{"pk": s("a<b>&c"), "sk": n("12.50"), "e": {M: map[string]attr.Value{}}, "l": {L: []attr.Value{}}}
	tables := []*table{keyedTable("pk", ""), keyedTable("pk", "sk"), keyedTable("sk", "pk"), keyedTable("pk", "missing")}
	writes := []write{{old: nil, new: new}, {old: old, new: new}, {old: old, new: nil}, {old: old, new: nil, byTTL: true},
		{old: old, new: old}, {old: attr.Item{}, new: new}, {old: old, new: attr.Item{}},
		{old: nil, new: old, enc: attr.AppendItem(nil, old)}, {old: new, new: old, enc: attr.AppendItem(nil, old)}}
	for _, tbl := range tables {
		for i := range writes {
			for _, view := range views {
				sameRecordBytes(t, tbl, &writes[i], view)
			}
		}
	}
}

// FuzzRecordBytes compares appendRecord with encoding/json on items
// decoded from arbitrary storage encodings, which hold any bytes in
// strings and names.
func FuzzRecordBytes(f *testing.F) {
	s := attr.Str
	f.Add(attr.AppendItem(nil, attr.Item{"pk": s("a"), "v": s("<&>")}), attr.AppendItem(nil, attr.Item{"pk": s("a")}), "pk", "", byte(3))
	f.Add([]byte{}, attr.AppendItem(nil, attr.Item{"pk": s("\u2029"), "sk": s("\xfe")}), "sk", "pk", byte(0x13))
	f.Add([]byte{}, attr.AppendItem(nil, attr.Item{"pk": s("<"), "m": {M: map[string]attr.Value{"\u2028": s("&")}}}), "pk", "", byte(0x22))
	f.Fuzz(func(t *testing.T, old, new []byte, hash, rng string, flags byte) {
		w := write{byTTL: flags&0x10 != 0}
		w.old, _ = attr.DecodeItem(old)
		w.new, _ = attr.DecodeItem(new)
		if w.new != nil && flags&0x20 != 0 {
			w.enc = attr.AppendItem(nil, w.new) // as addWrite leaves it
		}
		if w.old == nil && w.new == nil {
			return // no write has neither
		}
		if hash == rng {
			rng = ""
		}
		sameRecordBytes(t, keyedTable(hash, rng), &w, views[flags&3])
	})
}

func BenchmarkAppendRecord(b *testing.B) {
	tbl, w := benchRecordWrite()
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		buf, _ = appendRecord(buf[:0], tbl, &w, "NEW_AND_OLD_IMAGES", time.UnixMilli(1))
	}
}

// BenchmarkRecordEncodingJSON is what appendRecord replaced.
func BenchmarkRecordEncodingJSON(b *testing.B) {
	tbl, w := benchRecordWrite()
	b.ReportAllocs()
	for b.Loop() {
		_, _ = json.Marshal(referenceRecord(tbl, &w, "NEW_AND_OLD_IMAGES", time.UnixMilli(1)))
	}
}

func benchRecordWrite() (*table, write) {
	s, n := attr.Str, attr.Num
	it := attr.Item{"pk": s("user#000123"), "sk": s("order#2026-11-27"), "status": s("OPEN"), "total": n("1299.50"),
		"note": s("a note of about one hundred bytes, roughly what a small item carries besides its keys and numbers"),
		"g1":   s("g1#17"), "g2": s("g2#5")}
	return keyedTable("pk", "sk"), write{new: it, enc: attr.AppendItem(nil, it)}
}
