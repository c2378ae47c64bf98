package validate

import (
	"strings"

	"github.com/sortkeydb/sortkey/internal/protocol"
)

// The service quotes list values with Java's toString, e.g.
// '[KeySchemaElement(attributeName=pk, keyType=HASH)]'.

func renderKeySchema(ks []protocol.KeySchemaElement) string {
	parts := make([]string, len(ks))
	for i, k := range ks {
		parts[i] = "KeySchemaElement(attributeName=" + javaString(k.AttributeName) + ", keyType=" + javaString(k.KeyType) + ")"
	}
	return quote("[" + strings.Join(parts, ", ") + "]")
}

func renderStrings(list []string) string { return quote("[" + strings.Join(list, ", ") + "]") }

// javaHashSetOrder returns names in the iteration order of a java.util.HashSet
// they were added to: the service builds its "keys used" lists that way, and
// real messages show that order, not the request's.
func javaHashSetOrder(names []string) []string {
	capacity := 16
	for float64(len(names)) > 0.75*float64(capacity) {
		capacity *= 2
	}
	buckets := make([][]string, capacity)
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			continue
		}
		seen[n] = true
		i := javaSpread(n) & uint32(capacity-1)
		buckets[i] = append(buckets[i], n)
	}
	out := make([]string, 0, len(seen))
	for _, b := range buckets {
		out = append(out, b...)
	}
	return out
}

// javaSpread is String.hashCode mixed the way HashMap.hash mixes it.
func javaSpread(s string) uint32 {
	var h int32
	for _, u := range utf16Units(s) {
		h = 31*h + int32(u)
	}
	x := uint32(h)
	return x ^ x>>16
}

func utf16Units(s string) []uint16 {
	var out []uint16
	for _, r := range s {
		if r >= 0x10000 {
			r -= 0x10000
			out = append(out, uint16(0xD800+(r>>10)), uint16(0xDC00+(r&0x3FF)))
			continue
		}
		out = append(out, uint16(r))
	}
	return out
}
