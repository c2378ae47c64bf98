package engine

import (
	"bytes"
	"strconv"
	"time"

	"github.com/sortkeydb/sortkey/internal/attr"
)

// Stream records are written by hand: encoding/json reached the items
// through reflection and then re-scanned each item's MarshalJSON output,
// which made a streamed PutItem cost ~1.7x a plain one. The bytes are
// exactly what json.Marshal(record) wrote (stream_test.go proves it), so
// records written before and after read the same.

// appendRecord appends w's stream record for a stream of the given view
// type to dst; ok is false for a write that changed nothing.
func appendRecord(dst []byte, t *table, w *write, view string, now time.Time) (out []byte, ok bool) {
	if w.old != nil && w.new != nil && sameItem(w.old, w.new) {
		return dst, false
	}
	start := len(dst)
	dst = append(append(dst, `{"e":`...), eventOf(w)...)
	dst = append(dst, `,"k":`...)
	dst, size := appendKeys(dst, t, w.keyItem())
	if len(w.old) > 0 && (view == "OLD_IMAGE" || view == "NEW_AND_OLD_IMAGES") {
		dst = attr.AppendItemJSON(append(dst, `,"o":`...), w.old)
		size += w.old.Size()
	}
	if len(w.new) > 0 && (view == "NEW_IMAGE" || view == "NEW_AND_OLD_IMAGES") {
		var n int
		dst, n = appendImage(append(dst, `,"n":`...), w.new, w.enc)
		size += n
	}
	dst = strconv.AppendInt(append(dst, `,"t":`...), now.UnixMilli(), 10)
	dst = strconv.AppendInt(append(dst, `,"s":`...), int64(size), 10)
	if w.byTTL {
		dst = append(dst, `,"x":true`...)
	}
	return escapeHTML(append(dst, '}'), start), true
}

// appendImage appends it as JSON and returns its size, transcoding its
// storage encoding enc when there is one: the same bytes, without
// sorting names or a second walk of the map for the size.
func appendImage(dst []byte, it attr.Item, enc []byte) ([]byte, int) {
	if enc != nil {
		if out, size, err := attr.AppendEncodedJSON(dst, enc); err == nil {
			return out, size
		}
	}
	return attr.AppendItemJSON(dst, it), it.Size()
}

// eventOf is the record's event name as a JSON string.
func eventOf(w *write) string {
	switch {
	case w.old == nil:
		return `"INSERT"`
	case w.new == nil:
		return `"REMOVE"`
	}
	return `"MODIFY"`
}

// appendKeys appends the key attributes of it as a JSON object, names in
// sorted order, and returns their size.
func appendKeys(dst []byte, t *table, it attr.Item) ([]byte, int) {
	first, second := t.key.hash.name, t.key.rng.name
	if second != "" && second < first {
		first, second = second, first
	}
	dst, size := appendKey(append(dst, '{'), it, first)
	if second != "" {
		var n int
		dst, n = appendKey(append(dst, ','), it, second)
		size += n
	}
	return append(dst, '}'), size
}

func appendKey(dst []byte, it attr.Item, name string) ([]byte, int) {
	v := it[name]
	dst = attr.AppendJSON(append(attr.AppendJSONString(dst, name), ':'), &v)
	return dst, len(name) + v.Size()
}

// escapeHTML escapes <, > and & in dst[start:] as encoding/json does by
// default. They can only occur inside strings there, so every one is
// escaped; most records have none and are returned as they are.
func escapeHTML(dst []byte, start int) []byte {
	i := bytes.IndexAny(dst[start:], "<>&")
	if i < 0 {
		return dst
	}
	i += start
	tail := append([]byte(nil), dst[i:]...)
	dst = dst[:i]
	for _, c := range tail {
		if c == '<' || c == '>' || c == '&' {
			dst = append(dst, '\\', 'u', '0', '0', "0123456789abcdef"[c>>4], "0123456789abcdef"[c&0xF])
			continue
		}
		dst = append(dst, c)
	}
	return dst
}
