package protocol

import "github.com/sortkeydb/sortkey/internal/attr"

// field is one member the scanner decodes into a T: its exact json name
// and how its value is decoded.
type field[T any] struct {
	name string
	set  func(*scanner, *T)
}

// member is a field with its bit in the set of members already seen,
// since a repeated member is left to encoding/json.
type member[T any] struct {
	bit uint64
	set func(*scanner, *T)
}

type members[T any] map[string]member[T]

func newMembers[T any](fields ...[]field[T]) members[T] {
	m := members[T]{}
	for _, fs := range fields {
		for _, f := range fs {
			if _, dup := m[f.name]; dup || len(m) == 64 {
				panic("protocol: bad member table at " + f.name)
			}
			m[f.name] = member[T]{bit: 1 << len(m), set: f.set}
		}
	}
	return m
}

// The field kinds the scanner covers, each reaching its field through get.

func strField[T any](name string, get func(*T) **string) field[T] {
	return field[T]{name, func(s *scanner, p *T) { s.strPtr(get(p)) }}
}

func boolField[T any](name string, get func(*T) **bool) field[T] {
	return field[T]{name, func(s *scanner, p *T) { s.boolPtr(get(p)) }}
}

func int64Field[T any](name string, get func(*T) **int64) field[T] {
	return field[T]{name, func(s *scanner, p *T) { s.int64Ptr(get(p)) }}
}

func itemField[T any](name string, get func(*T) *attr.Item) field[T] {
	return field[T]{name, func(s *scanner, p *T) { s.item(get(p)) }}
}

func namesField[T any](name string, get func(*T) *map[string]string) field[T] {
	return field[T]{name, func(s *scanner, p *T) { s.stringMap(get(p)) }}
}

func valuesField[T any](name string, get func(*T) *[]attr.Value) field[T] {
	return field[T]{name, func(s *scanner, p *T) { s.values(get(p)) }}
}

func stringsField[T any](name string, get func(*T) *[]string) field[T] {
	return field[T]{name, func(s *scanner, p *T) { s.strings(get(p)) }}
}

// objectField decodes a pointer to a struct with its own members.
func objectField[T, E any](name string, get func(*T) **E, m *members[E]) field[T] {
	return field[T]{name, func(s *scanner, p *T) {
		e := new(E)
		if decodeObject(s, e, *m); !s.bad {
			*get(p) = e
		}
	}}
}

// requestItemsField decodes BatchWriteItem's RequestItems: table to an
// array of write requests. A repeated table replaces the earlier one, and
// [] gives an empty, non-nil slice, as in encoding/json.
func requestItemsField[T any](name string, get func(*T) *map[string][]WriteRequest) field[T] {
	return field[T]{name, func(s *scanner, p *T) {
		if !s.open('{') {
			return
		}
		m := make(map[string][]WriteRequest)
		for first := true; s.more('}', first); first = false {
			k := s.str()
			s.colon()
			if l := writeRequests(s); !s.bad {
				m[k] = l
			}
		}
		if !s.bad {
			*get(p) = m
		}
	}}
}

func writeRequests(s *scanner) []WriteRequest {
	l := []WriteRequest{}
	if !s.open('[') {
		return nil
	}
	for first := true; s.more(']', first) && !s.bad; first = false {
		var w WriteRequest
		decodeObject(s, &w, writeRequestMembers)
		l = append(l, w)
	}
	return l
}

// promote lifts an embedded struct's fields into the embedding T, as
// encoding/json does.
func promote[T, E any](get func(*T) *E, fs []field[E]) []field[T] {
	out := make([]field[T], len(fs))
	for i, f := range fs {
		out[i] = field[T]{f.name, func(s *scanner, p *T) { f.set(s, get(p)) }}
	}
	return out
}

// decodeObject decodes the object at s.pos into p. Whatever is not an
// exact, first mention of a member in m makes the body bad.
func decodeObject[T any](s *scanner, p *T, m members[T]) {
	if !s.open('{') {
		return
	}
	var seen uint64
	for first := true; s.more('}', first); first = false {
		f, ok := m[string(s.name())]
		if !ok || seen&f.bit != 0 {
			s.fail()
			return
		}
		seen |= f.bit
		s.colon()
		if s.bad {
			return
		}
		f.set(s, p)
	}
}

// decodeFast decodes body into v if v is one of the types the scanner
// covers, still zero, and body in the canonical subset; it reports whether
// it did. When it did not, v is as it was.
func decodeFast(body []byte, v any) bool {
	switch p := v.(type) {
	case *GetItemInput:
		return decodeTop(body, p, getItemMembers)
	case *PutItemInput:
		return decodeTop(body, p, putItemMembers)
	case *UpdateItemInput:
		return decodeTop(body, p, updateItemMembers)
	case *DeleteItemInput:
		return decodeTop(body, p, deleteItemMembers)
	case *QueryInput:
		return decodeTop(body, p, queryMembers)
	case *ScanInput:
		return decodeTop(body, p, scanMembers)
	case *BatchWriteItemInput:
		return decodeTop(body, p, batchWriteItemMembers)
	case *ExecuteStatementInput:
		return decodeTop(body, p, executeStatementMembers)
	}
	return false
}

func decodeTop[T any](body []byte, p *T, m members[T]) bool {
	if !isZero(p) {
		return false
	}
	s := scanner{data: body}
	s.ws()
	decodeObject(&s, p, m)
	s.ws()
	if s.bad || s.pos != len(body) {
		var zero T
		*p = zero
		return false
	}
	return true
}
