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

// Every kind of key has its own first byte: two sharing one would read
// each other's keys in range scans and deletions.
func TestKeyPrefixesDistinct(t *testing.T) {
	seen := map[byte]string{}
	for name, p := range map[string]byte{"catalog": prefixCatalog, "sequence": prefixSequence, "stats": prefixStats,
		"item": prefixItem, "token": prefixToken, "backup": prefixBackup, "backup item": prefixBackItem,
		"clock": prefixClock, "graphs": prefixGraphs, "health": prefixHealth} {
		if other, dup := seen[p]; dup {
			t.Fatalf("%s and %s keys share the prefix %q", name, other, p)
		}
		seen[p] = name
	}
}
