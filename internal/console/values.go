package console

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"sort"
	"strings"
)

// cell is one attribute value as a page shows it: compact text and the
// DynamoDB type it has.
type cell struct {
	Text string
	Type string
}

// render turns one DynamoDB JSON value into a cell: S as text, N as the
// number, M and L as plain JSON, sets as lists.
func render(av map[string]json.RawMessage) cell {
	for typ, raw := range av {
		return cell{Text: text(typ, raw), Type: typ}
	}
	return cell{}
}

func text(typ string, raw json.RawMessage) string {
	switch typ {
	case "S", "N", "B":
		var s string
		_ = json.Unmarshal(raw, &s)
		return s
	case "BOOL", "NULL":
		return string(raw)
	}
	b, err := json.Marshal(plain(typ, raw))
	if err != nil {
		return string(raw)
	}
	return string(b)
}

// plain is a value without its type wrappers, for M, L and sets shown as
// JSON: the shape a person reads, not the wire's.
func plain(typ string, raw json.RawMessage) any {
	switch typ {
	case "M":
		var m map[string]map[string]json.RawMessage
		_ = json.Unmarshal(raw, &m)
		out := make(map[string]any, len(m))
		for k, v := range m {
			out[k] = plainValue(v)
		}
		return out
	case "L":
		var l []map[string]json.RawMessage
		_ = json.Unmarshal(raw, &l)
		out := make([]any, len(l))
		for i, v := range l {
			out[i] = plainValue(v)
		}
		return out
	case "N":
		return json.Number(text(typ, raw))
	case "BOOL", "NULL":
		var v any
		_ = json.Unmarshal(raw, &v)
		return v
	}
	var v any
	_ = json.Unmarshal(raw, &v)
	return v
}

func plainValue(av map[string]json.RawMessage) any {
	for typ, raw := range av {
		if typ == "NULL" {
			return nil
		}
		if typ == "NS" {
			var ns []json.Number
			_ = json.Unmarshal(raw, &ns)
			return ns
		}
		return plain(typ, raw)
	}
	return nil
}

// columns orders a page's attribute names: the key attributes first, in
// the order given, then every other attribute of the page's items, sorted.
func columns(keys []string, items []item) []string {
	seen := map[string]bool{}
	cols := make([]string, 0, len(keys))
	for _, k := range keys {
		if !seen[k] {
			seen[k] = true
			cols = append(cols, k)
		}
	}
	var rest []string
	for _, it := range items {
		for name := range it {
			if !seen[name] {
				seen[name] = true
				rest = append(rest, name)
			}
		}
	}
	sort.Strings(rest)
	return append(cols, rest...)
}

// row is one item's cells in the page's column order; an attribute the
// item lacks is an empty cell.
func row(cols []string, it item) []cell {
	cells := make([]cell, len(cols))
	for i, c := range cols {
		if av, ok := it[c]; ok {
			cells[i] = render(av)
		}
	}
	return cells
}

// group is one item collection on a page: the items sharing the values of
// every partition key attribute, in the order the Scan returned them
// (sort key order within a partition).
type group struct {
	Key  []cell
	Rows [][]cell
	Edit []string // items.go: each row's edit page, on a table's page
}

// groups splits a page's items into runs of equal partition key values.
// A Scan returns each partition's items together, so runs are partitions;
// a partition cut by the page's end continues on the next page.
func groups(partition, cols []string, items []item) []group {
	var out []group
	last := ""
	for _, it := range items {
		id := partitionID(partition, it)
		if len(out) == 0 || id != last {
			out = append(out, group{Key: keyCells(partition, it)})
			last = id
		}
		g := &out[len(out)-1]
		g.Rows = append(g.Rows, row(cols, it))
	}
	return out
}

func keyCells(partition []string, it item) []cell {
	cells := make([]cell, len(partition))
	for i, a := range partition {
		cells[i] = render(it[a])
	}
	return cells
}

func partitionID(partition []string, it item) string {
	b, _ := json.Marshal(keyCells(partition, it))
	return string(b)
}

// keyNames are the attribute names of a key schema of one key type, in
// schema order (multi-attribute keys have several).
func keyNames(schema []keyElem, keyType string) []string {
	var names []string
	for _, k := range schema {
		if k.KeyType == keyType {
			names = append(names, k.AttributeName)
		}
	}
	return names
}

const maxTokenBytes = 8 << 10

var errBadToken = errors.New("the start token is not a key this console wrote: open the first page instead")

// encodeToken makes a LastEvaluatedKey a ?start= token.
func encodeToken(key item) string {
	if len(key) == 0 {
		return ""
	}
	b, _ := json.Marshal(key)
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeToken reads a ?start= token back into an ExclusiveStartKey; the
// API itself then checks that it is a key of the table or index.
func decodeToken(s string) (item, error) {
	if s == "" {
		return nil, nil
	}
	if len(s) > maxTokenBytes {
		return nil, errBadToken
	}
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
	if err != nil {
		return nil, errBadToken
	}
	var key item
	if err := json.Unmarshal(b, &key); err != nil || len(key) == 0 {
		return nil, errBadToken
	}
	for _, av := range key {
		if len(av) != 1 {
			return nil, errBadToken
		}
	}
	return key, nil
}
