package backup

import (
	"bytes"
	"regexp"
	"testing"
	"time"
)

func TestRecordRoundTrip(t *testing.T) {
	at := time.UnixMicro(1767225600123456)
	for _, old := range [][]byte{nil, {}, []byte("item")} {
		r, err := DecodeRecord(AppendRecord(nil, at, []byte("key"), old))
		if err != nil || !r.At.Equal(at) || string(r.Key) != "key" || (old == nil) != (r.Old == nil) || !bytes.Equal(r.Old, old) {
			t.Fatalf("old %q: %+v %v", old, r, err)
		}
	}
	if _, err := DecodeRecord([]byte{1, 2}); err == nil {
		t.Fatal("a truncated record decoded")
	}
}

func TestUndoKeepsTheFirstChangeAfter(t *testing.T) {
	u := NewUndo()
	u.Add(Record{Key: []byte("a"), Old: []byte("v1")})
	u.Add(Record{Key: []byte("a"), Old: []byte("v2")})
	u.Add(Record{Key: []byte("b")})
	if v, ok := u.Version([]byte("a")); !ok || string(v) != "v1" {
		t.Fatalf("a: %q %v", v, ok)
	}
	if v, ok := u.Version([]byte("b")); !ok || v != nil {
		t.Fatalf("b (inserted after): %q %v", v, ok)
	}
}

func TestNewIDHasDynamoDBsShape(t *testing.T) {
	if id := NewID(time.UnixMilli(1489602797149)); !regexp.MustCompile(`^01489602797149-[0-9a-f]{8}$`).MatchString(id) {
		t.Fatal(id)
	}
}
