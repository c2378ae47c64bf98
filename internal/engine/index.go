package engine

import (
	"bytes"

	"github.com/sortkeydb/sortkey/internal/attr"
	"github.com/sortkeydb/sortkey/internal/storage"
)

// Secondary index entries live beside the table's items, under the index's
// own id:
//
//	prefix(table, index) | hash(index pk) | index pk | index sk | table pk | table sk
//
// The table's key at the end makes entries unique when index keys repeat;
// the value is the item as projected into the index. An item without every
// one of the index's key attributes has no entry: that is what makes an
// index sparse. A multi-attribute key's index pk (and sk) is its values'
// key encodings one after another: each encoding ends itself and none is a
// prefix of another, so byte order is the order of the values compared one
// after the other, and ("a","bc") cannot meet ("ab","c").

// entryKey is the index entry key of it, or nil when it is not in the index.
func (t *table) entryKey(ix *indexSchema, it attr.Item) []byte {
	k := t.keyedEntry(ix, it)
	if k != nil && ix.vec != nil && !ix.vec.indexed(it) {
		return nil
	}
	return k
}

// keyedEntry is entryKey for a caller that checks a vector index's vector
// itself, to read it once.
func (t *table) keyedEntry(ix *indexSchema, it attr.Item) []byte {
	if it == nil || !hasAll(it, ix.key.hashes) || !hasAll(it, ix.key.rngs) {
		return nil
	}
	var scratch [64]byte // the partition key, usually without an allocation
	ik := appendKeyValues(scratch[:0], it, ix.key.hashes)
	// One allocation, room for the sort and table keys in most tables.
	k := make([]byte, 0, storage.PartitionPrefixLen+2*len(ik)+64)
	k = storage.AppendItemKey(k, t.meta.ID, ix.id, ik)
	k = appendKeyValues(k, it, ix.key.rngs)
	return t.appendTableKey(k, it)
}

func hasAll(it attr.Item, keys []keyAttr) bool {
	for _, k := range keys {
		if _, ok := it[k.name]; !ok {
			return false
		}
	}
	return true
}

// appendKeyValues appends the key encodings of it's values for keys.
func appendKeyValues(dst []byte, it attr.Item, keys []keyAttr) []byte {
	for _, k := range keys {
		v := it[k.name]
		dst = attr.AppendKey(dst, &v)
	}
	return dst
}

// appendTableKey appends the encoded table key of it.
func (t *table) appendTableKey(dst []byte, it attr.Item) []byte {
	pk := it[t.key.hash.name]
	dst = attr.AppendKey(dst, &pk)
	if t.key.rng.name != "" {
		sk := it[t.key.rng.name]
		dst = attr.AppendKey(dst, &sk)
	}
	return dst
}

// projectInto is it as stored in the index: the table and index keys, plus
// every attribute for ALL or the named ones for INCLUDE.
func (t *table) projectInto(ix *indexSchema, it attr.Item) attr.Item {
	if ix.projType == "ALL" {
		return it
	}
	out := attr.Item{}
	for name, v := range it {
		if t.isKeyAttr(ix, name) || ix.include[name] {
			out[name] = v
		}
	}
	return out
}

func (t *table) isKeyAttr(ix *indexSchema, name string) bool {
	return name == t.key.hash.name || name == t.key.rng.name || ix.key.has(name)
}

// writeIndexes adds to b the index changes of replacing old with new: an
// entry whose key changed moves (delete, then put), an entry whose key is
// unchanged is rewritten unless its projection is too, an item that left
// the index loses its entry. enc is new's encoding, which an ALL entry
// stores as it is. It returns the size change of the local indexes, which
// item collections count.
func (e *Engine) writeIndexes(b *storage.Batch, t *table, w *write, enc []byte) (local int64) {
	old, new := w.old, w.new
	for i := range t.indexes {
		ix := &t.indexes[i]
		ok := t.entryKey(ix, old)
		nk, vec := t.newEntry(ix, w)
		if ok != nil && ix.backfilling && !e.exists(ok) {
			ok = nil // the backfill has not reached this item yet
		}
		if ok != nil && bytes.Equal(ok, nk) && sameProjection(ix, old, new) {
			continue // the entry stays exactly as it is
		}
		if ix.vec != nil {
			e.noteVectorChange(b, t, ix, ok, nk, new, vec)
		}
		var oldProj, newProj attr.Item
		if ok != nil {
			oldProj = t.projectInto(ix, old)
			if nk == nil || !bytes.Equal(ok, nk) {
				b.Delete(ok)
			}
		}
		if nk != nil {
			newProj = t.projectInto(ix, new)
			b.Set(nk, entryValue(ix, vec, newProj, enc))
		}
		d := entryDelta(oldProj, newProj)
		b.AddStats(storage.StatsKey(t.meta.ID, ix.id), d)
		if !ix.global {
			local += d.Bytes
		}
	}
	return local
}

// newEntry is the entry key of w's new item in ix and, for a vector index,
// its vector, read once for the key, the graphs and the entry.
func (t *table) newEntry(ix *indexSchema, w *write) ([]byte, []float32) {
	k := t.keyedEntry(ix, w.new)
	if k == nil || ix.vec == nil {
		return k, nil
	}
	vec, ok := w.key.vectors.of(w.new, ix.vec)
	if !ok {
		return nil, nil
	}
	return k, vec
}

// sameProjection reports whether old and new, whose entries in ix have
// the same key, project the same attributes into it: always for
// KEYS_ONLY (equal keys), when the included attributes are equal for
// INCLUDE. An ALL entry is the whole item, so it is always rewritten.
func sameProjection(ix *indexSchema, old, new attr.Item) bool {
	switch ix.projType {
	case "KEYS_ONLY":
		return true
	case "INCLUDE":
		for name := range ix.include {
			if !sameAttr(old, new, name) {
				return false
			}
		}
		return true
	}
	return false
}

// sameAttr reports whether a and b both lack name or hold equal values.
func sameAttr(a, b attr.Item, name string) bool {
	x, inA := a[name]
	y, inB := b[name]
	return inA == inB && (!inA || attr.Equal(&x, &y))
}

// entryValue is an index entry's stored value: for ALL the item's own
// encoding, which the batch copies, otherwise the projection's; for a
// vector index, vec first.
func entryValue(ix *indexSchema, vec []float32, proj attr.Item, enc []byte) []byte {
	if ix.vec != nil {
		return ix.vec.entryValue(vec, proj, enc)
	}
	if ix.projType == "ALL" && enc != nil {
		return enc
	}
	return attr.AppendItem(nil, proj)
}

// indexEntryOverhead is what DynamoDB adds to each index entry's size: the
// Developer Guide sizes an entry as its table key, index key and projected
// attributes plus 100 bytes.
const indexEntryOverhead = 100

// entryDelta is the change in an index's count and size when its entry
// goes from old to new (either nil for no entry).
func entryDelta(old, new attr.Item) storage.Stats {
	d := statsDelta(old, new)
	d.Bytes += indexEntryOverhead * d.Items
	return d
}

// exists reports whether k is stored. A read error counts as present: the
// entry is then deleted and its stats subtracted, which at worst misstates
// the index's size, never its contents.
func (e *Engine) exists(k []byte) bool {
	_, ok, err := e.db.Get(k)
	return ok || err != nil
}
