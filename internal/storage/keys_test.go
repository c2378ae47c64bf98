package storage

import (
	"bytes"
	"testing"
)

// TestAppendItemKey checks the one-buffer key against the composed one
// that every stored key so far was built with.
func TestAppendItemKey(t *testing.T) {
	for _, c := range []struct {
		table uint64
		index uint16
		pk    []byte
	}{{1, 0, []byte("a")}, {1<<63 + 5, 7, nil}, {42, 0xffff, []byte{0, 1, 0xff}}} {
		want := ItemKey(ItemPrefix(c.table, c.index), c.pk, nil)
		if got := AppendItemKey([]byte("x"), c.table, c.index, c.pk); !bytes.Equal(got, append([]byte("x"), want...)) {
			t.Errorf("%d/%d/%x: %x, want x%x", c.table, c.index, c.pk, got, want)
		}
	}
}
